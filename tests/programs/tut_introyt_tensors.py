# Corpus program, written for gradsh (no code copied). Modelled on "Introduction to PyTorch
# Tensors" (Introduction to PyTorch, YouTube series), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/introyt/tensors_deeper_tutorial.py
# Like the original: type(torch.empty(...)); zeros/ones/rand; torch.manual_seed(1729) making
# rand repeatable; empty_like/zeros_like/ones_like/rand_like shapes; tensors from nested
# lists and tuples; dtype=torch.int16, float64 * 20 then .to(torch.int32); scalar
# arithmetic, ** with a tensor exponent, broadcasting (3, 2), (3, 1), (1, 2) against
# (4, 3, 2); abs/ceil/floor/clamp, sin/asin, bitwise_xor, eq with broadcasting, max/mean/
# std/prod/unique; cross (no dim: a deprecation warning on stderr) and svd; sin vs sin_,
# add_/mul_; matmul(out=) and rand(out=) keeping the same object; aliasing vs clone();
# clone() of a requires_grad tensor vs detach().clone(); cuda checks; unsqueeze/squeeze and
# unsqueeze_; reshape; the NumPy bridge sharing memory both ways.
# Differences: our own code; torch.empty's contents (uninitialised memory) are never printed.
import math

import numpy as np
import torch

print(type(torch.empty(3, 4)))
print(torch.zeros(2, 3))
print(torch.ones(2, 3))

torch.manual_seed(1729)
r1 = torch.rand(2, 3)
r2 = torch.rand(2, 3)
torch.manual_seed(1729)
r3 = torch.rand(2, 3)
r4 = torch.rand(2, 3)
print(r1)
print(r2)
print(r3)
print(r4)
print(torch.equal(r1, r3), torch.equal(r2, r4))

base = torch.empty(2, 2, 3)
for like in (torch.empty_like(base), torch.zeros_like(base), torch.ones_like(base),
             torch.rand_like(base)):
    print(like.shape)
print(torch.zeros_like(base))
print(torch.rand_like(base))

print(torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]]))
print(torch.tensor((2, 3, 5, 7, 11, 13, 17, 19)))
print(torch.tensor(((2, 4, 6), [3, 6, 9])))

i16 = torch.ones((2, 3), dtype=torch.int16)
print(i16)
f64 = torch.rand((2, 3), dtype=torch.float64) * 20.
print(f64)
print(f64.to(torch.int32))

ones = torch.zeros(2, 2) + 1
twos = torch.ones(2, 2) * 2
threes = (torch.ones(2, 2) * 7 - 1) / 2
fours = twos ** 2
print(ones, twos, threes, fours, twos ** 0.5, sep="\n")
print(twos ** torch.tensor([[1, 2], [3, 4]]))
print(ones + fours)
print(threes * fours)

row = torch.rand(2, 4)
print(row * (torch.ones(1, 4) * 2))
block = torch.ones(4, 3, 2)
print(block * torch.rand(3, 2))
print(block * torch.rand(3, 1))
print(block * torch.rand(1, 2))

m = torch.rand(2, 4) * 2 - 1
print("Common functions:")
print(torch.abs(m))
print(torch.ceil(m))
print(torch.floor(m))
print(torch.clamp(m, -0.5, 0.5))
angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
sines = torch.sin(angles)
print("\nSine and arcsine:")
print(angles)
print(sines)
print(torch.asin(sines))
print("\nBitwise XOR:")
print(torch.bitwise_xor(torch.tensor([1, 5, 11]), torch.tensor([2, 7, 10])))
print("\nBroadcasted, element-wise equality comparison:")
sq = torch.tensor([[1., 2.], [3., 4.]])
print(torch.eq(sq, torch.ones(1, 2)))
print("\nReduction ops:")
print(torch.max(sq))
print(torch.max(sq).item())
print(torch.mean(sq))
print(torch.std(sq))
print(torch.prod(sq))
print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))

ex = torch.tensor([1., 0., 0.])
ey = torch.tensor([0., 1., 0.])
print("\nVectors & Matrices:")
print(torch.cross(ey, ex))
rm = torch.rand(2, 2)
print(rm)
m3 = torch.matmul(rm, torch.tensor([[3., 0.], [0., 3.]]))
print(m3)
print(torch.svd(m3))

a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print("a:")
print(a)
print(torch.sin(a))
print(a)
b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print("\nb:")
print(b)
print(torch.sin_(b))
print(b)

acc = torch.ones(2, 2)
inc = torch.rand(2, 2)
print("Before:")
print(acc)
print(inc)
print("\nAfter adding:")
print(acc.add_(inc))
print(acc)
print("\nAfter multiplying")
print(inc.mul_(inc))
print(inc)

left = torch.rand(2, 2)
right = torch.rand(2, 2)
dest = torch.zeros(2, 2)
dest_id = id(dest)
print(dest)
same = torch.matmul(left, right, out=dest)
print(dest)
print(same is dest, id(dest) == dest_id)
torch.rand(2, 2, out=dest)
print(dest)
print(id(dest) == dest_id)

orig = torch.ones(2, 2)
alias = orig
orig[0][1] = 561
print(alias)
orig = torch.ones(2, 2)
copy = orig.clone()
print(copy is not orig, torch.eq(orig, copy))
orig[0][1] = 561
print(copy)

tracked = torch.rand(2, 2, requires_grad=True)
print(tracked)
print(tracked.clone())
print(tracked.detach().clone())
print(tracked)

print("We have a GPU!" if torch.cuda.is_available() else "Sorry, CPU only.")
my_device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
print("Device: {}".format(my_device))
print(torch.rand(2, 2, device=my_device))
moved = torch.rand(2, 2).to(my_device)

img = torch.rand(3, 226, 226)
print(img.shape)
print(img.unsqueeze(0).shape)
print(torch.rand(1, 1, 1, 1, 1))
vec = torch.rand(1, 20)
print(vec.shape)
print(vec)
print(vec.squeeze(0).shape)
print(vec.squeeze(0))
two = torch.rand(2, 2)
print(two.shape)
print(two.squeeze(0).shape)
col = torch.rand(3).unsqueeze(1)
print(col.shape)
print(torch.ones(4, 3, 2) * col)
batch = torch.rand(3, 226, 226)
batch.unsqueeze_(0)
print(batch.shape)
feat = torch.rand(6, 20, 20)
print(feat.shape)
print(feat.reshape(6 * 20 * 20).shape)
print(torch.reshape(feat, (6 * 20 * 20,)).shape)

arr = np.ones((2, 3))
print(arr)
from_arr = torch.from_numpy(arr)
print(from_arr)
pt = torch.rand(2, 3)
print(pt)
as_np = pt.numpy()
print(as_np)
arr[1, 1] = 23
print(from_arr)
pt[1, 1] = 17
print(as_np)
