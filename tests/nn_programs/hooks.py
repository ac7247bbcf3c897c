"""Forward pre-hooks, forward hooks and full backward hooks: order, replacement, removal."""
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("always")
torch.manual_seed(2)
calls = []


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x, factor=1.0):
        calls.append("forward")
        return self.lin(x) * factor


m = Scale()
h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre1"))
h2 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
h3 = m.register_forward_pre_hook(lambda mod, args, kwargs: calls.append(("pre_kw", kwargs)),
                                 with_kwargs=True)
h4 = m.register_forward_hook(lambda mod, args, out: calls.append(("fwd", tuple(out.shape))))
h5 = m.register_forward_hook(lambda mod, args, out: out + 1, prepend=True)
h6 = m.register_forward_hook(lambda mod, args, kwargs, out: calls.append(("fwd_kw", kwargs)),
                             with_kwargs=True)
x = torch.ones(1, 2)
y = m(x, factor=3.0)
print(calls, y)
calls.clear()
for h in (h1, h2, h3, h4, h5, h6):
    h.remove()
print(torch.equal(m(x), m.lin(x)), calls)
calls.clear()

# full backward hooks and pre-hooks
grads = []
b1 = m.register_full_backward_pre_hook(lambda mod, gout: grads.append(("pre", gout)))
b2 = m.register_full_backward_hook(lambda mod, gin, gout: grads.append(("full", gin, gout)))
b3 = m.register_full_backward_hook(
    lambda mod, gin, gout: None if gin[0] is None else (gin[0] * 10,))
xin = torch.tensor([[1.0, -1.0]], requires_grad=True)
out = m(xin)
print(out.grad_fn.__class__.__name__)
out.sum().backward()
for g in grads:
    print(g)
print(xin.grad)
grads.clear()
out = m(torch.ones(1, 2))  # no input requires grad: the hooks fire with grad_input None
out.sum().backward()
print(grads)
b1.remove(), b2.remove(), b3.remove()
try:
    m.register_backward_hook(lambda *a: None)
except RuntimeError as e:
    print(e)

# always_call hooks run when forward raises
class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


boom = Boom()
boom.register_forward_hook(lambda mod, args, out: print("always", out), always_call=True)
try:
    boom(torch.ones(1))
except ValueError as e:
    print("raised", e)

# the handle as a context manager
with m.register_forward_hook(lambda mod, args, out: print("in context")):
    m(x)
m(x)
print(calls.count("forward"))
