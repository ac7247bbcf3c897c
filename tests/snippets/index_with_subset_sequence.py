# A tensor indexed by an object of a Python class that is a sequence (__getitem__, __len__):
# random_split's Subset, collections.UserList. PyTorch reads it as it reads a list (index data,
# or, under 32 items holding tensors, a tuple of indices with the deprecation warning); a
# dict is not a sequence. From PyTorchStepByStep's helpers.index_splitter (x_tensor[train_idx]).
import collections
import warnings

import torch
from torch.utils.data import Subset, random_split

warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.arange(200.).view(100, 2)
a, b = random_split(torch.arange(100), [0.8, 0.2])
print(x[a][:3], x[a].shape)
for key in (b, Subset(torch.arange(10), [1, 3]), {1: 2}, collections.UserList([1, 2.5])):
    try:
        print(x[key])
    except Exception as e:
        print(type(e).__name__, e)
y = torch.zeros(100, 2)
y[a] = 1.0
y[collections.UserList([4, 5, 6])] += 2
print(y.sum(), x[collections.UserList([4, 5, 6])])
print(x[Subset(list(range(50)), list(range(40)))].shape)
