# torch.func.vmap as the docs and notebooks use it: the result's grad_fn is the batched op's
# (ReluBackward0, not a stack), torch.autograd.grad(y, x, v) under vmap runs over the one graph
# for every v (Jacobian rows, without retain_graph), and in_dims shaped like a dict argument.
import torch
from torch.func import grad, vmap

torch.manual_seed(0)
weights = torch.randn(5, requires_grad=True)
examples = torch.randn(3, 5)
print(vmap(lambda v: v.dot(weights).relu())(examples))
print(vmap(lambda v: v * weights)(examples).grad_fn.name())
loss = lambda w, e, t: ((e.dot(w).relu() - t) ** 2).mean()
print(vmap(grad(loss), in_dims=(None, 0, 0))(weights, examples, torch.randn(3)))

x = torch.randn(4, 2, requires_grad=True)
y = torch.stack([x[:, 0] * x[:, 1], x[:, 0] ** 2, torch.sin(x[:, 1])], dim=1)
rows = vmap(lambda v: torch.autograd.grad(y, x, v.expand(4, 3)))(torch.eye(3))
print(rows[0].shape, rows[0][1])
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

f = lambda d: torch.dot(d["x"], d["y"])
print(vmap(f, in_dims=({"x": 0, "y": None},))({"x": torch.randn(2, 5), "y": torch.randn(5)}))
