# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), sections 2.1 张量 and 2.2 自动求导:
# https://github.com/datawhalechina/thorough-pytorch/blob/main/source/第二章/2.2%20自动求导.md
# Like the sections: rand / zeros(dtype=long) / new_ones(dtype=double) / randn_like(dtype=float),
# three ways to add (operator, torch.add, add_), a row view written through, view(16) and
# view(-1, 8) following an in-place +=, item(); then grad_fn of a leaf, y = x**2 and
# z = y*y*3, out = z.mean(), requires_grad_ on a computed tensor, accumulation across backward
# calls and grad.data.zero_(), the "double until the norm passes 1000" loop with
# y.backward(v), no_grad, and x.data *= 100 leaving the gradient of 2*x unchanged.
# Differences: a manual seed; grad_fn objects are printed by type name (the section prints
# their addresses).
import torch

torch.manual_seed(2)

x = torch.rand(4, 3)
print(x)
x = torch.zeros(4, 3, dtype=torch.long)
print(x)
x = torch.tensor([5.5, 3])
print(x)
x = x.new_ones(4, 3, dtype=torch.double)
print(x)
x = torch.randn_like(x, dtype=torch.float)
print(x)
print(x.size())
print(x.shape)

y = torch.rand(4, 3)
print(x + y)
print(torch.add(x, y))
y.add_(x)
print(y)

print(x[:, 1])
row = x[0, :]
row += 1
print(row)
print(x[0, :])

x = torch.randn(4, 4)
y = x.view(16)
z = x.view(-1, 8)
print(x.size(), y.size(), z.size())
x += 1
print(x)
print(y)

x = torch.randn(1)
print(type(x))
print(type(x.item()))

x = torch.randn(3, 3, requires_grad=True)
print(x.grad_fn)
x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x ** 2
print(y)
print(type(y.grad_fn).__name__)
z = y * y * 3
out = z.mean()
print(z, out)

a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(type(b.grad_fn).__name__, b.grad_fn.next_functions)

out.backward()
print(x.grad)
out2 = x.sum()
out2.backward()
print(x.grad)
out3 = x.sum()
x.grad.data.zero_()
out3.backward()
print(x.grad)

x = torch.randn(3, requires_grad=True)
print(x)
y = x * 2
i = 0
while y.data.norm() < 1000:
    y = y * 2
    i = i + 1
print(y)
print(i)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)

print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)

x = torch.ones(1, requires_grad=True)
print(x.data)
print(x.data.requires_grad)
y = 2 * x
x.data *= 100
y.backward()
print(x)
print(x.grad)
