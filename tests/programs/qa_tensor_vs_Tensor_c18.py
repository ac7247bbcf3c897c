# Corpus program modelled on the Stack Overflow question "What is the difference between
# torch.tensor and torch.Tensor?" (https://stackoverflow.com/questions/51911749) and its
# answers: torch.Tensor is the class (float32 default, a size or a sequence), torch.tensor the
# factory that infers the dtype; torch.Tensor(3) vs torch.tensor(3); torch.Tensor([]),
# torch.tensor([]); the legacy typed constructors.
# Changed: uninitialised memory is not printed (only shapes and dtypes); errors are caught and
# printed. Written for gradsh.
import numpy as np
import torch

print(torch.Tensor([1, 2, 3]), torch.Tensor([1, 2, 3]).dtype)
print(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3]).dtype)
print(torch.Tensor(3).shape, torch.tensor(3), torch.tensor(3).shape, torch.tensor(3).dim())
print(torch.Tensor(2, 3).shape, torch.Tensor(2, 3).dtype)
print(torch.Tensor([]), torch.tensor([]), torch.Tensor().shape)
print(torch.tensor([True, False]), torch.tensor([1, 2.5]), torch.tensor(np.array([1, 2])).dtype)
print(torch.tensor(np.float32(1.5)), torch.tensor([[1.0], [2.0]], dtype=torch.float64))
print(torch.LongTensor([1.7, -2.7]), torch.IntTensor([3]), torch.DoubleTensor(2).dtype)
print(torch.BoolTensor([0, 1, 2]), torch.ByteTensor([1, 255]))
print(isinstance(torch.tensor(1.0), torch.Tensor), type(torch.tensor(1.0)), type(torch.tensor([1])))
print(torch.Tensor is torch.FloatTensor, torch.tensor(1.0).type(), torch.tensor([1]).type())
try:
    torch.Tensor(3.5)
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print("ValueError", e)
try:
    torch.LongTensor([1], dtype=torch.float32)
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x, torch.Tensor(x.detach()).requires_grad)
y = torch.Tensor([[1, 2], [3, 4]])
print(y.t(), y.new_tensor([5, 6]), y.new_zeros(2), y.new_ones((1, 2), dtype=torch.int32))
print(torch.as_tensor([1, 2]), torch.as_tensor(np.arange(3.0)))
print(torch.tensor(2 ** 40), torch.tensor(1e-50), torch.tensor(1e-50, dtype=torch.float64))
