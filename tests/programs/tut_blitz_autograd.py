# Corpus program, written for gradsh (no code copied). Modelled on the 60-minute blitz
# "Autograd: automatic differentiation" tutorial (PyTorch 0.4-1.x version), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/05f04cb4463d507cc90f891db82d8c2685e14b53/beginner_source/blitz/autograd_tutorial.py
# Like the original: ones(2, 2, requires_grad=True), y = x + 2 and its grad_fn, z = y*y*3 and
# its mean, requires_grad_() on an existing tensor, out.backward() -> 4.5, a doubling loop
# on y.data.norm() followed by a vector-Jacobian backward, and requires_grad under no_grad.
# Differences: our own code; seeded. grad_fn objects print an address, which the harness masks.
import torch

torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)

m = torch.randn(2, 2)
m = (m * 3) / (m - 1)
print(m.requires_grad)
m.requires_grad_(True)
print(m.requires_grad)
s = (m * m).sum()
print(s.grad_fn)

out.backward()
print(x.grad)   # d(out)/dx = 3 (x + 2) / 2 = 4.5

v = torch.randn(3, requires_grad=True)
w = v * 2
while w.data.norm() < 1000:
    w = w * 2
print(w)
w.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float))
print(v.grad)

print(v.requires_grad)
print((v ** 2).requires_grad)
with torch.no_grad():
    print((v ** 2).requires_grad)
