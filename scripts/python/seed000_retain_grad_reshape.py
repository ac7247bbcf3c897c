# Source article 000: arange(..., requires_grad=True).reshape(...) is NOT a leaf.
#
# The leaf is the tensor arange created; reshape is an operation (ViewBackward0) and x
# and w hold its results. retain_grad() asks backward to keep their gradients anyway; it
# must be called before backward.
import torch

x = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
w = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(1, 10)
y = w @ x
x.retain_grad()
w.retain_grad()
y.backward()
print(x.is_leaf)
print(w.is_leaf)
print(x.grad)
print(w.grad)
