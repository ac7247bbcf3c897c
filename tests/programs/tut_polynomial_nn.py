# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: nn" (Learning PyTorch with Examples), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/polynomial_nn.py
# Like the original: features x^1..x^3 by broadcasting pow, nn.Sequential(nn.Linear(3, 1),
# nn.Flatten(0, 1)), nn.MSELoss(reduction='sum'), model.zero_grad(), a manual update over
# model.parameters() under no_grad, and the coefficients read from model[0].
# Differences: our own code; seeded with torch.manual_seed(0) (Linear's initial weights).
import math

import torch

torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
powers = torch.tensor([1, 2, 3])
features = x.unsqueeze(-1).pow(powers)   # (2000, 3)

net = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
criterion = torch.nn.MSELoss(reduction="sum")

lr = 1e-6
for step in range(2000):
    out = net(features)
    loss = criterion(out, y)
    if step % 100 == 99:
        print(step, loss.item())
    net.zero_grad()
    loss.backward()
    with torch.no_grad():
        for w in net.parameters():
            w -= lr * w.grad

lin = net[0]
w = lin.weight
print(f"Result: y = {lin.bias.item()} + {w[:, 0].item()} x + {w[:, 1].item()} x^2"
      f" + {w[:, 2].item()} x^3")
