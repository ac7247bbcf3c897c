# register_full_backward_hook / _pre_hook on a module returning two tensors: both outputs share
# one BackwardHookFunctionBackward node (a Python Function's node, so its repr says
# torch.autograd.function), the pre-hook runs once with both gradients, and an output that
# backward does not reach hands None on (a tensor hook inside the module sees None).
import torch
import torch.nn as nn


class Two(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = nn.Parameter(torch.ones(2))
        self.q = nn.Parameter(torch.ones(2))

    def forward(self, x):
        t = x * self.q
        t.register_hook(lambda g: print("t grad", g))
        return x * self.p, t


m = Two()
m.register_full_backward_pre_hook(lambda mod, go: print("pre", go))
m.register_full_backward_hook(lambda mod, gi, go: print("full", gi, go))
x = torch.ones(2, requires_grad=True)
a, b = m(x)
print(a.grad_fn, type(a.grad_fn), a.grad_fn is b.grad_fn, len(a.grad_fn.next_functions))
a.sum().backward()
print(m.p.grad, m.q.grad, x.grad)
a, b = m(x)
(a.sum() + 2 * b.sum()).backward()
print(m.p.grad, m.q.grad, x.grad)
