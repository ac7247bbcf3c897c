# Corpus program, written for gradsh (no code copied). Modelled on the examples of the
# torch.Tensor.index_copy_, index_fill_, masked_scatter_ and index_put_ documentation
# (https://pytorch.org/docs/stable/generated/torch.Tensor.index_copy_.html and siblings),
# then the same writes on a tensor in an autograd graph: their grad_fn and gradients.
# Written for gradsh.
import torch

x = torch.zeros(5, 3)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)
index = torch.tensor([0, 4, 2])
print(x.index_copy_(0, index, t))

y = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)
print(y.index_fill_(1, torch.tensor([0, 2]), -1))

self = torch.tensor([0, 0, 0, 0, 0])
mask = torch.tensor([[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], dtype=torch.bool)
source = torch.tensor([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
print(self.masked_scatter(mask, source))

acc = torch.zeros(4)
acc.index_put_((torch.tensor([0, 2, 2]),), torch.tensor([1.0, 5.0, 7.0]), accumulate=True)
print(acc)

# the same writes in a graph
w = torch.arange(6.0).reshape(2, 3).requires_grad_()
s = torch.ones(1, 3, requires_grad=True)
h = w * 1
h.index_copy_(0, torch.tensor([1]), s * 3)
print(h, h.grad_fn)
h.sum().backward()
print(w.grad, s.grad)
g = (w * 2).index_fill(1, torch.tensor([1]), 0.5)
g.sum().backward()
print(g.grad_fn, w.grad)
try:
    w.index_fill_(1, torch.tensor([0]), 0.0)
except RuntimeError as err:
    print("RuntimeError:", err)
