# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "How to define a leaf tensor in PyTorch 0.4.1" (the order of requires_grad=True and an
# operation such as .cuda() or * 2 decides whether the result is a leaf; y.requires_grad =
# True on an untracked result makes a new leaf):
# https://discuss.pytorch.org/t/how-to-define-a-leaf-tensor-in-pytorch-0-4-1/28461
# Written for gradsh. `.cuda()` is replaced by `.to(dev)` with dev the CUDA device when there
# is one and the CPU otherwise, as users write it; on the CPU `.to` is a no-op, so the result
# is still the same tensor and a leaf.
import torch

dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")

x = torch.tensor([1.0], requires_grad=True)
y = x * 2
print(y, y.is_leaf, y.grad_fn is not None)

x = torch.tensor([1.0])
y = x * 2
print(y, y.is_leaf)
y.requires_grad = True
print(y, y.is_leaf)
(y * 3).sum().backward()
print(y.grad, x.grad)

a = torch.rand(3, requires_grad=True).to(dev)
b = torch.rand(3).to(dev).requires_grad_()
print(a.is_leaf, b.is_leaf)

m = torch.randn(2, 2, requires_grad=True)
n = m.double()
print(n.is_leaf, n.grad_fn)
try:
    n.requires_grad = False
except RuntimeError as e:
    print("RuntimeError:", e)
n2 = n.detach().requires_grad_()
print(n2.is_leaf, n2.requires_grad)
