# Source: source article 004 (../shared/seeds/004_e063c9f94441c4a9.txt); ours: its sections
# "梯度清零" (model.zero_grad() vs optimizer.zero_grad(), with the two source loops it quotes),
# "梯度分离" (detach shares memory) and "梯度累加" (gradient accumulation) written as a program.
# Changes: none (all of it is ours; the two zeroing loops are the article's). Seeds itself.
# The in-place change through a detached tensor makes backward fail, as the article warns;
# the error is caught and printed.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)

# model.zero_grad(): the article's loop
def model_zero_grad(model):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.detach_()
            p.grad.zero_()

# optimizer.zero_grad(): the article's loop
def optimizer_zero_grad(optimizer):
    for group in optimizer.param_groups:
        for p in group['params']:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()

# 1. one model, its optimizer: the two are equivalent
net = nn.Linear(3, 1)
opt = optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(4, 3)
net(x).sum().backward()
print(net.weight.grad)
model_zero_grad(net)
print(net.weight.grad)
net(x).sum().backward()
optimizer_zero_grad(opt)
print(net.weight.grad)

# PyTorch 2's own zero_grad sets the grads to None (set_to_none=True)
net(x).sum().backward()
net.zero_grad()
print(net.weight.grad)
net(x).sum().backward()
opt.zero_grad()
print(net.weight.grad)

# 2. two models sharing one optimizer: model.zero_grad() clears only its own model
net_a = nn.Linear(2, 1)
net_b = nn.Linear(2, 1)
shared = optim.SGD(list(net_a.parameters()) + list(net_b.parameters()), lr=0.1)
inp = torch.randn(3, 2)
(net_a(inp).sum() + net_b(inp).sum()).backward()
net_a.zero_grad()
print(net_a.weight.grad, net_b.weight.grad)
shared.zero_grad()
print(net_a.weight.grad, net_b.weight.grad)

# detach(): a new tensor sharing memory with the original
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
z = y.detach()
print(z.requires_grad, z.grad_fn)
z.add_(1)
print(y)
print(y._version, z._version)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# gradient accumulation: 4 micro-batches, loss / 4, one optimizer step
model = nn.Linear(2, 1)
optimizer = optim.SGD(model.parameters(), lr=0.01)
criterion = nn.MSELoss()
xs = torch.randn(8, 2)
ys = torch.randn(8, 1)
accumulation_steps = 4
optimizer.zero_grad()
for i in range(8):
    loss = criterion(model(xs[i:i + 1]), ys[i:i + 1])
    loss = loss / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        print(i, model.weight.grad)
        optimizer.step()
        optimizer.zero_grad()
print(model.weight, model.bias)
