# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.no_grad, torch.enable_grad, torch.set_grad_enabled and torch.inference_mode,
# BSD-3-Clause: https://github.com/pytorch/pytorch/blob/main/torch/autograd/grad_mode.py
# Like the docs: each mode used as a context manager and as a decorator, requires_grad of the
# results printed; enable_grad inside no_grad with a backward; set_grad_enabled(False) as a
# plain call; nn.Parameter created under no_grad still requires grad; an inference-mode
# tensor's _version raising.
# Differences: our own code and values; the raise is caught and printed.
import torch

w = torch.tensor([3.], requires_grad=True)

with torch.no_grad():
    u = w * 4
print(u.requires_grad)


@torch.no_grad()
def quadruple(t):
    return t * 4


print(quadruple(w).requires_grad)
with torch.no_grad():
    p = torch.nn.Parameter(torch.rand(4))
print(p.requires_grad)

with torch.no_grad():
    with torch.enable_grad():
        v = w * 4
print(v.requires_grad)
v.backward()
print(w.grad)


@torch.enable_grad()
def tracked_half(t):
    return t / 2


with torch.no_grad():
    h = tracked_half(w)
print(h.requires_grad)

training = False
with torch.set_grad_enabled(training):
    s = w * 4
print(s.requires_grad)
torch.set_grad_enabled(True)
print((w * 4).requires_grad)
torch.set_grad_enabled(False)
print((w * 4).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())

base = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    sq = base * base
print(sq.requires_grad, torch.is_inference_mode_enabled())
try:
    print(sq._version)
except RuntimeError as e:
    print("RuntimeError:", e)


@torch.inference_mode()
def square(t):
    return t * t


print(square(base).requires_grad)
