# Corpus program modelled on pytorch/pytorch issue #60846 ("Addition assignment with tensors
# 'fails' when multiple values are to be added to one location",
# https://github.com/pytorch/pytorch/issues/60846) and #42805's answer
# (https://github.com/pytorch/pytorch/issues/42805, from the forum thread "Indexing with
# repeating indices (numpy.add.at)"): advanced-index += collapses duplicates, while
# index_put_ / put_ with accumulate=True, index_add_, scatter_add_ and bincount sum every
# occurrence; the gradient of a repeated gather does accumulate. Changed: small tensors with
# a seed; float64 and int variants printed.
import torch

torch.manual_seed(0)
x = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 3, 3, 3])
x[idx] += 1
print(x)
y = torch.zeros(5)
y.index_put_((idx,), torch.ones(6), accumulate=True)
print(y)
z = torch.zeros(5).index_add_(0, idx, torch.ones(6))
print(z)
print(torch.zeros(5).scatter_add_(0, idx, torch.ones(6)))
print(torch.bincount(idx, minlength=5))
print(torch.zeros(5, dtype=torch.int64).index_put_((idx,), torch.tensor(2), accumulate=True))

m = torch.zeros(3, 4, dtype=torch.float64)
rows = torch.tensor([0, 2, 0, 0])
cols = torch.tensor([1, 3, 1, 2])
m.index_put_((rows, cols), torch.tensor([1., 2., 3., 4.], dtype=torch.float64), accumulate=True)
print(m)
m[rows, cols] = torch.tensor([10., 20., 30., 40.], dtype=torch.float64)
print(m[0])
w = torch.randn(4, requires_grad=True)
g = w[torch.tensor([0, 0, 2, 0, 3])]
(g * torch.arange(1., 6.)).sum().backward()
print(w.grad)
w2 = torch.randn(4, 3, requires_grad=True)
out = torch.zeros(2, 3).index_add(0, torch.tensor([1, 1, 0, 1]), w2 * 2)
out.pow(2).sum().backward()
print(out, w2.grad)
src = torch.randn(6, requires_grad=True)
res = torch.zeros(4).scatter_add(0, torch.tensor([0, 1, 1, 3, 3, 3]), src)
res.backward(torch.tensor([1., 2., 3., 4.]))
print(res, src.grad)
v = torch.zeros(4, requires_grad=True)
try:
    v[torch.tensor([0, 0])] += 1
except RuntimeError as e:
    print("RuntimeError:", e)
u = v.clone()
u[torch.tensor([0, 0, 1])] += torch.tensor([1., 2., 3.])
print(u)
u.sum().backward()
print(v.grad)
mask = torch.tensor([True, False, True, True])
t = torch.arange(4.)
t[mask] = torch.tensor([7., 8., 9.])
print(t)
try:
    t[mask] = torch.tensor([1., 2.])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(3).index_put_((torch.tensor([5]),), torch.tensor(1.), accumulate=True)
except IndexError as e:
    print("IndexError:", e)
