# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum threads
# comparing torch.inference_mode with torch.no_grad (e.g.
# https://discuss.pytorch.org/t/pytorch-torch-no-grad-vs-torch-inference-mode/134099) and the
# "Inference Mode" note (https://pytorch.org/docs/stable/notes/autograd.html#inference-mode):
# tensors created under inference_mode are inference tensors (is_inference()), cannot be
# saved for backward or modified in place outside the mode, and must be cloned to be used in
# autograd; no_grad results are ordinary tensors; the decorator forms, nesting with
# enable_grad, set_grad_enabled and is_grad_enabled / is_inference_mode_enabled.
# Differences: our own code; each error caught and printed; seeded.
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
with torch.no_grad():
    a = w * 2
with torch.inference_mode():
    b = w * 2
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(a.requires_grad, a.is_inference(), b.requires_grad, b.is_inference())
print(torch.is_inference_mode_enabled())

try:
    (b * w).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    b.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
c = b.clone()
print(c.is_inference())
(c * w).sum().backward()
print(w.grad)


@torch.inference_mode()
def predict(inp):
    return inp @ w


@torch.no_grad()
def predict2(inp):
    return inp @ w


p1, p2 = predict(x), predict2(x)
print(p1.is_inference(), p2.is_inference(), torch.equal(p1, p2))
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (w * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((w * 2).requires_grad)
    print((w * 2).requires_grad)
torch.set_grad_enabled(False)
print((w * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((w * 3).grad_fn)
print((w * 3).grad_fn.name())
with torch.inference_mode():
    t = torch.ones(2)
try:
    t.requires_grad_(True)
    print(t.requires_grad)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.ones(2).is_inference())
