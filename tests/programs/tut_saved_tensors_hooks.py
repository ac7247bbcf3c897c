# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Hooks for autograd saved tensors", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/autograd_saved_tensors_hooks_tutorial.py
# Like the original: grad_fn._saved_self / _saved_other / _saved_result, which are the
# original tensors for inputs and not for outputs; saved_tensors_hooks that print on pack and
# unpack, that scale on pack and unscale on unpack, that store an index into a list, that
# return a (tensor, closure) tuple and that store the repr string; save_on_cpu(pin_memory=True)
# around a module's forward; hooks that save to temporary files (the "incorrect" version
# deleting the file on unpack fails on the second access); a module wrapping another in
# saved_tensors_hooks, wrapped again in nn.DataParallel.
# Differences: our own code and shapes; results are printed; seeded.
import os
import tempfile
import uuid

import torch
import torch.nn as nn

torch.manual_seed(0)

a = torch.randn(4, requires_grad=True)
b = torch.full((4,), 3.0, requires_grad=True)
prod = a * b
print(prod.grad_fn._saved_self)
print(prod.grad_fn._saved_other)
print(prod.grad_fn._saved_self is a, prod.grad_fn._saved_other is b)
e = torch.exp(a)
print(e.grad_fn._saved_result.equal(e), e.grad_fn._saved_result is e)


def loud_pack(t):
    print("pack", t)
    return t


def loud_unpack(t):
    print("unpack", t)
    return t


x = torch.ones(3, requires_grad=True)
y = torch.arange(3.0, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(loud_pack, loud_unpack):
    z = x * y
z.sum().backward()
print("x.grad", x.grad)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 8, lambda t: t / 8):
    torch.pow(x, 2).sum().backward()
print("scaled hooks give 2x:", x.grad.equal(2 * x))

store = []


def pack_index(t):
    store.append(t)
    return len(store) - 1


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_index, lambda i: store[i]):
    (x * x * x).sum().backward()
print("index hooks:", len(store), torch.allclose(x.grad, 3 * x * x))


def pack_shifted(t):
    noise = torch.randn(*t.size())
    return t - noise, lambda s: s + noise


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_shifted, lambda p: p[1](p[0])):
    (x * x).sum().backward()
print("tuple hooks:", torch.allclose(x.grad, 2 * x))

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(repr, lambda s: eval("torch." + s)):
    (x * x).sum().backward()
print("repr hooks:", torch.all((x.grad - 2 * x).abs() <= 1e-4))


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4))

    def forward(self, x):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.w * x


m = Scale()
m(torch.randn(4)).sum().backward()
print("save_on_cpu grad:", m.w.grad)

tmp = tempfile.TemporaryDirectory()


def pack_to_disk(t):
    path = os.path.join(tmp.name, str(uuid.uuid4()))
    torch.save(t, path)
    return path


def unpack_and_delete(path):
    t = torch.load(path)
    os.remove(path)
    return t


x = torch.ones(4, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_and_delete):
    y = x.pow(3)
print(y.grad_fn._saved_self)
try:
    print(y.grad_fn._saved_self)
    print("second access worked")
except Exception:
    print("second access failed")


class DiskHooked(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, *args):
        with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, torch.load):
            return self.inner(*args)


net = nn.DataParallel(DiskHooked(Scale()))
print(net)
print(net.device_ids)
out = net(torch.randn(4))
out.sum().backward()
print(out)
print(net.module.inner.w.grad)
