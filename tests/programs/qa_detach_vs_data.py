# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch 0.4.0
# migration guide's "What about .data?" and the GitHub discussion of its example (an
# in-place change through .data goes unnoticed and gives a wrong gradient; the same change
# through .detach() is caught by the version counter):
# https://pytorch.org/blog/pytorch-0_4_0-migration-guide/
# and the Stack Overflow question "Difference between detach() and with torch.no_grad()"
# (x.data / x.detach() vs no_grad): https://stackoverflow.com/questions/56816241
# Written for gradsh; the error is caught and printed.
import torch

a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out)
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
out.sum().backward()
print(a.grad)   # wrong: sigmoid'(x) = s (1 - s) was computed from the zeroed s

x = torch.ones(2, requires_grad=True)
r = (2 * x + (3 + x.detach())).sum()
r.backward()
print(x.grad)
x.grad = None
r = (2 * x + (3 + x.data)).sum()
r.backward()
print(x.grad)
print(x)
print(x.detach())
with torch.no_grad():
    y = x * 2
print(y.requires_grad, x.data.requires_grad, x.detach().is_leaf)
print(x.data._version, x.detach()._version)
