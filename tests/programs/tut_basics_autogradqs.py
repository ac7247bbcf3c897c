# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Automatic Differentiation with torch.autograd", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/autogradqs_tutorial.py
# Like the original: a one-layer net z = x @ w + b with binary_cross_entropy_with_logits,
# f-strings showing grad_fn, w.grad / b.grad, requires_grad inside and outside no_grad,
# detach(), and the Jacobian-product example (eye(4, 5) -> (inp+1).pow(2).t()) called three
# times with retain_graph=True, showing accumulation and grad.zero_().
# Differences: our own code; seeded. grad_fn objects print an address (masked by the harness).
import torch

torch.manual_seed(0)

x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")

loss.backward()
print(w.grad)
print(b.grad)

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print(z_det.requires_grad)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
ones = torch.ones_like(out)
out.backward(ones, retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(ones, retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(ones, retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
