# Corpus program modelled on the Stack Overflow question "Pytorch preferred way to copy a
# tensor" (https://stackoverflow.com/questions/55266154) and its answers: y = tensor.new_tensor(x),
# y = x.clone().detach(), y = torch.empty_like(x).copy_(x), y = torch.tensor(x) (which warns),
# and copy.deepcopy; which of them keep requires_grad, the graph, or share memory.
# Changed: the answer's timing table is replaced by printing each copy's flags; the warning
# goes to stderr and is not compared; deepcopy of a non-leaf's error is caught and printed.
# Written for gradsh.
import copy
import warnings

import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    a = x.new_tensor(x)
    b = torch.tensor(x)
print(len(caught), [str(w.category.__name__) for w in caught])
c = x.clone().detach()
d = torch.empty_like(x).copy_(x)
e = x.detach().clone()
f = copy.deepcopy(x)
g = x.clone()
for name, t in [("new_tensor", a), ("tensor", b), ("clone.detach", c), ("empty_like.copy_", d),
                ("detach.clone", e), ("deepcopy", f), ("clone", g)]:
    print(f"{name:17s} requires_grad={t.requires_grad!s:5} is_leaf={t.is_leaf!s:5} "
          f"grad_fn={type(t.grad_fn).__name__ if t.grad_fn is not None else None} "
          f"shares={t.data_ptr() == x.data_ptr()}")
print(d)
print(f)
c[0] = 100.0
print(x[0].item() == 100.0)
x.data[1] = -1.0
print(e[1].item() == -1.0, g[1].item() == -1.0)
y = x * 2
try:
    copy.deepcopy(y)
except RuntimeError as err:
    print(err)
z = copy.deepcopy(x.detach())
print(z.requires_grad, torch.equal(z, x.detach()))
g.sum().backward()
print(x.grad)
