# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Tensors" (Learning PyTorch with Examples), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_tensor/polynomial_tensor.py
# Like the original: fits a cubic to sin(x) on [-pi, pi] (2000 points) with plain tensors and
# hand-written gradients, printing the loss (a Python float) every 100 steps and the result.
# Differences: our own code and names; seeded with torch.manual_seed(0).
import math

import torch

torch.manual_seed(0)

xs = torch.linspace(-math.pi, math.pi, 2000, dtype=torch.float32)
target = torch.sin(xs)

# four random coefficients, y = c0 + c1 x + c2 x^2 + c3 x^3
c0, c1, c2, c3 = (torch.randn((), dtype=torch.float32) for _ in range(4))
lr = 1e-6

for step in range(2000):
    pred = c0 + c1 * xs + c2 * xs ** 2 + c3 * xs ** 3
    err = pred - target
    loss = err.pow(2).sum().item()
    if step % 100 == 99:
        print(step, loss)
    # d(loss)/d(pred) = 2 * err, then the chain rule by hand
    g = 2.0 * err
    g0 = g.sum()
    g1 = (g * xs).sum()
    g2 = (g * xs ** 2).sum()
    g3 = (g * xs ** 3).sum()
    c0 -= lr * g0
    c1 -= lr * g1
    c2 -= lr * g2
    c3 -= lr * g3

print(f"Result: y = {c0.item()} + {c1.item()} x + {c2.item()} x^2 + {c3.item()} x^3")
