# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Custom nn Modules" (Polynomial3), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/polynomial_module.py
# Like the original: an nn.Module subclass holding four scalar nn.Parameter(torch.randn(())),
# a forward computing the cubic, a custom method describing the result, MSELoss(sum) and
# torch.optim.SGD(lr=1e-6). Differences: our own code; seeded with torch.manual_seed(0).
import math

import torch

torch.manual_seed(0)


class Cubic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def describe(self):
        return (f"y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2"
                f" + {self.d.item()} x^3")


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Cubic()
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)

for step in range(2000):
    loss = criterion(model(x), y)
    if step % 100 == 99:
        print(step, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print("Result:", model.describe())
print([name for name, _ in model.named_parameters()])
