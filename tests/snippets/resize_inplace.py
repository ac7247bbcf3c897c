# Tensor.resize_ / resize_as_ (older forum code, the kthvalue docstring): the storage's first
# elements in the new shape; a tensor that requires grad cannot be resized.
import torch
x = torch.tensor([[1, 2], [3, 4], [5, 6]])
print(x.resize_(2, 2), x.shape)
y = torch.arange(6.)
print(y.resize_((3,)), y.resize_as_(torch.ones(1, 2)))
z = torch.ones(2, requires_grad=True)
try:
    z.resize_(1)
except RuntimeError as e:
    print(e)
print(torch.tensor([[1, 2, 3], [4, 5, 6]]).resize_(3, 2))
