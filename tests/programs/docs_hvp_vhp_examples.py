# Corpus program, written for gradsh (no code copied). Modelled on the examples of
# torch.autograd.functional.vhp and hvp (https://pytorch.org/docs/1.9.0/generated/torch.autograd.functional.hvp.html
# and https://mdsite.deno.dev/https:/docs.pytorch.org/docs/stable/generated/torch.autograd.functional.vhp.html):
# pow_reducer(x) = x.pow(3).sum() on a 2x2 input with v = ones, the same with create_graph=True,
# and pow_adder_reducer(x, y) = (2 x^2 + 3 y^2).sum() with a tuple of inputs and of vectors;
# then the Hessian-vector product done by hand with autograd.grad(create_graph=True) for
# comparison, as in the forum answers about HVPs.
# Differences: torch.rand after a seed instead of the docs' unseeded values; printed with
# 4 decimals.
import torch
from torch.autograd.functional import hessian, hvp, vhp

torch.manual_seed(0)


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
out, prod = vhp(pow_reducer, inputs, v)
print(out, prod)
out, prod = vhp(pow_reducer, inputs, v, create_graph=True)
print(out.requires_grad, prod.requires_grad)
out, prod = hvp(pow_reducer, inputs, v)
print(prod)


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))
print(hvp(pow_adder_reducer, inputs, v)[1])

# by hand: H v = d/dx (grad f . v)
x = torch.rand(3, requires_grad=True)
f = (x.sin() * x).sum()
(g,) = torch.autograd.grad(f, x, create_graph=True)
vec = torch.tensor([1.0, 0.5, -1.0])
(hv,) = torch.autograd.grad(g @ vec, x)
print(hv)
H = hessian(lambda t: (t.sin() * t).sum(), x.detach())
print(H)
print(torch.allclose(H @ vec, hv))
