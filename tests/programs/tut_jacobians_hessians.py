# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Jacobians, Hessians, hvp, vhp, and more: composing function transforms", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/jacobians_hessians.py
# Like the original: predict(weight, bias, x) = F.linear(x, weight, bias).tanh(), a Jacobian
# built row by row with torch.autograd.grad and unit vectors, the same from vjp + vmap, from
# jacrev(argnums=2) and w.r.t. the parameters with argnums=(0, 1), jacfwd vs jacrev on tall and
# wide problems, hessian / jacfwd(jacfwd) / jacrev(jacrev), the batch Jacobian by vmap over
# jacrev (in_dims=(None, None, 0)) and by the sum trick with .movedim(1, 0), batch hessians,
# and hvp by jvp(grad(f)) against vjp(grad(f)).
# Differences: our own code; smaller sizes; the torch.utils.benchmark timings are left out
# (not deterministic); the asserts become printed allclose results, plus a few values.
from functools import partial

import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

_ = torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 8
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)


def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0]
                     for vec in unit_vectors]
    return torch.stack(jacobian_rows)


xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])

_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian, jacobian))
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(ft_jacobian, jacobian), torch.equal(ft_jacobian, jacobian))

ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias.diagonal())

for Din, Dout in ((4, 64), (64, 4)):
    weight = torch.randn(Dout, Din)
    bias = torch.randn(Dout)
    x = torch.randn(Din)
    print(weight.shape)
    jf = jacfwd(predict, argnums=2)(weight, bias, x)
    jr = jacrev(predict, argnums=2)(weight, bias, x)
    print(jf.shape, torch.allclose(jf, jr), (jf - jr).abs().max().item() < 1e-6)

Din, Dout = 16, 4
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd), torch.allclose(hess_api, hess_revrev))
print(hess_api[0, :3, :3])

batch_size, Din, Dout = 6, 5, 7
weight = torch.randn(Dout, Din)
print(f"weight shape = {weight.shape}")
bias = torch.randn(Dout)
x = torch.randn(batch_size, Din)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(batch_jacobian0.shape, torch.allclose(batch_jacobian0, batch_jacobian1))

compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape)


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


x = torch.randn(32)
tangent = torch.randn(32)
result = hvp(f, (x,), (tangent,))


def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
print(torch.allclose(result, result_hvp_revrev[0]))
print(result[:5])
print(torch.allclose(result, -x.sin() * tangent))
