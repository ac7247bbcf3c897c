# Corpus program, written for gradsh (no code copied). Modelled on the pytorch/pytorch issues
# about NaN and inf gradients through torch.where's unselected branch, each a small CPU
# reproducer: #68425 (where(a <= 0, exp(a), 1 + a) at a = 100),
# https://github.com/pytorch/pytorch/issues/68425 ; #18287 (cos of inf),
# https://github.com/pytorch/pytorch/issues/18287 ; #108618 (log2 against an element loop),
# https://github.com/pytorch/pytorch/issues/108618 ; #23395 (sqrt's inf gradient at 0),
# https://github.com/pytorch/pytorch/issues/23395 ; #187297 (sqrt of negatives),
# https://github.com/pytorch/pytorch/issues/187297 ; #156212 (exp of 1e10 and a masked
# assignment of a 0-d long tensor), https://github.com/pytorch/pytorch/issues/156212 ;
# #16317 and #36923 (0/0 masked afterwards), https://github.com/pytorch/pytorch/issues/16317 ;
# and #89543 (a NaN-ignoring MSE), https://github.com/pytorch/pytorch/issues/89543 .
# Each issue's computation and the workaround its thread gives (mask the input, not the
# output); our own code, printed results; seeded where random.
import math

import torch

torch.manual_seed(0)

# exp overflows in the branch that is not taken: 0 * inf = nan in the backward
a = torch.tensor(100., requires_grad=True)
b = torch.where(a <= 0, torch.exp(a), 1 + a)
b.backward()
print("exp branch:", b, a.grad)

x = torch.tensor([0.0, math.inf], requires_grad=True)
y = torch.where(x < 1.0, torch.cos(x), torch.zeros_like(x))
print("cos of inf:", torch.autograd.grad(y.sum(), x))

# torch.where against the same choice made element by element
x1 = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
x2 = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
y1 = torch.where(x1 > 2, torch.log2(x1), 2 * x1)
y2 = x2.clone().detach()
for i in range(len(x2)):
    y2[i] = torch.log2(x2[i]) if x2[i] > 2 else 2 * x2[i]
y1.sum().backward()
y2.sum().backward()
print("y1 =", y1, "x1.grad =", x1.grad)
print("y2 =", y2, "x2.grad =", x2.grad)

# the gradient of each branch, and what where() gives
x = torch.tensor([16., 0.], requires_grad=True)
y = x / 2
z = x.sqrt() + 1
dydx = torch.autograd.grad(y.sum(), x, retain_graph=True)[0]
dzdx = torch.autograd.grad(z.sum(), x, retain_graph=True)[0]
w = torch.where(x == 0., y, z)
expected = torch.where(x == 0., dydx, dzdx)
dwdx = torch.autograd.grad(w.sum(), x, retain_graph=True)[0]
print("branches:", dydx, dzdx, "where:", w, dwdx, "equal:", torch.equal(expected, dwdx))

xt = torch.tensor([-1.0, -4.0], requires_grad=True)
torch.where(xt > 0, torch.sqrt(xt), xt).sum().backward()
print("sqrt of negatives:", xt.grad)

# exp(1e10) and a NaN input, then the indexed version of the same choice
x_th = torch.tensor(10)
x = torch.tensor([1.0, float('nan'), 1e10], requires_grad=True)
one = torch.tensor(1)
out = torch.where(x <= x_th, torch.exp(x), one)
out.sum().backward()
print("where:", out, x.grad)
x.grad = None
out = torch.ones_like(x)
out[x <= x_th] = torch.exp(x[x <= x_th])
out[~(x < x_th)] = one
out.sum().backward()
print("indexed:", out, out.grad_fn, x.grad)

# 0/0 hidden by where, and the fix: make the denominator safe first
for safe in (False, True):
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    n = torch.tensor([0.0, 2.0])
    y = x / (torch.where(n == 0, torch.ones_like(n), n) if safe else n)
    y = torch.where(n == 0, torch.zeros_like(y), y)
    y.sum().backward()
    print("safe" if safe else "unsafe", y, x.grad)

t = 0
x = torch.ones(()).requires_grad_()
z = torch.where(x >= t, x, t * (x / t))
z.backward()
print("t = 0:", z, x.grad)

# a loss that ignores missing targets: mask before squaring, not after
N = 16
target = torch.randn(N)
target = torch.where(target > .5, target, torch.nan)
p = torch.nn.Parameter(torch.randn(N))
missing = torch.isnan(target)
for variant in ("mask first", "square first"):
    p.grad = None
    if variant == "mask first":
        r = torch.where(missing, 0.0, p - target) ** 2
    else:
        r = torch.where(missing, 0.0, (p - target) ** 2)
    loss = r.sum() / missing.sum()
    loss.backward()
    print(variant, round(loss.item(), 4), torch.isnan(p.grad).any().item(),
          p.grad[~torch.isnan(p.grad)].sum())
