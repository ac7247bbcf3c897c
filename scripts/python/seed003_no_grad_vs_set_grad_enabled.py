# Source article 003: `with torch.no_grad()` is the same as `torch.set_grad_enabled(False)`.
#
# Inside either block results have requires_grad False and no grad_fn: nothing is tracked.
# Tensors defined outside are not changed. model.eval() (not a grad mode) would not do this:
# it only switches dropout/batchnorm behaviour, gradients are still tracked.
import torch

w = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    a = w * 2
with torch.set_grad_enabled(False):
    b = w * 2
c = w * 2
print(a.requires_grad, a.grad_fn)
print(b.requires_grad, b.grad_fn)
print(c.requires_grad, c.grad_fn)
