# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum threads
# about "RuntimeError: one of the variables needed for gradient computation has been
# modified by an inplace operation" (e.g.
# https://discuss.pytorch.org/t/solved-pytorch1-5-runtimeerror-one-of-the-variables-needed-for-gradient-computation-has-been-modified-by-an-inplace-operation/90256
# and https://discuss.pytorch.org/t/encounter-the-runtimeerror-one-of-the-variables-needed-for-gradient-computation-has-been-modified-by-an-inplace-operation/836):
# the usual causes (x = sigmoid(...) then x += 1 or x[:, 0] = 0 on the saved output,
# nn.ReLU(inplace=True) after an op that saves its output, an optimizer.step() between two
# backward passes of a shared graph, as in GAN training), the version counter shown by
# tensor._version, and the fixes (out-of-place ops, .clone(), reordering step()).
# Differences: our own code; each error caught and printed; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)

a = torch.randn(3, requires_grad=True)
s = torch.sigmoid(a)
print(s._version)
s += 1
print(s._version, s.grad_fn)
try:
    s.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

x = torch.randn(2, 3, requires_grad=True)
y = torch.exp(x)
y[:, 0] = 0
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
y = torch.exp(x).clone()
y[:, 0] = 0
y.sum().backward()
print(x.grad)

net = nn.Sequential(nn.Linear(3, 3), nn.Sigmoid(), nn.ReLU(inplace=True), nn.Linear(3, 1))
try:
    net(torch.randn(4, 3)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
net[2] = nn.ReLU()
net(torch.randn(4, 3)).sum().backward()
print(net[0].weight.grad.shape)

w = torch.randn(3, 3, requires_grad=True)
h = torch.tanh(torch.randn(2, 3) @ w)
loss1 = h.sum()
loss2 = (h ** 2).sum()
opt = torch.optim.SGD([w], lr=0.1)
loss1.backward(retain_graph=True)
opt.step()
try:
    loss2.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(w._version)

v = torch.ones(3, requires_grad=True)
u = v * 2
u.add_(1)
u.mul_(3)
print(u._version, u.grad_fn)
u.sum().backward()
print(v.grad)
with torch.no_grad():
    v.mul_(2)
print(v._version, v.is_leaf)
try:
    v.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
