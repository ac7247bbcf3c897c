# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Defining New autograd Functions" (LegendrePolynomial3), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_autograd/polynomial_custom_function.py
# Like the original: y = a + b * P3(c + d x) with P3(t) = (5t^3 - 3t) / 2 as a custom
# torch.autograd.Function (ctx.save_for_backward / ctx.saved_tensors, P3'(t) = 1.5 (5t^2 - 1)),
# called through .apply; weights start from torch.full; loss every 100 steps.
# Differences: our own code. Deterministic without a seed.
import math

import torch


class Legendre3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return 0.5 * (5 * t ** 3 - 3 * t)

    @staticmethod
    def backward(ctx, grad_out):
        (t,) = ctx.saved_tensors
        return grad_out * 1.5 * (5 * t ** 2 - 1)


x = torch.linspace(-math.pi, math.pi, 2000, dtype=torch.float)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=torch.float, requires_grad=True)
b = torch.full((), -1.0, dtype=torch.float, requires_grad=True)
c = torch.full((), 0.0, dtype=torch.float, requires_grad=True)
d = torch.full((), 0.3, dtype=torch.float, requires_grad=True)
params = (a, b, c, d)

lr = 5e-6
p3 = Legendre3.apply
for step in range(2000):
    pred = a + b * p3(c + d * x)
    loss = (pred - y).pow(2).sum()
    if step % 100 == 99:
        print(step, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None

print(f"Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)")
