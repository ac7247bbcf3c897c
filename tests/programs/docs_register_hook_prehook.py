# Corpus program, written for gradsh (no code copied). Modelled on the docstrings of
# torch.Tensor.register_hook (https://pytorch.org/docs/stable/generated/torch.Tensor.register_hook.html:
# a hook that doubles the gradient, then handle.remove()) and torch.autograd.graph.Node.register_prehook
# (https://runebook.dev/en/docs/pytorch/generated/torch.autograd.graph.node.register_prehook:
# b = a.clone(), a pre-hook on b.grad_fn that doubles grad_outputs, the handle removed, a.grad
# reset to None and the graph run again), and Node.register_hook on grad_fn.
# Differences: our own code; printed results instead of doctest output; seeded.
import torch

v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)
h.remove()
v.grad = None
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)

a = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
b = a.clone()
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(b.grad_fn.name())
handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

calls = []


def node_hook(grad_inputs, grad_outputs):
    calls.append((len(grad_inputs), len(grad_outputs), grad_outputs[0].sum().item()))


torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x.mul(3)
hh = y.grad_fn.register_hook(node_hook)
(y * y).sum().backward()
print(calls)
print(x.grad)
hh.remove()

# hooks on a leaf run before accumulation; several hooks run in registration order
order = []
p = torch.ones(2, requires_grad=True)
p.register_hook(lambda g: order.append("first") or g + 1)
p.register_hook(lambda g: order.append("second") or g * 10)
(p * 3).sum().backward()
print(order, p.grad)
