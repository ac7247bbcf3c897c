# Corpus program modelled on the PyTorch issue "Document or improve inputs to module hooks for
# register_backward_hook" (the legacy module backward hook's grad_input are the gradients of
# the inputs of the module's last operation: for Linear, addmm's bias, input and weight.t();
# for a Sequential, those of its last layer's last op), and the discuss thread it cites,
# "Exact meaning of grad_input and grad_output":
# https://github.com/pytorch/pytorch/issues/7040
# Changed: a seed and small sizes; the hooks print shapes and values; the full backward hook,
# which gives the module's own input gradient, is printed next to it; the deprecation warning
# goes to stderr; the error for mixing both kinds of hook on one module is caught and printed.
# Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)


def show(tag):
    def hook(module, grad_input, grad_output):
        print(tag, type(module).__name__)
        print("  grad_input:", [None if g is None else tuple(g.shape) for g in grad_input])
        print("  grad_output:", [None if g is None else tuple(g.shape) for g in grad_output])
    return hook


l = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
h = l.register_backward_hook(show("legacy"))
y = l(x)
print(y.grad_fn)
y.sum().backward()
h.remove()

seq = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2), nn.Sigmoid())
h = seq.register_backward_hook(show("legacy"))
out = seq(x)
print(out.grad_fn)
out.sum().backward()
h.remove()

try:  # the module remembers it had a legacy hook, even once removed
    seq.register_full_backward_hook(show("full"))
except RuntimeError as e:
    print(e)
seq = nn.Sequential(*seq)
h = seq.register_full_backward_hook(show("full"))
x.grad = None
out = seq(x)
out.sum().backward()
print(x.grad.shape)
h.remove()


def scale(module, grad_input, grad_output):
    return tuple(None if g is None else g * 0 for g in grad_input)


l.zero_grad()
h = l.register_backward_hook(scale)
l(x).sum().backward()
print(l.weight.grad, l.bias.grad)
