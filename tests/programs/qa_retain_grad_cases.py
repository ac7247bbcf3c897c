# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "loss.grad is constant 1?" (a questioner's "mini-tutorial in code" walking through cases:
# an input without requires_grad, an input with it, and loss.retain_grad(), printing
# is_leaf and .grad before and after backward through an nn.Linear(1, 1)):
# https://discuss.pytorch.org/t/loss-grad-is-constant-1/130964
# Written for gradsh; reading .grad of a non-leaf prints a UserWarning on stderr (not
# compared); seeded.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(1, 1)


def banner(title):
    print("#" * 7)
    print(title)
    print("#" * 7)


banner("Case 1")
x = torch.randn(1, 1)
print(x, x.is_leaf, x.grad)
loss = model(x) ** 2
print(loss.grad, x.grad)
loss.backward()
print(loss.grad, x.grad)
print(model.weight.grad, model.bias.grad)

banner("Case 2")
model.zero_grad()
y = torch.randn(1, 1, requires_grad=True)
print(y, y.is_leaf, y.grad)
loss = model(y) ** 2
loss.backward()
print(loss.grad, y.grad)

banner("Case 3")
z = torch.randn(1, 1, requires_grad=True)
out = model(z)
loss = out ** 2
loss.retain_grad()
out.retain_grad()
print(loss.grad, loss.retains_grad, out.retains_grad, z.retains_grad)
loss.backward()
print(loss.grad, out.grad, z.grad)
print(torch.allclose(out.grad, 2 * out))
