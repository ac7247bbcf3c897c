# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: optim" (Learning PyTorch with Examples), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/polynomial_optim.py
# Like the original: the same Sequential(Linear(3, 1), Flatten(0, 1)) cubic fit, trained with
# torch.optim.RMSprop(lr=1e-3): optimizer.zero_grad(), loss.backward(), optimizer.step().
# Differences: our own code; seeded with torch.manual_seed(0).
import math

import torch

torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)

for t in range(2000):
    loss = loss_fn(model(xx), y)
    if t % 100 == 99:
        print(t, loss.item())
    opt.zero_grad()
    loss.backward()
    opt.step()

layer = model[0]
coef = [layer.weight[:, i].item() for i in range(3)]
print(f"Result: y = {layer.bias.item()} + {coef[0]} x + {coef[1]} x^2 + {coef[2]} x^3")
