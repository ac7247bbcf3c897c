# Corpus program, written for gradsh (no code copied). Modelled on GunhoChoi's
# Kind-PyTorch-Tutorial, 01_Tensor_Basics/pytorch_tensor_basic.ipynb (written for PyTorch 0.2):
# https://github.com/GunhoChoi/Kind-PyTorch-Tutorial/blob/master/01_Tensor_Basics/pytorch_tensor_basic.ipynb
# Like the notebook: rand / randn / randperm / zeros / ones / arange(0, 3, step=0.5),
# torch.FloatTensor from a list, type_as(torch.IntTensor()), from_numpy of an
# np.ndarray(shape, dtype=int, buffer=...), .cuda() (on a CPU-only build: the error, caught),
# size()[:], index_select with a LongTensor, pythonic slicing, masked_select with a ByteTensor
# mask (refused now: caught, then a bool mask), cat / stack / chunk / split, squeeze / unsqueeze / view,
# the old init.uniform / init.normal / init.constant (deprecated aliases of the in-place
# functions), add / mul / div / pow / exp / log / mm / bmm, torch.dot of two matrices and
# torch.eig (removed since): their errors caught and printed, t() and transpose.
# Differences: the notebook's uninitialised torch.FloatTensor(3, 4) operands (whose printed
# values were garbage) are seeded random tensors here; tuples printed with print().
import warnings

import numpy as np
import torch
import torch.nn.init as init

warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.rand(2, 3)
print(x)
print(torch.randn(2, 3))
print(torch.randperm(5))
print(torch.zeros(2, 3), torch.ones(2, 3))
print(torch.arange(0, 3, step=0.5))
print(torch.FloatTensor(2, 3).shape)
x = torch.FloatTensor([2, 3])
print(x)
x = x.type_as(torch.IntTensor())
print(x, x.type())
x1 = np.ndarray(shape=(2, 3), dtype=int, buffer=np.array([1, 2, 3, 4, 5, 6]))
x2 = torch.from_numpy(x1)
print(x2)
x3 = x2.numpy()
print(repr(x3))
x = torch.FloatTensor([[1, 2, 3], [4, 5, 6]])
try:
    x_gpu = x.cuda()
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
    x_gpu = x
print(x_gpu.cpu())
x = torch.FloatTensor(10, 12, 3, 3)
print(x.size()[:], x.size()[1:3], x.size(-1))

x = torch.rand(4, 3)
out = torch.index_select(x, 0, torch.LongTensor([0, 3]))
print((x, out))
print((x[:, 0], x[0, :], x[0:2, 0:2]))
x = torch.randn(2, 3)
mask = torch.ByteTensor([[0, 0, 1], [0, 1, 0]])
try:
    out = torch.masked_select(x, mask)
except RuntimeError as e:
    print("RuntimeError:", e)
    out = torch.masked_select(x, mask.bool())
print((x, mask, out))

x = torch.FloatTensor([[1, 2, 3], [4, 5, 6]])
y = torch.FloatTensor([[-1, -2, -3], [-4, -5, -6]])
z1 = torch.cat([x, y], dim=0)
z2 = torch.cat([x, y], dim=1)
print((x, y, z1, z2))
x_stack = torch.stack([x, x, x, x], dim=0)
print(x_stack)
x_1, x_2 = torch.chunk(z1, 2, dim=0)
y_1, y_2, y_3 = torch.chunk(z1, 3, dim=1)
print((z1, x_1, x_2, y_1, y_2, y_3))
x1, x2 = torch.split(z1, 2, dim=0)
y1 = torch.split(z1, 2, dim=1)
print((x1, x2, y1))
x1 = torch.FloatTensor(10, 1, 3, 1, 4)
x2 = torch.squeeze(x1)
print(x1.size(), x2.size())
x1 = torch.FloatTensor(10, 3, 4)
x2 = torch.unsqueeze(x1, dim=0)
print(x1.size(), x2.size())
print(x1.view(-1).size(), x1.view(5, -1).size(), x1.view(3, 10, -1).size())

x1 = init.uniform(torch.FloatTensor(3, 4), a=0, b=9)
x2 = init.normal(torch.FloatTensor(3, 4), std=0.2)
x3 = init.constant(torch.FloatTensor(3, 4), 3.1415)
print((x1, x2, x3))

x1 = torch.FloatTensor([[1, 2, 3], [4, 5, 6]])
x2 = torch.FloatTensor([[1, 2, 3], [4, 5, 6]])
add = torch.add(x1, x2)
print((x1, x2, add, x1 + x2, x1 - x2))
x2 = torch.add(x1, 10)
print((x1, x2, x1 + 10, x2 - 10))
print(torch.mul(x1, x2), x1 * 10)
print(torch.div(x1, x2), x1 / 5)
x1 = torch.rand(3, 4) * 1e-17
print((torch.pow(x1, 2), x1 ** 2))
x1 = torch.randn(3, 4) * 100
print(torch.exp(x1))
print(torch.log(x1))
x1 = torch.randn(3, 4)
x2 = torch.randn(4, 5)
print(torch.mm(x1, x2))
x1 = torch.FloatTensor(10, 3, 4)
x2 = torch.FloatTensor(10, 4, 5)
print(torch.bmm(x1, x2).size())
x1 = torch.randn(3, 4)
x2 = torch.randn(3, 4)
for label, call in (("dot", lambda: torch.dot(x1, x2)), ("dot 1-D", lambda: torch.dot(x1[0], x2[0])),
                    ("eig", lambda: torch.eig(x1[:, :3], True)),
                    ("Tensor.eig", lambda: x1[:, :3].eig(True)),
                    ("linalg.eigvals", lambda: torch.linalg.eigvals(x1[:, :3]))):
    try:
        print(label, call())
    except (RuntimeError, AttributeError) as e:
        print(label, type(e).__name__ + ":", e)
x1 = torch.rand(3, 4) * 1e-17
print((x1, x1.t()))
x1 = torch.FloatTensor(10, 3, 4)
print(x1.size(), torch.transpose(x1, 1, 2).size(), x1.transpose(1, 2).size())
