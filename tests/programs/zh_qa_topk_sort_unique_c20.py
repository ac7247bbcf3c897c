# Corpus program modelled on the Chinese Q&A article on torch.sort from 《深入浅出Pytorch函数》
# (https://e-com-net.com/article/1683901066078400512.htm) and the questions it answers about
# sort's values/indices and the stable flag, extended here to topk, kthvalue, unique
# (sorted/return_inverse/return_counts/dim), unique_consecutive, and gradients through sort
# and topk going back to the selected positions. Changed: small tensors with a seed.
import torch

torch.manual_seed(0)
x = torch.tensor([3, 1, 2, 3, 1, 0, 2, 3])
v, i = torch.sort(x)
print(v, i)
print(torch.sort(x, stable=True))
print(torch.sort(x, descending=True, stable=True).indices)
print(torch.argsort(x, descending=True, stable=True))
print(x.sort(dim=0, descending=False))

m = torch.randn(3, 5)
print(torch.sort(m, dim=1))
print(torch.topk(m, 2))
print(torch.topk(m, 2, dim=0, largest=False))
print(torch.topk(torch.tensor([1., 3., 3., 2.]), 3, sorted=True))
print(torch.kthvalue(m, 2, dim=1))
print(torch.msort(m))

print(torch.unique(x))
print(torch.unique(x, sorted=True, return_inverse=True, return_counts=True))
out, inv = torch.unique(x, return_inverse=True)
print(torch.equal(out[inv], x))
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 5]])
print(torch.unique(rows, dim=0, return_counts=True))
print(torch.unique(rows, dim=1))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_counts=True,
                               return_inverse=True))
print(torch.unique(torch.tensor([2.5, float('nan'), 1.0, 2.5])))
print(x.bincount(), torch.histc(m, bins=4, min=-2, max=2))

w = torch.randn(6, requires_grad=True)
s, idx = w.sort(descending=True)
(s * torch.arange(6.)).sum().backward()
print(idx, w.grad)
w.grad = None
t = w.topk(3).values
t.pow(2).sum().backward()
print(w.grad)
w.grad = None
k = torch.kthvalue(w, 2).values
k.backward()
print(w.grad, type(k.grad_fn).__name__)
print(torch.sort(torch.tensor([True, False, True])))
try:
    torch.topk(torch.randn(3), 5)
except RuntimeError as e:
    print("RuntimeError:", e)
