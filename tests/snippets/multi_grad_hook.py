# torch.autograd.graph.register_multi_grad_hook (the docstring's example and its "any" mode):
# "all" waits for every tensor the running backward reaches, inputs= narrowing that set.
import torch

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b


def fn(grads):
    print([g is not None for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
try:  # PyTorch cannot ask about a leaf during autograd.grad
    torch.autograd.grad(d.sum(), (b,), retain_graph=True)
except RuntimeError as e:
    print(e)
(c + d).sum().backward(retain_graph=True)
handle.remove()
c.sum().backward(retain_graph=True)
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: print("any", g.shape),
                                                  mode="any")
(c * d).sum().backward()
try:
    torch.autograd.graph.register_multi_grad_hook((a,), fn, mode="some")
except ValueError as e:
    print(e)
