# Corpus program, written for gradsh (no code copied). Modelled on a course notebook on
# torch.func (derivatives of x**2 + sin(x**2) over a batch with vmap(grad(f)), then a Jacobian
# row by row with torch.autograd.grad under vmap over basis vectors):
# https://github.com/arampatzis-teaching/damsl-281-2025 , and on the torch.func whirlwind
# tour's examples (per-example gradients of a linear model, jacrev, vmap of a model):
# http://pytorch.org/docs/stable/func.whirlwind_tour.html , plus torch.vmap's docstring
# example with in_dims shaped like a dict argument.
# Differences: a smaller batch, printed values instead of asserts; seeded.
import torch
from torch.func import grad, jacrev, vmap

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def f(x):
    return x ** 2 + torch.sin(x ** 2)


def df_dx(x):
    return 2 * x + 2 * x * torch.cos(x ** 2)


x = torch.linspace(0, 5, 100, requires_grad=True)
dy_dx = vmap(grad(f))(x)
print("derivatives correct?", torch.allclose(df_dx(x), dy_dx), dy_dx[:4], dy_dx.grad_fn)


def g(x):  # R^2 -> R^3, one row per sample
    return torch.stack([x[:, 0] * x[:, 1], x[:, 0] ** 2, torch.sin(x[:, 1])], dim=1)


N = 4
x = torch.randn(N, 2, requires_grad=True)
y = g(x)


def get_vjp(v):
    return torch.autograd.grad(y, x, v.expand(N, 3))


jac = vmap(get_vjp)(torch.eye(3))[0]
print(jac.shape)
print(jac.permute(1, 0, 2))
y = g(x)  # vmap's one batched backward freed the graph
rows = torch.stack([torch.autograd.grad(y, x, v.expand(N, 3), retain_graph=True)[0]
                    for v in torch.eye(3)])
print("same as the loop:", torch.allclose(rows, jac))

torch.set_default_dtype(torch.float32)
weights = torch.randn(5, requires_grad=True)
examples = torch.randn(3, 5)
print(vmap(lambda v: v.dot(weights).relu())(examples))


def compute_loss(w, example, target):
    return ((example.dot(w).relu() - target) ** 2).mean()


per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(weights, examples, torch.randn(3))
print(per_example)
print(vmap(jacrev(torch.sin))(torch.randn(2, 3)).diagonal(dim1=1, dim2=2))
batched_dot = vmap(lambda d: torch.dot(d["x"], d["y"]), in_dims=({"x": 0, "y": None},))
print(batched_dot({"x": torch.randn(2, 5), "y": torch.randn(5)}))
