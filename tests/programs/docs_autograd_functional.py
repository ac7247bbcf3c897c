# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.autograd.functional.vjp, jvp, jacobian, hessian, vhp and hvp, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/autograd/functional.py
# Like the docs: a row-wise exp-sum reducer, a two-input linear function, a cube-sum reducer
# and a two-input square-sum reducer, each passed to the functional API with single tensors
# and with tuples of inputs / vectors, with and without create_graph=True (so results carry
# grad_fn), and jacobian(vectorize=True) of a small linear model.
# Differences: our own code and values; every result printed; seeded.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(0)


def rowsum_exp(x):
    return x.exp().sum(dim=1)


def lin2(x, y):
    return 3 * x - 2 * y


def cube_total(x):
    return x.pow(3).sum()


def square_mix(x, y):
    return (x.pow(2) + 4 * y.pow(2)).sum()


m = torch.rand(3, 3)
print(vjp(rowsum_exp, m, torch.ones(3)))
print(vjp(rowsum_exp, m, torch.ones(3), create_graph=True))
pair = (torch.rand(2), torch.rand(2))
print(vjp(lin2, pair, torch.ones(2)))

print(jvp(rowsum_exp, m, torch.ones(3, 3)))
print(jvp(rowsum_exp, m, torch.ones(3, 3), create_graph=True))
print(jvp(lin2, pair, (torch.ones(2), torch.ones(2))))

small = torch.rand(2, 2)
print(jacobian(rowsum_exp, small))
print(jacobian(rowsum_exp, small, create_graph=True))
print(jacobian(lambda x, y: 2 * x.exp() + 3 * y, pair))

W = torch.tensor([[1.0, -2.0], [0.5, 1.0]])
bias = torch.tensor([0.0, 1.0])
batch = torch.randn(3, 2, requires_grad=True)
jac = jacobian(lambda x: x @ W.T + bias, batch, vectorize=True)
print(jac.shape)
print(jac[0, :, 0, :])

print(hessian(cube_total, small))
print(hessian(cube_total, small, create_graph=True))
print(hessian(square_mix, pair))

print(vhp(cube_total, small, torch.ones(2, 2)))
print(vhp(cube_total, small, torch.ones(2, 2), create_graph=True))
print(vhp(square_mix, pair, (torch.zeros(2), torch.ones(2))))
print(hvp(cube_total, small, torch.ones(2, 2)))
print(hvp(square_mix, pair, (torch.ones(2), torch.zeros(2))))
