# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 2.1 "Data Manipulation", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_preliminaries/ndarray.md
# Like the book: arange(12, dtype=float32), numel, shape, reshape(3, 4), zeros/ones of
# (2, 3, 4), randn, a tensor from nested lists, X[-1] and X[1:3], element and slice
# assignment, exp, elementwise + - * / ** between float and int tensors, cat on dim 0 and 1,
# ==, sum, broadcasting (3, 1) + (1, 2), id() checks for `Y = Y + X` vs `Z[:] = ...` and
# `X += Y`, X.numpy() / torch.from_numpy, item/float/int of a one-element tensor. Tuples a
# notebook would display are printed as tuples.
# Differences: our own code; id() values themselves are never printed (addresses); seeded.
import torch

torch.manual_seed(0)

x = torch.arange(12, dtype=torch.float32)
print(x)
print(x.numel())
print(x.shape)
X = x.reshape(3, 4)
print(X)
print(torch.zeros((2, 3, 4)))
print(torch.ones((2, 3, 4)))
print(torch.randn(3, 4))
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
print((X[-1], X[1:3]))
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)
print(torch.exp(x))

p = torch.tensor([1.0, 2, 4, 8])
q = torch.tensor([2, 2, 2, 2])
print((p + q, p - q, p * q, p / q, p ** q))

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print((torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1)))
print(X == Y)
print(X.sum())

col = torch.arange(3).reshape((3, 1))
row = torch.arange(2).reshape((1, 2))
print((col, row))
print(col + row)

before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
z_id = id(Z)
Z[:] = X + Y
print(id(Z) == z_id)
before = id(X)
X += Y
print(id(X) == before)

A = X.numpy()
B = torch.from_numpy(A)
print((type(A), type(B)))
one = torch.tensor([3.5])
print((one, one.item(), float(one), int(one)))
