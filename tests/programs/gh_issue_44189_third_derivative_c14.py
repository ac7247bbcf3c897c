# Corpus program modelled on the PyTorch issue "Option to set grads of unused inputs to zeros
# instead of None": the third derivative of a * x w.r.t. x, where the second derivative no
# longer depends on x (an error, then None with allow_unused=True), next to cos(a * x):
# https://github.com/pytorch/pytorch/issues/44189
# Changed: the error is caught and printed; the wish, materialize_grads=True (added by
# pytorch#97015), is shown too. Written for gradsh; float64 as in the issue.
import torch


def get_3rd_derx(a, x, func, **kw):
    y = func(a, x)
    dydx = torch.autograd.grad(y, x, create_graph=True)
    d2ydx2 = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True, **kw)
    print("d2:", d2ydx2)
    d3ydx3 = torch.autograd.grad(d2ydx2, x, allow_unused=True, **kw)
    return d3ydx3


def func1(a, x):
    return a * x


def func2(a, x):
    return torch.cos(a * x)


dtype = torch.float64
a = torch.tensor(0.3, dtype=dtype).requires_grad_()
x = torch.tensor(1.0, dtype=dtype).requires_grad_()
try:
    d3func1 = get_3rd_derx(a, x, func1)
    print(d3func1)
except (RuntimeError, AssertionError) as e:  # 2.13: the second derivative is (None,)
    print(type(e).__name__, e)
d3func2 = get_3rd_derx(a, x, func2)
print(d3func2)
print(get_3rd_derx(a, x, func1, materialize_grads=True))
print(get_3rd_derx(a, x, func2, materialize_grads=True))

y = func2(a, x)
dydx, = torch.autograd.grad(y, x, create_graph=True)
dyda, = torch.autograd.grad(dydx, a, create_graph=True)
print(dydx, dyda)
print(torch.autograd.grad(dyda, (a, x)))
