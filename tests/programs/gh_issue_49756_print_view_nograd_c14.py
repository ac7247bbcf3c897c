# Corpus program modelled on the PyTorch issue "Printing should not have (bad) autograd side
# effects" (b = a.view_as(a); the base is written under no_grad; printing b then backward):
# https://github.com/pytorch/pytorch/issues/49756
# Fixed long before 2.13: the program prints what 2.13 does (b's value and grad_fn after the
# base changed, then the gradient). Added: the same with the write done in grad mode on a
# clone, where the view's grad_fn is rebuilt. Written for gradsh.
import torch

a = torch.ones(3, 1, requires_grad=True)
b = a.view_as(a)
print(b.grad_fn)
# No grad here just to avoid issue with modifying leafs inplace
with torch.no_grad():
    a[0, 0] = 3
print(b)
print(a._version, b._version)
d = torch.sum(3 * b)
d.backward()
print(d, a.grad)

a2 = torch.ones(3, 1, requires_grad=True)
c = a2.clone()
v = c.view_as(c)
print(v.grad_fn)
c[0, 0] = 3
print(v)
print(c.grad_fn, v.grad_fn)
(v * torch.tensor([[1.], [2.], [3.]])).sum().backward()
print(a2.grad)
try:
    with torch.no_grad():
        v.mul_(2)
    print(v, v.requires_grad)
except RuntimeError as e:
    print(e)
