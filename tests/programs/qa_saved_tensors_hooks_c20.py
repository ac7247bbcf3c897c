# Corpus program modelled on the "Hooks for autograd saved tensors" tutorial
# (https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html) and
# the pack-to-disk example of pytorch/pytorch PR #62563
# (https://github.com/pytorch/pytorch/pull/62563): pack/unpack hooks that print shapes, count
# the saved tensors of a small network, store them compressed (as float16) or in a store keyed
# by id, and save_on_cpu. Changed: tiny sizes and a seed; a dict instead of temporary files.
import torch
import torch.nn as nn

torch.manual_seed(0)


def pack_hook(x):
    print("Packing", tuple(x.shape), x.dtype, x.requires_grad)
    return x


def unpack_hook(x):
    print("Unpacking", tuple(x.shape))
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self is not None, y.grad_fn._saved_exponent)
y.sum().backward()
print(torch.allclose(x.grad, 2 * x))

# counting what a model saves
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
saved = []


def count_pack(t):
    saved.append((tuple(t.shape), t.numel()))
    return t


with torch.autograd.graph.saved_tensors_hooks(count_pack, lambda t: t):
    out = model(torch.randn(3, 4)).sum()
print(len(saved), sum(n for _, n in saved), sorted(saved))
out.backward()

# storing the saved tensors in half precision
calls = []


def pack_half(t):
    calls.append("pack")
    return (t.dtype, t.to(torch.float16))


def unpack_half(packed):
    calls.append("unpack")
    dtype, t = packed
    return t.to(dtype)


w = torch.randn(3, 3, requires_grad=True)
inp = torch.randn(3, 3)
with torch.autograd.graph.saved_tensors_hooks(pack_half, unpack_half):
    z = (inp @ w).sin().sum()
z.backward()
w2 = w.detach().clone().requires_grad_()
(inp @ w2).sin().sum().backward()
print(calls)
print((w.grad - w2.grad).abs().max() < 1e-2, w.grad.dtype)

# "disk": a dict keyed by an id
store = {}


def pack_to_store(t):
    key = len(store)
    store[key] = t.clone()
    return key


def unpack_from_store(key):
    return store[key]


p = torch.randn(4, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_store, unpack_from_store):
    q = (p.exp() * p).sum()
print(sorted(store.keys()))
q.backward()
print(torch.allclose(p.grad, (p.exp() * (p + 1)).detach()))
with torch.autograd.graph.save_on_cpu():
    r = (p * 3).tanh().sum()
r.backward()
print(p.grad)
