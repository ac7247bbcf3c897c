# Corpus program modelled on functorch's issues and pull requests about jacrev's arguments:
# "argnum to select jacrev differentiation argument" and its test, jacrev(torch.multiply, 1)
# == diagflat(x) https://github.com/pytorch/functorch/issues/110 (PR #111);
# "Feature request: jacrev_with_value" (has_aux returning the output as aux)
# https://github.com/pytorch/functorch/issues/333 ; and "Clarify jacrev_and_value ... can be
# implemented with has_aux" (the log-domain Laplacian: slogdet, hessian trace)
# https://github.com/pytorch/functorch/issues/502
# Changed: torch.func instead of functorch; a seed; small sizes; values printed instead of
# asserted. Written for gradsh.
import torch
from torch.func import grad, hessian, jacfwd, jacrev, vmap

torch.manual_seed(0)
x = torch.randn(3)
y = torch.randn(3)
z = jacrev(torch.multiply, 1)(x, y)
print(z)
print(torch.allclose(z, torch.diagflat(x)))
print(jacrev(torch.multiply, argnums=(0, 1))(x, y))


def f(x):
    output = x.sin()
    return output, output


jacobian, aux = jacrev(f, has_aux=True)(torch.randn(3))
print(jacobian)
print(aux)
jf, auxf = jacfwd(f, has_aux=True)(x)
print(torch.allclose(jf, torch.diag(x.cos())), auxf)


def g(x, y):
    return 2 * x * y


a, b = torch.tensor(3.), torch.tensor(4.)
print(grad(g)(a, b), grad(g, 0)(a, b), grad(g, 1)(a, b), grad(g, (0, 1))(a, b))


def log_abs_det(m):
    sign, logabs = torch.linalg.slogdet(m.reshape(2, 2))
    return logabs


m = torch.tensor([2.0, 0.5, -0.3, 1.5])
j = jacrev(log_abs_det)(m)
h = hessian(log_abs_det)(m)
print(j)
print(h)
print("laplacian of log|det|:", torch.trace(h))
print("laplacian of |det| / |det|:", torch.trace(h) + (j ** 2).sum())
batch = torch.randn(4, 4) + 2 * torch.tensor([1.0, 0.0, 0.0, 1.0])
print(vmap(jacrev(log_abs_det))(batch))
