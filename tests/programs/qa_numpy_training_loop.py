# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Learning PyTorch with Examples" (https://pytorch.org/tutorials/beginner/pytorch_with_examples.html:
# fit a polynomial to sin(x), first with NumPy, then with tensors and autograd), written the
# way many notebooks mix the two: NumPy data and a NumPy learning-rate schedule, the loss
# history kept as floats and summarised with NumPy.
# Written for gradsh; a shorter run and a cubic instead of the tutorial's 2000 steps.
import math

import numpy as np
import torch

x_np = np.linspace(-math.pi, math.pi, 200)
y_np = np.sin(x_np)
x = torch.from_numpy(x_np)
y = torch.from_numpy(y_np)
print(x.dtype, x.shape)

coeffs = torch.zeros(4, dtype=torch.float64, requires_grad=True)
powers = torch.from_numpy(np.arange(4))
features = x.unsqueeze(-1) ** powers
print(features.shape, features.dtype)

schedule = np.logspace(-5, -6, num=300)
history = []
for step, lr in enumerate(schedule):
    pred = features @ coeffs
    loss = ((pred - y) ** 2).sum()
    history.append(loss.item())
    loss.backward()
    with torch.no_grad():
        coeffs -= lr * coeffs.grad
        coeffs.grad.zero_()
print(type(lr).__name__, np.round(np.mean(history[-10:]), 6), np.argmin(history))
print(np.round(coeffs.detach().numpy(), 5) + 0.0)
print(torch.tensor(history[:3]).dtype, np.float64(history[0]) > history[-1])
