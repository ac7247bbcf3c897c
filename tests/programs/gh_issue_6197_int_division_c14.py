# Corpus program modelled on the PyTorch issue "Fix integral tensor division" (a / b of two
# LongTensors once truncated; today it is true division to float, and // floors):
# https://github.com/pytorch/pytorch/issues/6197
# with the dtype table from tinygrad's "inconsistent BinaryOps.DIV casting behavior for ints"
# (int64, int16, uint8 and bool / gives float32): https://github.com/tinygrad/tinygrad/issues/1495
# Changed: negative operands and torch.div's rounding modes added to show trunc vs floor;
# division by zero of ints caught and printed. Written for gradsh.
import torch

a = torch.tensor([1, 2, 3], dtype=torch.long)
b = torch.tensor([3, 2, 1], dtype=torch.long)
print(a / b)
print(a // b, (a // b).dtype)
for dt in (torch.int64, torch.int16, torch.uint8, torch.bool):
    out = torch.tensor([1], dtype=dt) / torch.tensor([1], dtype=dt)
    print(dt, out, out.dtype)
out = torch.tensor([1]) / torch.tensor([2])
print(out, out.dtype)

n = torch.tensor([-7, -5, 5, 7])
d = torch.tensor([2, -2, -2, 2])
print(n / d)
print(n // d)
print(torch.div(n, d, rounding_mode='trunc'))
print(torch.div(n, d, rounding_mode='floor'))
print(torch.floor_divide(n, 2), torch.remainder(n, 3), torch.fmod(n, 3))
print(n % d)
print(n.float() // 2, (n.double() / 3).dtype)
print(torch.tensor([5], dtype=torch.int32) / 2, torch.tensor([5], dtype=torch.int32) // 2)
try:
    print(torch.tensor([1, 2]) // torch.tensor([0, 1]))
except RuntimeError as e:
    print(e)
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
x = torch.arange(6)
x //= 4
print(x, x.dtype)
try:
    x /= 2
except RuntimeError as e:
    print(e)
