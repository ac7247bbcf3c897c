# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Control Flow + Weight Sharing" (DynamicNet), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/dynamic_net.py
# Like the original: a module with five scalar Parameters whose forward adds the x^4 and x^5
# terms a random number of times (Python's `random`), reusing the same parameter; MSELoss(sum)
# and SGD with momentum 0.9. Differences: our own code; seeded (random.seed(0),
# torch.manual_seed(0)); 6000 steps instead of 30000, loss printed every 2000.
import math
import random

import torch

random.seed(0)
torch.manual_seed(0)


class RandomDepthPoly(torch.nn.Module):
    def __init__(self):
        super().__init__()
        for name in "abcde":
            setattr(self, name, torch.nn.Parameter(torch.randn(())))

    def forward(self, x):
        out = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for k in range(4, random.randint(4, 6)):
            out = out + self.e * x ** k
        return out


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
net = RandomDepthPoly()
crit = torch.nn.MSELoss(reduction="sum")
opt = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9)

for step in range(6000):
    loss = crit(net(x), y)
    if step % 2000 == 1999:
        print(step, loss.item())
    opt.zero_grad()
    loss.backward()
    opt.step()

vals = {n: p.item() for n, p in net.named_parameters()}
print(f"Result: y = {vals['a']} + {vals['b']} x + {vals['c']} x^2 + {vals['d']} x^3"
      f" + {vals['e']} x^4 ? + {vals['e']} x^5 ?")
