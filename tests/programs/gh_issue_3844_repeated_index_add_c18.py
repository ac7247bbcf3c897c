# Corpus program modelled on the PyTorch issues "Indexing Variable with repeated indices"
# (https://github.com/pytorch/pytorch/issues/3844), "Unbuffered operation"
# (https://github.com/pytorch/pytorch/issues/42805) and "index_put_() acts defferently between
# on cpu and on gpu" (https://github.com/pytorch/pytorch/issues/39227): g[m, p] += 1 with
# repeated index pairs counts each pair once, while index_put_(..., accumulate=True), put_
# with accumulate=True, index_add_ and bincount count every occurrence; a scalar value added at
# repeated indices with accumulate=True; gradients through the accumulating forms.
# Changed: the 1x4x4 index tensors (as it printed them) are used as given; the rest are
# small tensors from the threads' replies. Written for gradsh.
import torch

m = torch.tensor([[[4, 4, 3, 0], [3, 4, 2, 3], [2, 3, 1, 1], [1, 4, 3, 1]]])
p = torch.ones(1, 4, 4, dtype=torch.long)
g = torch.LongTensor(5, 5).zero_()
g[m, p] += 1
print(g)
g2 = torch.zeros(5, 5, dtype=torch.long)
g2.index_put_((m.flatten(), p.flatten()), torch.ones(16, dtype=torch.long), accumulate=True)
print(g2)
print(g2.sum().item(), g.sum().item())
flat = (m * 5 + p).flatten()
print(torch.bincount(flat, minlength=25).view(5, 5))
g3 = torch.zeros(25, dtype=torch.long)
g3.index_add_(0, flat, torch.ones_like(flat))
print(torch.equal(g3.view(5, 5), g2))

a = torch.zeros(4)
idx = torch.tensor([1, 1, 2, 3])
a[idx] += 1
print(a)
a = torch.zeros(4)
print(a.put_(idx, torch.ones(idx.shape), accumulate=True))

a = torch.zeros((3))
print(a.index_put_([torch.tensor([0, 0])], torch.tensor(1.), accumulate=True))
print(a.index_put_((torch.tensor([2]),), torch.tensor([5.])))
A = torch.zeros(2, 2)
inds = torch.tensor([[0, 1], [1, 1], [0, 1]])
print(A.index_put_(inds.unbind(1), torch.tensor([1., 0., 1.]), accumulate=True))

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base = torch.zeros(4)
out = base.index_put((torch.tensor([0, 0, 3]),), w, accumulate=True)
print(out)
(out * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
print(w.grad)
w.grad = None
out2 = torch.zeros(4).index_add(0, torch.tensor([3, 3, 1]), w * 2, alpha=0.5)
print(out2)
out2.pow(2).sum().backward()
print(w.grad)
z = torch.zeros(2, 3)
z[torch.tensor([0, 1, 0]), torch.tensor([2, 2, 2])] = torch.tensor([7., 8., 9.])[:3] * 0 + 1
print(z)
try:
    torch.zeros(3).index_put_((torch.tensor([0, 5]),), torch.tensor(1.0))
except IndexError as e:
    print("IndexError", e)
