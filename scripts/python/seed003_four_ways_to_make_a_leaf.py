# Source article 003: four ways to create a leaf that requires grad.
#
# Each x below is a leaf (is_leaf True, grad_fn None) with requires_grad True.
# 1. a factory with requires_grad=True
import torch

x1 = torch.randn(2, 2, requires_grad=True)
# 2. the old Variable wrapper: today it returns a tensor
x2 = torch.autograd.Variable(torch.Tensor([2, 3]), requires_grad=True)
# 3. tensor(...) with a floating dtype
x3 = torch.tensor([2, 3], requires_grad=True, dtype=torch.float64)
# 4. set the flag afterwards (PyTorch: torch.from_numpy(...) then requires_grad = True)
x4 = torch.tensor([1, 2, 3], dtype=torch.float64)
x4.requires_grad = True
# Only floating point tensors can require gradients:
bad = torch.tensor([1, 2, 3], requires_grad=True)
