# nn.Module.register_backward_hook (deprecated, in older Grad-CAM and forum code): the hook sits
# on the output's grad_fn and sees that node's gradients (AddmmBackward0's bias gradient already
# summed to (4,)), with PyTorch's FutureWarnings when that node is not the whole forward.
import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)


def hook(module, grad_input, grad_output):
    print(type(module).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])


class Two(nn.Module):
    def forward(self, x):
        return x.exp() * 2


class Pair(nn.Module):
    def forward(self, x):
        return x * 2, x + 1


model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    h1 = model[0].register_backward_hook(hook)
    model[2].register_full_backward_hook(hook)
    model(x).sum().backward()
    h1.remove()
    Two().register_backward_hook(hook)
    m = Two()
    m.register_backward_hook(hook)
    m(x).sum().backward()
    p = Pair()
    p.register_backward_hook(hook)
    a, b = p(x)
    (a + b).sum().backward()
    model(x.detach()).sum().backward()
for w in caught:
    print(w.category.__name__, str(w.message)[:70])
try:
    model[2].register_backward_hook(hook)
except RuntimeError as e:
    print(e)
b = torch.zeros(3, requires_grad=True)
out = torch.addmm(b, torch.randn(2, 4), torch.randn(4, 3))
out.grad_fn.register_hook(lambda gi, go: print([tuple(g.shape) for g in gi if g is not None]))
out.sum().backward()
