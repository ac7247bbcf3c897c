# Source article 003: torch.Tensor (a class) vs torch.tensor (a function).
#
# Tensor always makes float32; tensor infers the dtype from the data, so integers give
# int64 - and an int64 tensor can never require grad (only floating point tensors can).
import torch

x = torch.Tensor([2, 3])
print(x.dtype)
x = torch.tensor([2, 3])
print(x.dtype)
x = torch.tensor([2., 3.])
print(x.dtype)
