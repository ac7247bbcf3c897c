# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow
# question "Why do we need to call zero_grad() in PyTorch?" (2017; gradients accumulate
# across backward calls; optimizer.zero_grad() before each backward; accumulation on purpose
# over several mini-batches).
# Written for gradsh; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)

w = torch.tensor([1.0, -1.0], requires_grad=True)
data = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for i in range(3):
    loss = (data @ w).pow(2).mean()
    loss.backward()
    print(i, w.grad)

model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = torch.randn(6, 2)
ys = torch.randn(6, 1)
for epoch in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xs), ys)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 6), model.weight.grad)

print(model.weight.grad is None)
opt.zero_grad()
print(model.weight.grad)
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
model(xs).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad)

accum = 3
opt.zero_grad()
for i, (xb, yb) in enumerate(zip(xs.split(2), ys.split(2))):
    loss = nn.functional.mse_loss(model(xb), yb) / accum
    loss.backward()
print(model.weight.grad)
full = nn.functional.mse_loss(model(xs), ys)
g_full = torch.autograd.grad(full, model.weight)[0]
print(g_full, torch.allclose(g_full, model.weight.grad))
