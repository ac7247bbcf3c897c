# gradsh: --sim-cuda
# Source article 002: the torch.Tensor.is_leaf examples, with PyTorch's own random numbers.
#
# Moving a tensor that requires grad to the GPU is an operation (ToCopyBackward0), so b
# is not a leaf; moving first and asking for grad afterwards (e) keeps a leaf. Runs on any
# machine with --sim-cuda, which simulates cuda:0 on the CPU.
import torch

torch.manual_seed(20200910)
a = torch.rand(10, requires_grad=True)
print(a)
print(a.is_leaf)
a = torch.rand(10, requires_grad=False)
print(a)
print(a.is_leaf)
b = torch.rand(10, requires_grad=False).cuda()
print(b.is_leaf)
b = torch.rand(10, requires_grad=True).cuda()
print(b.is_leaf)
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
c = torch.rand(10, requires_grad=False) + 2
print(c.is_leaf)
d = torch.rand(10).cuda()
print(d.is_leaf)
e = torch.rand(10).cuda().requires_grad_()
print(e.is_leaf)
f = torch.rand(10, requires_grad=True, device="cuda")
print(f.is_leaf)
