# Corpus program modelled on the Stack Overflow question "How to do product of matrices in
# PyTorch" (https://stackoverflow.com/questions/44524901) and its answers: torch.mm for 2-D
# matrices, * for element-wise products (with broadcasting), torch.matmul / @ for batched and
# vector cases, torch.dot for 1-D vectors only (it does not flatten, unlike numpy.dot), bmm,
# mv, outer and einsum; the shape errors each raises.
# Changed: small integer-valued matrices and a seed; the errors are caught and printed.
# Written for gradsh.
import numpy as np
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
print(torch.mm(a, b))
print(a @ b, torch.equal(a @ b, torch.matmul(a, b)))
print(a * a, a * torch.tensor([1.0, 10.0, 100.0]))
try:
    a * b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.mm(a, a)
except RuntimeError as e:
    print("RuntimeError:", e)
v = torch.tensor([1.0, 2.0, 3.0])
print(torch.dot(v, v), v @ v, torch.mv(a, v), torch.outer(v, v[:2]))
try:
    torch.dot(a, a)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.dot(v, torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
print(np.dot(a.numpy(), b.numpy()))
torch.manual_seed(0)
A = torch.randn(4, 2, 3)
B = torch.randn(4, 3, 5)
print(torch.bmm(A, B).shape, (A @ B).shape, torch.matmul(A, B[0]).shape, (v @ B).shape)
print(torch.allclose(torch.bmm(A, B), torch.einsum("bij,bjk->bik", A, B)))
print(torch.matmul(A, v).shape)
try:
    torch.bmm(A, B[0])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.matmul(A, torch.randn(2, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
i = torch.tensor([[1, 2], [3, 4]])
print(i @ i, (i @ i).dtype)
try:
    i @ torch.ones(2, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(3, 2, requires_grad=True)
(x @ y).trace().backward()
print(x.grad)
print(y.grad)
print((x @ y).grad_fn, (x * x).grad_fn, torch.dot(x[0], x[1]).grad_fn)
