# Corpus program, written for gradsh (no code copied). Modelled on Vaibhav Kumar's "PyTorch
# Autograd: Understanding the heart of PyTorch's magic" (Towards Data Science, 2019):
# https://towardsdatascience.com/pytorch-autograd-understanding-the-heart-of-pytorchs-magic-2686cd94ec95
# Like the post: tensors with requires_grad, the is_leaf / requires_grad / grad_fn of every
# node of a small expression graph, walking grad_fn.next_functions back to the
# AccumulateGrad nodes (and their .variable), backward() on a scalar, backward(gradient=...)
# on a vector as a vector-Jacobian product checked against the hand-derived Jacobian,
# gradients accumulating over two backward passes, retain_graph, the error of a second
# backward without it, torch.no_grad and detach, and the in-place-on-a-leaf error.
# Differences: values of its own; every printed object the post shows in a notebook is printed
# with print(); errors caught and printed.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = torch.tensor(4.0, requires_grad=True)
e = c * d
for name, t in (("a", a), ("b", b), ("c", c), ("d", d), ("e", e)):
    print(name, t, "is_leaf", t.is_leaf, "requires_grad", t.requires_grad, "grad_fn", t.grad_fn)

node = e.grad_fn
print(node.name(), node.next_functions)
for fn, idx in node.next_functions:
    print("  ", type(fn).__name__, idx, getattr(fn, "variable", None))
    if fn is not None and fn.next_functions:
        for fn2, idx2 in fn.next_functions:
            print("     ", fn2.name(), idx2, fn2.variable if hasattr(fn2, "variable") else None)

e.backward(retain_graph=True)
print("de/da", a.grad, "de/db", b.grad, "de/dd", d.grad, "c.grad", c.grad)
e.backward()
print("accumulated:", a.grad, b.grad, d.grad)
try:
    e.backward()
except RuntimeError as err:
    print("RuntimeError:", err)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2 + 3 * x
try:
    y.backward()
except RuntimeError as err:
    print("RuntimeError:", err)
v = torch.tensor([0.1, 1.0, 0.0001])
y.backward(gradient=v)
print("vector-Jacobian product:", x.grad)
J = torch.diag(2 * x.detach() + 3)
print("v @ J:", v @ J, torch.allclose(v @ J, x.grad))

with torch.no_grad():
    z = x * 2
print(z.requires_grad, z.grad_fn, (x * 2).requires_grad)
w = x.detach()
print(w.requires_grad, w.is_leaf, w.data_ptr() == x.data_ptr())
try:
    x.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)
with torch.no_grad():
    x.add_(1)
print(x, x.grad_fn, x.is_leaf)

m = torch.ones(2, 2, requires_grad=True)
n = (m * 3).sum(dim=1).mean()
print(n, n.grad_fn, n.grad_fn.next_functions[0][0], n.grad_fn.next_functions[0][0].next_functions)
n.backward()
print(m.grad)
p = torch.randn(3, requires_grad=True).sigmoid()
print(p.is_leaf, p.requires_grad, p.grad)
p.retain_grad()
p.sum().backward()
print(p.grad, p.retains_grad)
