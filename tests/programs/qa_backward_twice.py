# Corpus program, written for gradsh (no code copied). Modelled on two PyTorch forum threads:
# "RuntimeError: Trying to backward through the graph a second time..." (why buffers are
# freed, retain_graph=True on all but the last call):
# https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795
# and "Multiple call to backward still works when retain_graph=False, why?" (y = x + 2 saves
# nothing, so a second backward works; y = x * x fails):
# https://discuss.pytorch.org/t/multiple-call-to-backward-still-works-when-retain-graph-false-why/9475
# Written for gradsh; the errors are caught and printed; seeded.
import torch
from torch.autograd import Variable

torch.manual_seed(0)

x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)
z = y * y
print(z)
y.backward(torch.randn(2, 2))
print(x.grad)

x.grad = None
y = x * x
y.backward(torch.ones(2, 2))
try:
    y.backward(torch.ones(2, 2))
except RuntimeError as e:
    print("RuntimeError:", e)

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w.exp() * 3).sum()
loss.backward(retain_graph=True)
loss.backward(retain_graph=True)
loss.backward()
print(w.grad)
try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

h = torch.tanh(w)
g = torch.autograd.grad(h.sum(), w)
print(g)
try:
    torch.autograd.grad(h.sum(), w)
except RuntimeError as e:
    print("RuntimeError:", e)
