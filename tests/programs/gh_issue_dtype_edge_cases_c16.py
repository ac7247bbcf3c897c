# Corpus program modelled on PyTorch issues about numeric corner cases, each a short repro that
# prints values: "arange(0.1, 0.5, 0.05) returns wrong results"
# (https://github.com/pytorch/pytorch/issues/5556), "torch.arange cannot create
# torch.FloatTensor of size 13" (https://github.com/pytorch/pytorch/issues/5704), "arange cuda
# bug" (https://github.com/pytorch/pytorch/issues/18363, the CPU half: the shapes of
# arange(-4, 4, 0.1) and arange(-4, 4, 0.01)), "`torch.arange` output shape"
# (https://github.com/pytorch/pytorch/issues/21579, its verify_out_shape check) and "Round
# behavior is not consistent" (https://github.com/pytorch/pytorch/issues/55289, 6.5 and 3.5
# rounding half to even); then the type-promotion, integer-wrap, rounding-mode and low-precision
# examples of the docs pages those threads point to (Tensor Attributes / type promotion,
# torch.div, torch.fmod, torch.remainder, torch.finfo).
# Changed: the repros are gathered into one program; no CUDA; numpy comparisons are replaced by
# math.ceil. Written for gradsh.
import math

import torch

print(torch.arange(0.1, 0.50, 0.05))
for end in (1.1, 1.2, 1.3):
    print(torch.arange(0, end, 0.1).shape)
print(torch.arange(-4.0, 4.0, 0.1).shape, torch.arange(-4.0, 4.0, 0.01).shape)
a = torch.arange(-4.0, 4.0, 0.01)
print(a[0], a[-1])


def verify_out_shape(start, end, steps):
    for s in steps:
        dif = end - start
        print(s, torch.arange(start, end, step=s).size(0), math.ceil(dif / s))


verify_out_shape(1, 400, [0.5, 0.7, 0.3, 1.3])
verify_out_shape(23, 731, [0.5, 0.7, 0.3, 1.3])
print(torch.round(torch.tensor([6.5])), torch.round(torch.tensor([3.5])))
print(torch.arange(0, 1, 0.1), torch.arange(0, 1, 0.1).shape)
print(torch.arange(1, 2.5, 0.5), torch.arange(-1.0, 1.0, 0.3).dtype)
print(torch.arange(0.0, 0.9, 0.3), torch.arange(10, 0, -3))
print(torch.linspace(0, 1, 7), torch.linspace(-5, 5, 4, dtype=torch.float64))
print(torch.logspace(0, 2, 3), torch.linspace(0, 10, 5, dtype=torch.int64))

a = torch.tensor([3, 250], dtype=torch.uint8)
b = torch.tensor([5, 10], dtype=torch.uint8)
print(a - b, a + b, a * 2, (a.int() - b.int()))
print(torch.tensor([127], dtype=torch.int8) + 1, torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1)

i = torch.tensor([1, 2, 3])
print((i + 2.5).dtype, (i + torch.tensor(2.5)).dtype, (i * torch.tensor([2.5])).dtype)
print((torch.tensor([1.0]) + torch.tensor(2.0, dtype=torch.float64)).dtype)
print((torch.tensor([1.0]) + torch.tensor([2.0], dtype=torch.float64)).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print((torch.tensor([True]) + 1).dtype, (torch.tensor([1], dtype=torch.int32) + 1).dtype)
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float16))
print((i / 2).dtype, (i // 2).dtype, torch.true_divide(i, 2), torch.floor_divide(-i, 2))

v = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.675])
print(torch.round(v), v.round(decimals=2), torch.round(torch.tensor([1234.5678]), decimals=-2))
n = torch.tensor([-7, -3, 3, 7])
print(torch.div(n, 2, rounding_mode="floor"), torch.div(n, 2, rounding_mode="trunc"), torch.div(n, 2))
print(torch.fmod(n, 3), torch.remainder(n, 3), n % -3, torch.fmod(n.float(), -3.0))
print(torch.tensor([-7.5, 7.5]) // 2, torch.tensor([5.0]) % torch.tensor([-2.0]))

h = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)
print(h, h.sum(), h * 1000, (h + 1e-4))
bf = torch.tensor([1.0, 1.001, 100.5], dtype=torch.bfloat16)
print(bf, bf + 1, bf.float(), bf.sum())
print(torch.tensor([65504.0], dtype=torch.float16) * 2, torch.finfo(torch.float16).eps)
print(torch.tensor(1e-8, dtype=torch.float16), torch.ones(4096, dtype=torch.float16).sum())
print(torch.iinfo(torch.int16).max, torch.finfo(torch.bfloat16).tiny, torch.finfo().max)
print(torch.tensor([-1.7]).int(), torch.tensor([200.7]).to(torch.uint8))
print(torch.tensor([1.5]).bool(), torch.tensor([0.0]).bool())
print(torch.tensor(2 ** 53 + 1), torch.tensor(2 ** 53 + 1).float().long())
