# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Tensors and autograd" (Learning PyTorch with Examples), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_autograd/polynomial_autograd.py
# Like the original: the cubic fit of sin(x) with requires_grad coefficients, loss.backward(),
# an update under torch.no_grad() with in-place `-=`, and the grads reset to None; a
# cuda-or-cpu default device. Differences: our own code; seeded with torch.manual_seed(0).
import math

import torch

torch.manual_seed(0)
dev = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(dev)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
coeffs = [torch.randn((), requires_grad=True) for _ in range(4)]
a, b, c, d = coeffs

step_size = 1e-6
for it in range(2000):
    y_hat = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_hat - y).pow(2).sum()
    if it % 100 == 99:
        print(it, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in coeffs:
            p -= step_size * p.grad
            p.grad = None

print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")
