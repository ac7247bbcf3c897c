# Corpus program modelled on torch.nn.utils.parametrizations.orthogonal's documentation as
# explained in the Q&A collection "Orthogonal Parametrization in PyTorch"
# (https://pytorch.org/docs/master/generated/torch.nn.utils.parametrizations.orthogonal.html and
# https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1): an orthogonal Linear weight
# (Q^T Q = I for a tall matrix, Q Q^T = I for a wide one), the three orthogonal maps
# (matrix_exp, cayley, householder), the stored base of the trivialization, the module repr
# with its ParametrizationList, training steps that keep the weight orthogonal, and removing
# the parametrization. Changed: small layers with a seed; residuals printed rounded.
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)
orth_linear = orthogonal(nn.Linear(20, 40))
print(orth_linear)
Q = orth_linear.weight
print(Q.shape, torch.dist(Q.T @ Q, torch.eye(20)) < 1e-5)
print(parametrize.is_parametrized(orth_linear), list(orth_linear.parametrizations.keys()))
print(type(orth_linear.parametrizations.weight[0]).__name__)
print(orth_linear.parametrizations.weight.original.shape)
print(sorted(n for n, _ in orth_linear.named_parameters()))

wide = orthogonal(nn.Linear(6, 3), orthogonal_map="cayley")
W = wide.weight
print(W.shape, torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
for m in ("matrix_exp", "cayley", "householder"):
    lin = orthogonal(nn.Linear(4, 4), orthogonal_map=m)
    w = lin.weight
    print(m, torch.allclose(w.T @ w, torch.eye(4), atol=1e-5), w.requires_grad, type(w.grad_fn).__name__ if w.grad_fn else None)
    print(lin.parametrizations.weight[0].orthogonal_map, hasattr(lin.parametrizations.weight[0], "base"))

opt = torch.optim.SGD(wide.parameters(), lr=0.1)
x = torch.randn(5, 6)
target = torch.randn(5, 3)
for step in range(3):
    opt.zero_grad()
    loss = ((wide(x) - target) ** 2).mean()
    loss.backward()
    opt.step()
    W = wide.weight
    print(step, round(loss.item(), 4), bool(torch.allclose(W @ W.T, torch.eye(3), atol=1e-4)))
print(wide.parametrizations.weight.original.grad.shape)
with parametrize.cached():
    a = wide.weight
    b = wide.weight
    print(a is b)
parametrize.remove_parametrizations(wide, "weight")
print(wide, type(wide.weight).__name__, parametrize.is_parametrized(wide))
