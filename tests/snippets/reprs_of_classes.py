# What programs print of torch's classes and functions: the metaclasses PyTorch names
# (torch._C._TensorMeta, _ParameterMeta, _BufferMeta), classes, dtypes and F's functions.
# (torch.relu, a builtin method in PyTorch, is a Python function in gradsh: not here.)
import torch
import torch.nn as nn
import torch.nn.functional as F

print(type(torch.Tensor).__name__, type(torch.Tensor))
print(type(nn.Parameter), type(nn.Buffer), type(nn.Parameter).__name__)


class MyTensor(torch.Tensor):
    pass


print(type(MyTensor), isinstance(torch.ones(1), torch.Tensor), type(torch.ones(1)))
print(torch.Tensor, torch.nn.Linear, torch.nn.Module, torch.nn.Parameter, torch.optim.SGD)
print(torch.float32, torch.int64, torch.bfloat16, torch.Size, torch.device, torch.dtype)
print(F.relu, F.softmax, F.cross_entropy)
print(F.relu.__name__, F.cross_entropy.__module__, torch.relu.__name__, torch.nn.Linear.forward)
print(torch.optim.Adam.step.__qualname__, torch.nn.Module.forward)
