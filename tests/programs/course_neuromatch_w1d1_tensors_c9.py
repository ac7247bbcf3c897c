# Corpus program, written for gradsh (no code copied). Modelled on Neuromatch Academy's Deep
# Learning course, W1D1 "Basics and PyTorch", Tutorial 1 (CC-BY 4.0 / BSD-3):
# https://github.com/NeuromatchAcademy/course-content-dl/blob/main/tutorials/W1D1_BasicsAndPytorch/student/W1D1_Tutorial1.ipynb
# Like the original: set_seed (random, numpy, torch, cudnn flags); tensor creation from lists,
# numpy arrays, torch.Tensor with a dtype, ones/zeros/empty-like/rand/randn/linspace/arange
# with step; the Exercise 2.1 tensor_creation; simple_operations (a1 @ a2 + a3) and
# dot_product; indexing, slicing, boolean masks and torch.where; flatten/view/reshape,
# squeeze/unsqueeze, permute and transpose; cat along both axes (and the shape error);
# conversions to numpy and Python numbers; the Exercise 2.3 functionA (column sums times the
# total), functionB (flattened values beside their indices via torch.cat of an int64 arange
# and a float tensor) and functionC (reshape-and-add or flatten-and-concatenate).
# Differences: the timing and GPU cells are left out; each cell's value is printed.
import random

import numpy as np
import torch


def set_seed(seed=None, seed_torch=True):
    if seed is None:
        seed = np.random.choice(2 ** 32)
    random.seed(seed)
    np.random.seed(seed)
    if seed_torch:
        torch.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)
        torch.cuda.manual_seed(seed)
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    print(f'Random seed {seed} has been set.')


set_seed(seed=2021)
a = torch.tensor([0, 1, 2])
b = torch.tensor(np.array([[1, 2, 3], [4, 5, 6]]))
c = torch.Tensor([[1, 2], [3, 4]])
d = torch.tensor(np.array([[1., 2.], [3., 4.]]), dtype=torch.float16)
print(f"Tensor a: {a}")
print(f"Tensor b: {b}")
print(f"Tensor c: {c}")
print(f"Tensor d: {d}")
x = torch.ones(5, 3)
y = torch.zeros(2)
z = torch.empty(1, 1, 5).zero_()
print(f"Tensor x: {x}")
print(f"Tensor y: {y}")
print(f"Tensor z: {z}")
a = torch.rand(1, 3)
b = torch.randn(3, 4)
c = torch.zeros_like(a)
d = torch.ones_like(b)
print(a, b, c, d, sep="\n")
a = torch.arange(0, 10, step=1)
b = np.arange(0, 10, step=1)
c = torch.linspace(0, 5, steps=11)
d = np.linspace(0, 5, num=11)
e = torch.arange(0, 10, step=0.5)
print(a, b, c, d, e, sep="\n")


def tensor_creation(Z):
    A = torch.ones(20, 21)
    B = torch.tensor(Z)
    C = torch.rand(41, 41)
    D = torch.arange(4, 41, step=2)
    return A, B, C, D


A, B, C, D = tensor_creation(np.vander([1, 2, 3], 4))
print(A.shape, B, C.shape, D)
print(B.dtype, D.dtype)

a = torch.ones(5, 3)
b = torch.rand(5, 3)
c = torch.empty(5, 3)
d = torch.empty(5, 3)
torch.add(a, b, out=c)
print(c)
d = a + b
print(d)
print(torch.equal(c, d))
x = torch.tensor([1, 2, 4, 8])
y = torch.tensor([1, 2, 3, 4])
print(x + y, x - y, x * y, x / y, x ** y, sep="\n")
x = torch.rand(3, 3)
print(x)
print(f"Sum of every element of x: {x.sum()}")
print(f"Sum of the columns of x: {x.sum(axis=0)}")
print(f"Sum of the rows of x: {x.sum(axis=1)}")
print(f"Mean value of all elements of x {x.mean()}")
print(f"Mean values of the columns of x {x.mean(axis=0)}")
print(f"Mean values of the rows of x {x.mean(axis=1)}")


def simple_operations(a1, a2, a3):
    answer = a1 @ a2 + a3
    return answer


def dot_product(b1, b2):
    product = b1 @ b2
    return product


a1 = torch.tensor([[2, 4], [5, 7]])
a2 = torch.tensor([[1, 1], [2, 3]])
a3 = torch.tensor([[10, 10], [12, 1]])
print(simple_operations(a1, a2, a3))
b1 = torch.tensor([3, 5, 7])
b2 = torch.tensor([2, 4, 8])
print(dot_product(b1, b2))

x = torch.arange(0, 10)
print(x, x[-1], x[1:3], x[:-2])
z = torch.arange(12).reshape(6, 2)
print(f"Original z: \n{z}")
z = z.flatten()
print(f"Flattened z: \n{z}")
z = z.reshape(3, 4)
print(f"Reshaped (3x4) z: \n{z}")
x = torch.randn(1, 10)
print(x.shape)
print(f"x[0]: {x[0]}")
x = x.squeeze(0)
print(x.shape)
print(f"x[0]: {x[0]}")
x = torch.rand(5)
print(f"Shape of x: {x.shape}")
x = x.unsqueeze(0)
print(f"Shape of x: {x.shape}")
x = torch.rand(3, 48, 64)
y = x.permute(1, 2, 0)
print(f"x shape: {x.shape}")
print(f"y shape: {y.shape}")
x = torch.arange(12, dtype=torch.float32).reshape((3, 4))
y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
cat_rows = torch.cat((x, y), dim=0)
cat_cols = torch.cat((x, y), dim=1)
print('Concatenated by rows: shape{}'.format(list(cat_rows.shape)))
print(cat_rows)
print('Concatenated by colums: shape{}'.format(list(cat_cols.shape)))
print(cat_cols)
try:
    torch.cat((x, y[:, :2]), dim=0)
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.randn(5)
print(f"x: {x}  |  x type:  {x.type()}")
y = x.numpy()
print(f"y: {y}  |  y type:  {type(y)}")
z = torch.tensor(y)
print(f"z: {z}  |  z type:  {z.type()}")
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))
x = torch.arange(-5, 5)
print(x[x > 0], torch.where(x > 0, x, torch.zeros_like(x)), x.masked_fill(x < -2, 99))


def functionA(my_tensor1, my_tensor2):
    output = my_tensor1.sum(axis=0) * my_tensor2.sum()
    return output


def functionB(my_tensor):
    my_tensor = my_tensor.flatten()
    idx_tensor = torch.arange(0, len(my_tensor))
    output = torch.cat([idx_tensor.unsqueeze(1), my_tensor.unsqueeze(1)], axis=1)
    return output


def functionC(my_tensor1, my_tensor2):
    if torch.numel(my_tensor1) == torch.numel(my_tensor2):
        my_tensor2 = my_tensor2.reshape(my_tensor1.shape)
        output = my_tensor1 + my_tensor2
    else:
        my_tensor1 = my_tensor1.reshape(1, -1)
        my_tensor2 = my_tensor2.reshape(1, -1)
        output = torch.cat([my_tensor1, my_tensor2], axis=1).squeeze()
    return output


print(functionA(torch.tensor([[1, 1], [1, 1]]), torch.tensor([[1, 2, 3], [1, 2, 3]])))
print(functionB(torch.tensor([[2, 3], [-1, 10]])))
print(functionB(torch.tensor([[2.5, 3], [-1, 10]])))
print(functionC(torch.tensor([[1, -1], [-1, 3]]), torch.tensor([[2, 3, 0, 2]])))
print(functionC(torch.tensor([[1, -1], [-1, 3]]), torch.tensor([[2, 3, 0]])))
print(functionC(torch.tensor([[1., -1], [-1, 3]]), torch.tensor([[2, 3, 0]])))
