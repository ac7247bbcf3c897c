# Corpus program, written for gradsh (no code copied). Modelled on the Chinese article on
# PyTorch's tensor products (https://avoid.overfit.cn/post/2ce5023db7634886b602e7eb6ce4abb7):
# torch.matmul on two 2-D integer tensors, batched 3-D operands, 1-D with 2-D (either side)
# and broadcast batch dimensions; then the other products the article compares: torch.mm
# (2-D only, its error for 3-D), torch.bmm (3-D only), torch.dot / torch.vdot for 1-D
# vectors, torch.mv, element-wise torch.mul / *, the @ operator, and torch.einsum forms of
# the same products; and torch.outer.
# Differences: a manual seed; the shapes the article prints are printed along with small
# results; each "only accepts" restriction is shown by catching its error.
import torch

torch.manual_seed(8)

A = torch.tensor([[1, 2], [3, 4]])
B = torch.tensor([[5, 6], [7, 8]])
result = torch.matmul(A, B)
print(result, result.dtype)
A3 = torch.rand(2, 3, 4)
B3 = torch.rand(2, 4, 5)
print(torch.matmul(A3, B3).shape)
v = torch.tensor([1, 2, 3])
M = torch.tensor([[1, 2], [3, 4], [5, 6]])
print(torch.matmul(v, M), torch.matmul(M.T, v), torch.matmul(v, v))
print(torch.matmul(torch.rand(4, 1, 3, 2), torch.rand(5, 2, 6)).shape)
print(torch.matmul(torch.rand(3), torch.rand(2, 3, 4)).shape)
print(torch.mm(A, B))
try:
    torch.mm(A3, B3)
except RuntimeError as err:
    print('RuntimeError:', err)
print(torch.bmm(A3, B3)[1, :1])
try:
    torch.bmm(A, B)
except RuntimeError as err:
    print('RuntimeError:', err)
x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([4.0, 5.0, 6.0])
print(torch.dot(x, y), torch.vdot(x, y), torch.inner(x, y))
try:
    torch.dot(A.float(), B.float())
except RuntimeError as err:
    print('RuntimeError:', err)
try:
    torch.dot(x, torch.tensor([1, 2, 3]))
except RuntimeError as err:
    print('RuntimeError:', err)
print(torch.mv(M.float(), torch.tensor([1.0, -1.0])))
print(torch.mul(A, B), A * B, A @ B)
print(torch.mul(A, 2.5), torch.mul(x, y))
print(torch.einsum('ij,jk->ik', A, B), torch.einsum('bij,bjk->bik', A3, B3).shape)
print(torch.einsum('i,i->', x, y), torch.einsum('i,j->ij', x, y))
print(torch.outer(x, y), torch.outer(v, v).dtype)
print(torch.einsum('ii', A), torch.einsum('ij->j', A), torch.einsum('ij->ji', M))
try:
    torch.matmul(torch.rand(2, 3), torch.rand(2, 3))
except RuntimeError as err:
    print('RuntimeError:', err)
try:
    A @ x
except RuntimeError as err:
    print('RuntimeError:', err)
