# Source article 000: only leaf tensors keep .grad after backward.
#
# x is created by you with requires_grad=True: a leaf. y = x ** 2 is produced by an
# operation, so it is not a leaf: it has a grad_fn (PowBackward0) and backward passes
# through it without keeping the gradient. Watch the is_leaf, grad_fn and grad columns.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y + 1
z.backward()
print(x.grad)
# Reading .grad of a non-leaf gives None, and PyTorch warns about it.
print(y.grad)
print(x.is_leaf)
print(y.is_leaf)
print(x.grad_fn)
print(y.grad_fn)
