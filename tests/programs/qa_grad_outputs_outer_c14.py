# Corpus program modelled on the Stack Overflow question "Meaning of grad_outputs in PyTorch's
# torch.autograd.grad" (y = torch.outer(x, x); grad with ones_like(y) works, ones_like(x)
# raises a shape mismatch):
# https://stackoverflow.com/questions/68778401
# Changed: the error is caught and printed; the answer's vector-Jacobian reading is shown with
# a non-uniform grad_outputs and an einsum check. Written for gradsh.
import torch

x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = torch.outer(x, x)
print(y)
print(torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), retain_graph=True))
try:
    torch.autograd.grad(y, x, grad_outputs=torch.ones_like(x), retain_graph=True)
except RuntimeError as e:
    print(e)

v = torch.arange(16.).reshape(4, 4)
g, = torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)
print(g)
print(v @ x + v.t() @ x)
J = torch.autograd.functional.jacobian(lambda t: torch.outer(t, t), x)
print(J.shape)
print(torch.einsum('ij,ijk->k', v, J))
try:
    torch.autograd.grad(y, x)
except RuntimeError as e:
    print(e)
