# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch "Broadcasting
# semantics" note (https://pytorch.org/docs/stable/notes/broadcasting.html: the trailing-
# dimension rule, the examples x=(5,7,3) y=(5,7,3), (5,3,4,1) with (3,1,1), the in-place
# restriction, and the backwards-compatibility pitfall with 1-d tensors) and blog posts on
# broadcasting bugs (a column minus a row turning into a matrix, as in the MSELoss target-size
# warning; expand vs repeat; unsqueeze / None indexing to align dimensions; keepdim in
# normalisation; broadcast_tensors, broadcast_shapes).
# Differences: our own code; each case printed.
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    (x + y).size()
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    x.add_(y)
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print(x.add_(y).size())

col = torch.arange(4.0).view(4, 1)
row = torch.arange(4.0)
print((col - row).shape, (col - row.view(4, 1)).shape)
print((col.squeeze(1) - row).abs().sum())
data = torch.tensor([[1.0, 2.0, 3.0], [4.0, 6.0, 8.0]])
print(data - data.mean(dim=1, keepdim=True))
try:
    print(data - data.mean(dim=1))
except RuntimeError as e:
    print("RuntimeError:", e)
print(data / data.sum(dim=0))
v = torch.tensor([1.0, 2.0, 3.0])
ex = v.expand(2, 3)
r = v.repeat(2, 1)
print(ex, ex.stride(), r.stride(), ex.is_contiguous(), r.is_contiguous())
print(v[None, :] * v[:, None])
print(v.unsqueeze(0).shape, v.unsqueeze(-1).shape, v[..., None].shape)
a, b = torch.broadcast_tensors(torch.ones(2, 1), torch.zeros(3))
print(a.shape, b.shape, torch.broadcast_shapes((2, 1), (1, 3), (3,)))
try:
    torch.broadcast_shapes((2, 3), (3, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.ones(3, requires_grad=True)
out = (torch.ones(4, 3) * w).sum()
out.backward()
print(w.grad)
s = torch.tensor(2.0, requires_grad=True)
(s * torch.ones(2, 2)).sum().backward()
print(s.grad)
try:
    ex.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)
