# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch reference pages
# of Tensor.retain_grad and Tensor.retains_grad (https://pytorch.org/docs/stable/generated/torch.Tensor.retains_grad.html,
# mirrored at https://pytorch.ac.cn/docs/stable/generated/torch.Tensor.retain_grad.html):
# retains_grad is True only for a non-leaf whose grad is kept, retain_grad() is a no-op on a
# leaf, and the non-leaf's .grad is filled on backward (and accumulates over two passes).
# Differences: our own code; each case printed; seeded.
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
print(w.is_leaf, w.retains_grad)
w.retain_grad()
print(w.retains_grad)

h = w.exp()
print(h.is_leaf, h.retains_grad)
h.retain_grad()
print(h.retains_grad)
out = (h * torch.tensor([1.0, 2.0, 3.0])).sum()
out.backward(retain_graph=True)
print(h.grad)
print(w.grad)
out.backward()
print(h.grad)
print(w.grad)

c = torch.tensor([1.0, 2.0])
print(c.retains_grad, c.requires_grad)
try:
    c.retain_grad()
except RuntimeError as e:
    print("RuntimeError:", e)

with torch.no_grad():
    d = w * 2
print(d.requires_grad, d.retains_grad)

z = w.detach().clone().requires_grad_()
m = z.sigmoid()
m.retain_grad()
m.retain_grad()
m.mean().backward()
print(m.grad)
print(z.grad)
print(m.retains_grad, z.retains_grad)
