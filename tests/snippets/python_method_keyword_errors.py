# Unexpected keywords to the Tensor methods PyTorch writes in Python (torch/_tensor.py): Python's
# TypeError names them Tensor.norm(), Tensor.backward(); torch.autograd.backward is backward().
# From pytorch-beginner's backward.py (backward(..., retain_variables=True), a 0.x keyword).
import torch
x = torch.ones(4, requires_grad=True)
for c in (lambda: x.norm(foo=1), lambda: x.split(1, foo=2), lambda: x.unique(foo=1), lambda: x.unflatten(0, (2, 2), foo=1),
          lambda: x.register_hook(print, foo=1), lambda: x.sum().backward(retain_variables=True), lambda: x.backward(1, 2, 3, 4, 5, 6),
          lambda: x.lu(foo=1), lambda: torch.autograd.backward(x.sum(), retain_variables=True)):
    try:
        c()
    except Exception as e:
        print(type(e).__name__, e)
