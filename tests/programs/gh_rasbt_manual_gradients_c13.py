# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "Getting Gradients of an Intermediate Variable in PyTorch" (MIT):
# https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/mechanics/manual-gradients.ipynb
# Like the original: a = relu(x * w + b) at x=3, w=2, b=1, with the partial derivatives taken
# four ways: torch.autograd.grad one variable at a time (retain_graph=True, tuples printed),
# grad of all five at once, retain_grad() on the intermediates followed by backward(), and
# register_hook closures that store each gradient in a dict (the dict printed).
# Differences: the TensorFlow comparison cell is left out; a second input (x = -3, where the
# ReLU is inactive) and a float64 variant are added to show zero gradients and dtype reprs.
import torch
import torch.nn.functional as F
from torch.autograd import grad


def graph(xv, dtype=torch.float32):
    x = torch.tensor([xv], dtype=dtype, requires_grad=True)
    w = torch.tensor([2.], dtype=dtype, requires_grad=True)
    b = torch.tensor([1.], dtype=dtype, requires_grad=True)
    u = x * w
    v = u + b
    a = F.relu(v)
    return x, w, b, u, v, a


print("-- one at a time")
x, w, b, u, v, a = graph(3.)
d_a_b = grad(a, b, retain_graph=True)
d_a_u = grad(a, u, retain_graph=True)
d_a_v = grad(a, v, retain_graph=True)
d_a_w = grad(a, w, retain_graph=True)
d_a_x = grad(a, x)
for name, g in zip("xwbuv", (d_a_x, d_a_w, d_a_b, d_a_u, d_a_v)):
    print('d_a_%s:' % name, g)

print("-- graph freed")
try:
    grad(a, x)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0][:90])

print("-- all at once")
x, w, b, u, v, a = graph(3.)
partial_derivatives = grad(a, (x, w, b, u, v))
for name, g in zip("xwbuv", partial_derivatives):
    print('d_a_%s:' % name, g)

print("-- retain_grad")
x, w, b, u, v, a = graph(3.)
u.retain_grad()
v.retain_grad()
a.backward()
for name, var in zip("xwbuv", (x, w, b, u, v)):
    print('d_a_%s:' % name, var.grad)
print(a, a.grad_fn, a.grad_fn.next_functions)

print("-- hooks")
grads = {}


def save_grad(name):
    def hook(g):
        grads[name] = g
    return hook


for xv in (3., -3.):
    x = torch.tensor([xv], requires_grad=True)
    w = torch.tensor([2.], requires_grad=True)
    b = torch.tensor([1.], requires_grad=True)
    u = x * w
    v = u + b
    x.register_hook(save_grad('d_a_x'))
    w.register_hook(save_grad('d_a_w'))
    b.register_hook(save_grad('d_a_b'))
    u.register_hook(save_grad('d_a_u'))
    v.register_hook(save_grad('d_a_v'))
    a = F.relu(v)
    a.backward()
    print(xv, grads)
    print(sorted(grads))

print("-- float64")
x, w, b, u, v, a = graph(0.1, torch.float64)
print(a)
print(grad(a, (x, w, b)))
