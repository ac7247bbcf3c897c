# Corpus program modelled on pytorch/pytorch issue #49683 ("Backward through
# sparse_coo_tensor", https://github.com/pytorch/pytorch/issues/49683) with the hybrid example
# of its fix, PR #50361 (https://github.com/pytorch/pytorch/pull/50361), issue #18111's sparse
# leaf made with to_sparse().requires_grad_(True) (https://github.com/pytorch/pytorch/issues/18111)
# and issue #63744's product of two sparse tensors (https://github.com/pytorch/pytorch/issues/63744):
# gradients flowing from torch.sparse.sum back to the dense values, a sparse leaf's own
# gradient (a sparse tensor on its coalesced pattern), and sparse reprs with requires_grad.
# Changed: sizes 100x100 instead of 100000x100000, seeded values; errors caught and printed.
import warnings

import torch

warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.ones((1), requires_grad=True)
S = torch.sparse_coo_tensor([[0], [0]], x, (100, 100))
print(S)
torch.sparse.sum(S).backward()
print(x.grad)

indices = torch.LongTensor([[2, 3, 0],
                            [7, 9, 0]])
v = torch.tensor([[[1, 1], [2, 2]],
                  [[2, 2], [3, 3]],
                  [[4, 4], [5, 5]]], dtype=torch.float32, requires_grad=True)
H = torch.sparse_coo_tensor(indices=indices, values=v, size=(10, 10, 2, 2))
f = torch.sparse.sum(H)
print("sum: ", f)
f.backward()
print(v.grad)
g = torch.sparse.sum(H, dim=(0, 1))
print(g, type(g.grad_fn).__name__)

a = torch.randn(2, 3).requires_grad_(False).to_sparse().requires_grad_(True)
print(a)
s = torch.sparse.sum(a)
print(s, type(s.grad_fn).__name__)
s.backward()
print(a.grad)
b = torch.randn(3, 2)
y = torch.sparse.mm(a, b)
print(y)
a.grad = None
y.sum().backward()
print(a.grad)
c = torch.randn(3, 2).to_sparse()
try:
    z = torch.sparse.mm(a, c)
    print(z)
    z._values().sum().backward()
    print(a.grad)
except RuntimeError as e:
    print("RuntimeError:", e)
