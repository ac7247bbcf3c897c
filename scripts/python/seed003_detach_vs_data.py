# Source article 003: detach() vs detach_() vs .data.
#
# y.detach() returns a new leaf sharing y's storage, requires_grad False; y itself is
# unchanged. y.detach_() detaches y itself. .data also shares storage but autograd does
# not track changes made through it (a fresh version counter), which can silently give
# wrong gradients; detach() shares the version counter, so the same change is caught.
import torch

w = torch.tensor([1., 2., 3.], requires_grad=True)
y = w * 2
d = y.detach()
print(d.requires_grad, d.grad_fn, y.grad_fn)
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)

# Changing a saved tensor through .data: no error, and a gradient computed from the new values.
a = torch.tensor([1., 2., 3.], requires_grad=True)
s = a.sigmoid()
s.data.zero_()
s.sum().backward()
print(a.grad)

# The same change through detach(): backward notices and refuses.
b = torch.tensor([1., 2., 3.], requires_grad=True)
t = b.sigmoid()
t.detach().zero_()
t.sum().backward()
