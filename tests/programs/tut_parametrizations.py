# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Parametrizations Tutorial", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/parametrizations.py
# Like the original: a symmetric linear layer by hand, then parametrize.register_parametrization
# with a Symmetric module on a Linear and a Skew module on a Conv2d; the parametrized module's
# new class and repr, its parametrizations ModuleDict, ParametrizationList and .original;
# parametrize.cached(); chained parametrizations (Skew then a Cayley map through
# torch.linalg.solve); right_inverse used when the weight is assigned; a pruning
# parametrization whose right_inverse is the identity; remove_parametrizations with and
# without leave_parametrized.
# Differences: our own code; the matrix_exp parametrizations are left out (gradsh has no
# matrix_exp); orthogonality is printed as a comparison with a tolerance (the residual's
# last bits are LAPACK's); the Cayley layer is also trained for a few SGD steps; seeded.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(0)


def sym(m):
    return m.triu() + m.triu(1).transpose(-1, -2)


raw = torch.rand(3, 3)
print(sym(raw))


class HandSymmetric(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(n, n))

    def forward(self, x):
        return x @ sym(self.weight)


print(HandSymmetric(3)(torch.rand(2, 3)))


class Symmetric(nn.Module):
    def forward(self, m):
        return m.triu() + m.triu(1).transpose(-1, -2)


class Skew(nn.Module):
    def forward(self, m):
        upper = m.triu(1)
        return upper - upper.transpose(-1, -2)

    def right_inverse(self, m):
        return m.triu(1)


lin = nn.Linear(3, 3)
print(lin)
P.register_parametrization(lin, "weight", Symmetric())
print(lin)
w = lin.weight
print(w, torch.equal(w, w.T))
print(type(lin).__name__, P.is_parametrized(lin), P.is_parametrized(lin, "bias"))
print(P.type_before_parametrizations(lin))
print(lin.parametrizations)
print(lin.parametrizations.weight[0])
print(sorted(name for name, _ in lin.named_parameters()))
print(lin.parametrizations.weight.original)
print(torch.dist(lin.weight, Symmetric()(lin.parametrizations.weight.original)))
print(lin.state_dict().keys())

conv = nn.Conv2d(2, 3, kernel_size=3)
P.register_parametrization(conv, "weight", Skew())
print(conv.weight[1, 0])
print(conv(torch.randn(1, 2, 5, 5)).shape)


class Loud(nn.Module):
    def forward(self, m):
        print("  computing")
        return m


lin = nn.Linear(2, 2)
P.register_parametrization(lin, "weight", Loud())
print("without cache")
_ = lin.weight @ lin.weight.T
with P.cached():
    print("with cache")
    _ = lin.weight @ lin.weight.T + lin.weight


class Cayley(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("eye", torch.eye(n))

    def forward(self, s):
        return torch.linalg.solve(self.eye - s, self.eye + s)

    def right_inverse(self, q):
        return torch.linalg.solve(q + self.eye, self.eye - q)


rot = nn.Linear(3, 3)
P.register_parametrization(rot, "weight", Skew())
P.register_parametrization(rot, "weight", Cayley(3))
q = rot.weight
print("orthogonal:", torch.allclose(q.T @ q, torch.eye(3), atol=1e-5))
print(rot.parametrizations.weight)

skew = nn.Linear(3, 3)
P.register_parametrization(skew, "weight", Skew())
target = torch.rand(3, 3)
target = target - target.T
skew.weight = target
print(torch.dist(skew.weight, target))

target = torch.empty(3, 3)
nn.init.orthogonal_(target)
if target.det() < 0:
    target[0].neg_()
rot.weight = target
print("assigned orthogonal:", torch.allclose(rot.weight, target, atol=1e-5))

opt = torch.optim.SGD(rot.parameters(), lr=0.1)
x, y = torch.randn(8, 3), torch.randn(8, 3)
for step in range(3):
    opt.zero_grad()
    loss = ((rot(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print("still orthogonal:", torch.allclose(rot.weight.T @ rot.weight, torch.eye(3), atol=1e-5))


class RandomPrune(nn.Module):
    def __init__(self, like, p=0.3):
        super().__init__()
        self.mask = torch.bernoulli(torch.full_like(like, 1 - p))

    def forward(self, m):
        return m * self.mask

    def right_inverse(self, m):
        return m


lin = nn.Linear(3, 4)
values = torch.rand_like(lin.weight)
P.register_parametrization(lin, "weight", RandomPrune(lin.weight))
lin.weight = values
print(values)
print(lin.weight)

for leave in (True, False):
    lin = nn.Linear(3, 3)
    before = lin.weight.detach().clone()
    P.register_parametrization(lin, "weight", Skew())
    print(lin.weight)
    P.remove_parametrizations(lin, "weight", leave_parametrized=leave)
    print(leave, lin, type(lin).__name__, hasattr(lin, "parametrizations"))
    print(lin.weight)
    print(torch.equal(lin.weight, before))
