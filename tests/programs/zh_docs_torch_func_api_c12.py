# Corpus program, written for gradsh (no code copied). Modelled on the Chinese translation of
# the torch.func API reference page ("torch.func API 参考", https://pytorch.ac.cn/docs/2.3/func.api.html
# and https://docs.pytorch.ac.cn/docs/stable/func.api.html): its two worked examples (jacrev of
# a function calling nn.Linear(3, 3) on x, asserting the (3, 3) shape; the Jacobian with
# respect to the parameters through functional_call(model, params, x) and
# jacrev(f)(dict(model.named_parameters()), x)) and one call of each transform the page lists
# (vmap, grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd, hessian, functionalize),
# plus stack_module_state for an ensemble as the page's "utilities for nn.Modules" section
# names it.
# Differences: a manual seed; the page only lists most transforms, so each gets a small
# function of its own, checked against torch.autograd where it helps; the results are
# printed rather than asserted.
import copy

import torch
from torch.func import (functional_call, functionalize, grad, grad_and_value, hessian, jacfwd,
                        jacrev, jvp, linearize, stack_module_state, vjp, vmap)

torch.manual_seed(23)
model = torch.nn.Linear(3, 3)


def f(x):
    return model(x)


x = torch.randn(3)
jacobian = jacrev(f)(x)
assert jacobian.shape == (3, 3)
print(jacobian)
print(torch.equal(jacobian, model.weight.detach()))


def f2(params, x):
    return functional_call(model, params, x)


jacobian = jacrev(f2)(dict(model.named_parameters()), x)
print({k: tuple(v.shape) for k, v in jacobian.items()})
print(jacobian['weight'][1])
print(jacobian['bias'])

batch = torch.randn(4, 3)
print(vmap(f)(batch))
print(vmap(torch.dot)(batch, batch))
print(vmap(lambda row: row.sum() * row, in_dims=1, out_dims=1)(batch))


def g(v):
    return (v.sin() * v).sum()


print(grad(g)(x))
gx, value = grad_and_value(g)(x)
print(gx, value)
out, vjp_fn = vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(3)))
primal_out, tangent_out = jvp(torch.exp, (x,), (torch.ones(3),))
print(primal_out, tangent_out)
value, jvp_fn = linearize(torch.tanh, x)
print(value, jvp_fn(torch.tensor([1.0, 0.0, 2.0])))
print(jacfwd(torch.sin)(x))
print(hessian(g)(x))
print(torch.allclose(hessian(g)(x), torch.autograd.functional.hessian(g, x)))


def h(t):
    y = t.clone()
    y.add_(1)
    y.mul_(2)
    return y


print(functionalize(h)(x), h(x))


def loss_fn(params, xi, yi):
    pred = functional_call(model, params, (xi,))
    return ((pred - yi) ** 2).mean()


params = {k: v.detach() for k, v in model.named_parameters()}
targets = torch.randn(4, 3)
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, batch, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
print(per_sample['bias'])
print(torch.allclose(per_sample['bias'].mean(0), grad(
    lambda p: ((functional_call(model, p, (batch,)) - targets) ** 2).mean(1).mean())(params)['bias']))

models = [torch.nn.Linear(3, 2) for _ in range(3)]
ens_params, ens_buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in ens_params.items()}, ens_buffers)
base = copy.deepcopy(models[0]).to('meta')


def call_one(p, b, inp):
    return functional_call(base, (p, b), (inp,))


ens_out = vmap(call_one, in_dims=(0, 0, None))(ens_params, ens_buffers, batch)
print(ens_out.shape)
print(ens_out[2])
print(models[2](batch))
