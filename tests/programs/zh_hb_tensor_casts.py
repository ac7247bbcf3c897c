# Corpus program, written for gradsh (no code copied). Modelled on zergtant's Chinese "PyTorch
# 中文手册 (pytorch-handbook)", section 2.1.1 PyTorch 基础 : 张量:
# https://github.com/zergtant/pytorch-handbook/blob/master/chapter2/2.1.1.pytorch-basics-tensor.ipynb
# Like the handbook: torch.rand shapes and size(), a 0-d scalar and a one-element tensor with
# item(), the cast list (long, half, int, float, short, char, byte), numpy() and from_numpy,
# type() names, a .cuda() copy where no GPU is (the handbook ran on one), torch.device chosen by
# torch.cuda.is_available(), rand/ones/zeros/eye, torch.max(x, dim=1) as values and indices,
# torch.sum(x, dim=1), x + y and x.add_(y). Differences: our own code; seeded; values a notebook
# would display are printed; the CUDA calls are caught and their errors printed.
import numpy as np
import torch

torch.manual_seed(0)

x = torch.rand(2, 3)
print(x, x.shape, x.size())
y = torch.rand(2, 3, 4, 5)
print(y.size(), y.dim(), y.numel())

scalar = torch.tensor(3.1433223)
print(scalar, scalar.size(), scalar.item())
tensor = torch.tensor([3.1433223])
print(tensor, tensor.size(), tensor.item())

for cast in ("long", "half", "int", "float", "short", "char", "byte", "double", "bool"):
    value = getattr(tensor, cast)()
    print(cast, value, value.dtype, value.type())
print(torch.tensor([-1.5, 2.7, 100.0]).char(), torch.tensor([1.5, 2.7, 200.0]).byte())

a = torch.randn((3, 2))
numpy_a = a.numpy()
print(numpy_a)
torch_a = torch.from_numpy(numpy_a)
print(torch_a)

cpu_a = torch.rand(4, 3)
print(cpu_a.type())
try:
    gpu_a = cpu_a.cuda()
except AssertionError as err:
    print("AssertionError:", err)
try:
    print(torch.cuda.current_device())
except AssertionError as err:
    print("AssertionError:", err)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device)
gpu_b = cpu_a.to(device)
print(gpu_b.type())

print(torch.rand(5, 3))
print(torch.ones(2, 2), torch.zeros(2, 2), torch.eye(2, 2))

x = torch.randn(3, 3)
print(x)
max_value, max_idx = torch.max(x, dim=1)
print(max_value, max_idx)
sum_x = torch.sum(x, dim=1)
print(sum_x)
y = torch.randn(3, 3)
z = x + y
print(z)
x.add_(y)
print(x)
