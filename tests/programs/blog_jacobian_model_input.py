# Corpus program, written for gradsh (no code copied). Modelled on the "autograd.functional"
# part of the PyTorch autograd tutorial for the new API
# (https://pytorch.org/tutorials/intermediate/autograd_tutorial / the jacobian and hessian
# reference pages) and the blog posts that compute the Jacobian of a network's output with
# respect to its input: a manual Jacobian built row by row with autograd.grad and
# retain_graph, torch.autograd.functional.jacobian on the same function (also with
# vectorize=True and create_graph=True), the Jacobian of a function of two inputs as a tuple,
# jacobian of a model's forward on a batch (and its block-diagonal structure), the Hessian of
# a scalar loss with respect to the weights, vjp and jvp.
# Differences: our own code; seeded; printed rounded.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian, jvp, vjp

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(3, requires_grad=True)
y = net(x)
rows = []
for i in range(y.shape[0]):
    (g,) = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
J_manual = torch.stack(rows)
J = jacobian(net, x.detach())
print(J.shape, torch.allclose(J, J_manual))
print(torch.allclose(jacobian(net, x.detach(), vectorize=True), J))
Jc = jacobian(net, x.detach(), create_graph=True)
print(Jc.requires_grad)


def f(a, b):
    return a * b.sum() + b[:2] ** 2


a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, -1.0, 0.5])
Ja, Jb = jacobian(f, (a, b))
print(Ja, Jb, sep="\n")
batch = torch.randn(4, 3)
Jbatch = jacobian(net, batch)
print(Jbatch.shape)
print(torch.count_nonzero(Jbatch.sum(dim=(1, 3)) - torch.diag(torch.diag(Jbatch.sum(dim=(1, 3))))).item())
print(torch.allclose(Jbatch[2, :, 2], jacobian(net, batch[2])))

w = torch.randn(3)


def loss_fn(weights):
    return ((batch @ weights - 1.0) ** 2).mean()


H = hessian(loss_fn, w)
print(torch.allclose(H, 2 * batch.t() @ batch / 4, atol=1e-5), H.shape)
out, vj = vjp(lambda t: t ** 2, torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 0.5]))
print(out, vj)
out, jv = jvp(lambda t: t.sin().sum(), torch.zeros(3), torch.ones(3))
print(out, jv)
try:
    jacobian(net, x.detach(), strategy="forward-mode")
except NotImplementedError as e:
    print("NotImplementedError:", e)
