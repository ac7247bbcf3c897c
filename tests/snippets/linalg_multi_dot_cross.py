# torch.linalg.cross, matrix_power, vecdot, diagonal, matmul and multi_dot (ATen's order: the
# cheaper parenthesisation of three, the matrix-chain order beyond, 1-d ends, the view), from
# torch/linalg's docstrings.
import torch
torch.manual_seed(0)
a = torch.randn(4, 3, requires_grad=True)
b = torch.randn(4, 3)
c = torch.linalg.cross(a, b)
print(c, torch.linalg.cross(a[:3].T, b[:3].T, dim=0).shape)
A = torch.randn(3, 3, requires_grad=True)
for n in (0, 1, 2, 3, -1):
    print(n, torch.linalg.matrix_power(A, n))
print(torch.linalg.vecdot(a, b), torch.linalg.diagonal(A, offset=1))
B, C, D = torch.randn(3, 4), torch.randn(4, 5), torch.randn(5, 2)
print(torch.linalg.multi_dot([A, B, C, D]))
print(torch.linalg.multi_dot([torch.randn(3), B, torch.randn(4)]))
print(torch.linalg.multi_dot([torch.randn(3), torch.randn(3)]))
print(torch.linalg.matmul(A, A).grad_fn)
try:
    torch.linalg.multi_dot([A])
except RuntimeError as e:
    print(e)
E = torch.randn(2, 10)
print(torch.linalg.multi_dot([torch.randn(10, 2), E, torch.randn(10, 3), torch.randn(3, 1)]).shape)
print(torch.linalg.multi_dot([torch.randn(1, 2), torch.randn(2, 30), torch.randn(30, 2), torch.randn(2, 40), torch.randn(40, 1)]))
for bad in ([torch.randn(2, 3), torch.randn(4, 2)], [torch.randn(2, 2, 2), torch.randn(2, 2)], [torch.randn(2, 2), torch.randn(2), torch.randn(2, 2)]):
    try:
        torch.linalg.multi_dot(bad)
    except RuntimeError as e:
        print(e)
