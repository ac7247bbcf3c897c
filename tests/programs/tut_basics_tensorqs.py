# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Tensors", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/tensorqs_tutorial.py
# Like the original: tensors from lists and from NumPy (torch.from_numpy), ones_like /
# rand_like(dtype=float), rand/ones/zeros from a shape tuple, shape/dtype/device in f-strings,
# indexing tensor[0], [:, 0], [..., -1], column assignment, torch.cat(dim=1), @ / matmul /
# .T / matmul(out=), mul(out=), sum().item() and its type, add_, and the NumPy bridge both ways
# (t.numpy() sees t.add_(1); from_numpy sees np.add(n, 1, out=n)).
# Differences: our own code; seeded.
import numpy as np
import torch

torch.manual_seed(0)

rows = [[1, 2], [3, 4]]
t_list = torch.tensor(rows)
t_np = torch.from_numpy(np.array(rows))
print(t_np)

print(f"Ones Tensor: \n {torch.ones_like(t_list)} \n")
print(f"Random Tensor: \n {torch.rand_like(t_list, dtype=torch.float)} \n")

shape = (2, 3,)
print(f"Random Tensor: \n {torch.rand(shape)} \n")
print(f"Ones Tensor: \n {torch.ones(shape)} \n")
print(f"Zeros Tensor: \n {torch.zeros(shape)}")

t = torch.rand(3, 4)
print(f"Shape of tensor: {t.shape}")
print(f"Datatype of tensor: {t.dtype}")
print(f"Device tensor is stored on: {t.device}")
if torch.cuda.is_available():
    t = t.to("cuda")

t = torch.ones(4, 4)
print(f"First row: {t[0]}")
print(f"First column: {t[:, 0]}")
print(f"Last column: {t[..., -1]}")
t[:, 1] = 0
print(t)
print(torch.cat([t, t, t], dim=1))

p1 = t @ t.T
p2 = t.matmul(t.T)
p3 = torch.rand_like(p1)
torch.matmul(t, t.T, out=p3)
print(torch.equal(p1, p2), torch.equal(p1, p3))
e1 = t * t
e3 = torch.rand_like(t)
torch.mul(t, t, out=e3)
print(torch.equal(e1, e3))

total = t.sum()
as_float = total.item()
print(as_float, type(as_float))

print(f"{t} \n")
t.add_(5)
print(t)

a = torch.ones(5)
print(f"t: {a}")
n = a.numpy()
print(f"n: {n}")
a.add_(1)
print(f"t: {a}")
print(f"n: {n}")

n2 = np.ones(5)
b = torch.from_numpy(n2)
np.add(n2, 1, out=n2)
print(f"t: {b}")
print(f"n: {n2}")
