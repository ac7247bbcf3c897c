# Source article 004: detach() returns a tensor that shares memory with the original.
#
# An in-place change through the detached tensor is visible in the original, and because
# they share the version counter, autograd knows: backward through a graph that saved the
# original fails.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
z = y.detach()
z.add_(1)
print(y)
print(y._version, z._version)
y.sum().backward()
