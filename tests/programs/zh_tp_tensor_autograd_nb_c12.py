# Corpus program, written for gradsh (no code copied). Modelled on datawhalechina's
# 《深入浅出PyTorch》 (thorough-pytorch), chapter 2 notebook "代码演示：PyTorch基础知识":
# https://github.com/datawhalechina/thorough-pytorch/blob/main/notebook/第二章%20PyTorch基础知识/代码演示：PyTorch基础知识.ipynb
# Like the notebook: tensors made with dtype= (float, long, int8 from a float), the typed
# constructors IntTensor(2) / IntTensor([1,2,3,4]), numpy round trips with from_numpy sharing
# memory, rand / ones / zeros / arange, shape vs size(), add, indexing, view, broadcasting,
# unsqueeze / squeeze; then autograd on y = x1 + 2*x2 with gradients accumulating across two
# backward calls, and the notebook's two failing cells (x.grad.data before any backward, and
# backward() on a graph with no requires_grad) caught and printed.
# Differences: a manual seed; FloatTensor(2,3) / IntTensor(2) hold uninitialised memory, so
# only their shape and dtype are printed; the failing cells run inside try/except.
import numpy as np
import torch

torch.manual_seed(0)

a = torch.tensor(1.0, dtype=torch.float)
b = torch.tensor(1, dtype=torch.long)
c = torch.tensor(1.0, dtype=torch.int8)
print(a, b, c)

d = torch.FloatTensor(2, 3)
e = torch.IntTensor(2)
f = torch.IntTensor([1, 2, 3, 4])
print(d.shape, d.dtype, '\n', e.shape, e.dtype, '\n', f)

g = np.array([[1, 2, 3], [4, 5, 6]])
h = torch.tensor(g)
print(h)
i = torch.from_numpy(g)
print(i)
j = h.numpy()
print(j)
g[0, 0] = 100
print(i)
print(h)
as_t = torch.as_tensor(g)
g[1, 2] = -6
print(as_t, as_t.dtype)

k = torch.rand(2, 3)
l = torch.ones(2, 3)
m = torch.zeros(2, 3)
n = torch.arange(0, 10, 2)
print(k, '\n', l, '\n', m, '\n', n)
print(k.shape)
print(k.size())
o = torch.add(k, l)
print(o)
print(o[:, 1])
print(o[0, :])
print(o.view((3, 2)))
print(o.view(-1, 2))

p = torch.arange(1, 3).view(1, 2)
print(p)
q = torch.arange(1, 4).view(3, 1)
print(q)
print(p + q)

print(o)
r = o.unsqueeze(1)
print(r)
print(r.shape)
s = r.squeeze(0)
print(s)
print(s.shape)
t = r.squeeze(1)
print(t)
print(t.shape)

x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y = x1 + 2 * x2
print(y)
print(x1.requires_grad)
print(x2.requires_grad)
print(y.requires_grad)
try:
    print(x1.grad.data)
except AttributeError as err:
    print("AttributeError:", err)
print(x1)
y = x1 + 2 * x2
y.backward()
print(x1.grad.data)
print(x2.grad.data)
y = x1 + 2 * x2
y.backward()
print(x1.grad.data)
print(x2.grad.data)

x1 = torch.tensor(1.0, requires_grad=False)
x2 = torch.tensor(2.0, requires_grad=False)
y = x1 + 2 * x2
try:
    y.backward()
except RuntimeError as err:
    print("RuntimeError:", err)
