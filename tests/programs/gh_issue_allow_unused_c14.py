# Corpus program modelled on three PyTorch issues about torch.autograd.grad's allow_unused:
# "autograd.grad silently sets allow_unused=True" (grad of an output w.r.t. an input it does
# not use: an error by default, None with allow_unused=True)
# https://github.com/pytorch/pytorch/issues/6535
# "In autograd.grad, when using allow_unused=True and an input vector with requires_grad=False
# yields an error" https://github.com/pytorch/pytorch/issues/115918
# "Gradients wrt unused tensors are still marked with requires_grad=True if allow_unused=True"
# (materialize_grads) https://github.com/pytorch/pytorch/issues/168059
# Changed: the errors are caught and printed; a seed. Written for gradsh.
import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = torch.randn(3, requires_grad=True)
try:
    torch.autograd.grad(y.sum(), x)
except RuntimeError as e:
    print(e)
z = x.sum()
print(torch.autograd.grad(y.sum(), x, allow_unused=True))
print(torch.autograd.grad((x * y).sum(), (x, y)))

a = torch.tensor([1.0, 2.0])
b = torch.tensor([3., 4.], requires_grad=True)
c = a @ b
try:
    torch.autograd.grad(c, [a, b], allow_unused=True)
except RuntimeError as e:
    print(e)
print(torch.autograd.grad(c, [b]))

x = torch.ones(10).requires_grad_(True)
y = torch.ones(10).requires_grad_(True)
z = (x ** 2).sum()
g = torch.autograd.grad(z, (x, y), allow_unused=True, materialize_grads=True,
                        retain_graph=False, create_graph=False)
print(g)
print(g[0].requires_grad, g[1].requires_grad)
try:
    torch.autograd.grad((x ** 2).sum(), (x, y), allow_unused=False, materialize_grads=True)
except ValueError as e:
    print(e)
