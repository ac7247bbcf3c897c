# Corpus program modelled on pytorch/pytorch PR #123110 ("Add register_autograd to register
# backward formulas for custom ops", https://github.com/pytorch/pytorch/pull/123110: its
# numpy_sin docstring example) and issue #168393's torch.library docs example
# (https://github.com/pytorch/pytorch/issues/168393): a NumPy-backed sin as a custom op, its
# fake kernel, setup_context saving inputs, the backward formula, gradcheck, torch.ops
# access, a multi-input op with a float argument, and a mutating op.
# Changed: a unique namespace, small inputs with a seed; float64 for gradcheck.
import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("c20lib::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    x_np = x.cpu().numpy()
    y_np = np.sin(x_np)
    return torch.from_numpy(y_np).to(device=x.device)


@numpy_sin.register_fake
def _(x):
    return torch.empty_like(x)


def setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * x.cos()


numpy_sin.register_autograd(backward, setup_context=setup_context)

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = numpy_sin(x)
print(y, torch.allclose(y, x.sin()))
print(type(y.grad_fn).__name__ if y.grad_fn is not None else None)
y.sum().backward()
print(x.grad, torch.allclose(x.grad, x.detach().cos()))
print(torch.ops.c20lib.numpy_sin(torch.tensor([0.0, 1.0])))
x64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(numpy_sin, (x64,)))
with torch.no_grad():
    print(numpy_sin(x).requires_grad)


@torch.library.custom_op("c20lib::scale_add", mutates_args=())
def scale_add(x: Tensor, y: Tensor, alpha: float) -> Tensor:
    return x * alpha + y


def sa_setup(ctx, inputs, output):
    ctx.alpha = inputs[2]


def sa_backward(ctx, grad):
    return grad * ctx.alpha, grad, None


scale_add.register_autograd(sa_backward, setup_context=sa_setup)
a = torch.randn(2, 2, requires_grad=True)
b = torch.randn(2, 2, requires_grad=True)
out = scale_add(a, b, 3.0)
(out * torch.arange(4.).view(2, 2)).sum().backward()
print(out)
print(a.grad, b.grad)


@torch.library.custom_op("c20lib::add_one_", mutates_args=("x",))
def add_one_(x: Tensor) -> None:
    x.add_(1)


t = torch.zeros(3)
add_one_(t)
print(t)
