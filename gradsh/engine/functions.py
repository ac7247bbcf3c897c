"""Every operation as a named Function: forward and backward side by side, one class per op.

Each class carries PyTorch's grad_fn name and saves what PyTorch's derivatives.yaml entry saves
(and only when the input it serves needs a gradient), so `grad_fn`, `next_functions` and "can
this graph be backpropagated twice?" all match PyTorch. Backward formulas read like the yaml:
`grad` is the incoming gradient, `F` supplies the few functions operators cannot express, and
the same formula runs on plain arrays or, under create_graph, on differentiable Tensors.

The engine sums broadcast gradients back to each input's shape and casts them to its dtype
(PyTorch's validate_outputs), so binary ops return the broadcast-shaped gradient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.tensor import (
    RESULT,
    Array,
    ArrayOps,
    Function,
    Shape,
    Tensor,
    TensorOps,
)


def xp_of(array: Array) -> Any:
    """The array module of `array`: numpy, or cupy for arrays on the GPU."""
    if isinstance(array, np.ndarray):
        return np
    import importlib

    return importlib.import_module("cupy").get_array_module(array)


def operand(t: Tensor) -> Any:
    """The value a kernel computes with: wrapped Python numbers stay Python numbers, so NumPy
    treats them as weak scalars, like PyTorch's wrapped numbers."""
    if t._wrapped:
        return t._data.item()
    return t._data


def result_dtype(*tensors: Tensor) -> DType:
    """torch.result_type over tensor operands, wrapped numbers ranked lowest."""
    groups: list[tuple[DType, int]] = []
    scalars: list[bool | int | float] = []
    for t in tensors:
        if t._wrapped:
            scalars.append(t._data.item())
        else:
            groups.append((t.dtype, t._data.ndim))
    return dtypes.result_type(groups, scalars)


def float_result_dtype(*tensors: Tensor) -> DType:
    """Like result_dtype, but integers and bools promote to the default float (true division,
    exp, sqrt ...)."""
    dtype = result_dtype(*tensors)
    return dtype if dtype.is_floating_point else dtypes.default_float()


# =============================================================================================
# Binary arithmetic
# =============================================================================================


class AddBackward0(Function):
    name = "AddBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        self.alpha = alpha
        dtype = result_dtype(a, b)
        y = operand(b) if alpha == 1 else operand(b) * alpha
        return xp_of(a._data).add(operand(a), y, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (grad if a else None, (grad if self.alpha == 1 else grad * self.alpha) if b else None)


class SubBackward0(Function):
    name = "SubBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        self.alpha = alpha
        dtype = result_dtype(a, b)
        y = operand(b) if alpha == 1 else operand(b) * alpha
        return xp_of(a._data).subtract(operand(a), y, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (grad if a else None, (-grad if self.alpha == 1 else -grad * self.alpha) if b else None)


class RsubBackward1(Function):
    """`number - tensor`: PyTorch's rsub with a Scalar `other`, one input."""

    name = "RsubBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        self.alpha = alpha
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        x = operand(a) if alpha == 1 else operand(a) * alpha
        return xp_of(a._data).subtract(other, x, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad if self.alpha == 1 else -grad * self.alpha,)


class MulBackward0(Function):
    name = "MulBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("other", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        return xp_of(a._data).multiply(operand(a), operand(b), dtype=result_dtype(a, b).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            grad * self.saved("other", F) if a else None,
            grad * self.saved("self", F) if b else None,
        )


class DivBackward0(Function):
    name = "DivBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0] or self.needs_input_grad[1]:
            self.save("other", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        dtype = float_result_dtype(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return xp_of(a._data).true_divide(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        other = self.saved("other", F)
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = grad / other if a else None
            gb = -grad * self.saved("self", F) / (other * other) if b else None
        return ga, gb


class NegBackward0(Function):
    name = "NegBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            from gradsh.engine.exceptions import TorchRuntimeError

            raise TorchRuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return xp_of(a._data).negative(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad,)


class PowBackward0(Function):
    """`tensor ** number`: the exponent is a Scalar, not an input."""

    name = "PowBackward0"

    def forward(self, a: Tensor, exponent: float | int) -> Array:
        self.exponent = exponent
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [exponent])
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return xp_of(a._data).power(operand(a), exponent, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # pow_backward: grad * exponent * self ** (exponent - 1), and 0 where exponent == 0
        p = self.exponent
        if p == 0:
            return (grad * 0,)
        x = self.saved("self", F)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return (grad * (p * x ** (p - 1)),)


class PowBackward1(Function):
    """`tensor ** tensor`."""

    name = "PowBackward1"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0] or self.needs_input_grad[1]:
            self.save("self", a)
            self.save("exponent", b)
        if self.needs_input_grad[1]:
            self.save("result", RESULT)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return xp_of(a._data).power(operand(a), operand(b), dtype=result_dtype(a, b).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x = self.saved("self", F)
        p = self.saved("exponent", F)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ga = F.where(p == 0.0, 0.0, grad * (p * x ** (p - 1))) if a else None
            gb = None
            if b:
                result = self.saved("result", F)
                # where(self == 0 & exponent >= 0, 0, grad * result * log(self))
                gb = F.where((x == 0.0) & (p >= 0), 0.0, grad * (result * F.log(x)))
        return ga, gb


class PowBackward2(Function):
    """`number ** tensor`."""

    name = "PowBackward2"

    def forward(self, exponent: Tensor, base: float | int) -> Array:
        self.base = base
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        dtype = dtypes.result_type([(exponent.dtype, exponent._data.ndim)], [base])
        with np.errstate(over="ignore", invalid="ignore"):
            return xp_of(exponent._data).power(base, operand(exponent), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        if self.base == 0:
            return (F.where(result == 0, 0.0, grad * result * float("-inf")),)
        return (grad * (result * float(np.log(self.base))),)


# =============================================================================================
# Unary element-wise
# =============================================================================================


class ExpBackward0(Function):
    name = "ExpBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        with np.errstate(over="ignore"):
            return xp_of(a._data).exp(a._data, dtype=float_result_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * self.saved("result", F),)


class LogBackward0(Function):
    name = "LogBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return xp_of(a._data).log(a._data, dtype=float_result_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with np.errstate(divide="ignore", invalid="ignore"):
            return (grad / self.saved("self", F),)


class ReciprocalBackward0(Function):
    name = "ReciprocalBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        with np.errstate(divide="ignore"):
            return xp_of(a._data).reciprocal(a._data, dtype=float_result_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        return (-grad * (result * result),)


# =============================================================================================
# Reductions
# =============================================================================================


def _sum_dtype(a: Tensor) -> DType:
    # Integer and bool sums accumulate in int64, as PyTorch's sum does.
    return a.dtype if a.dtype.is_floating_point else dtypes.int64


class SumBackward0(Function):
    name = "SumBackward0"

    def forward(self, a: Tensor) -> Array:
        self.self_sizes = a.shape
        return a._data.sum(dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(grad, self.self_sizes),)


class SumBackward1(Function):
    name = "SumBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        return a._data.sum(axis=dim, keepdims=keepdim, dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if not self.keepdim:
            grad = F.unsqueeze_dims(grad, self.dim, len(self.self_sizes))
        return (F.expand(grad, self.self_sizes),)


class MeanBackward0(Function):
    name = "MeanBackward0"

    def forward(self, a: Tensor) -> Array:
        self.self_sizes = a.shape
        self.numel = a.numel()
        return a._data.mean(dtype=a.dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(grad / self.numel, self.self_sizes),)


class MeanBackward1(Function):
    name = "MeanBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        return a._data.mean(axis=dim, keepdims=keepdim, dtype=a.dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        count = 1
        for d in self.dim:
            count *= self.self_sizes[d]
        if not self.keepdim:
            grad = F.unsqueeze_dims(grad, self.dim, len(self.self_sizes))
        return (F.expand(grad / count, self.self_sizes),)


# =============================================================================================
# Views
# =============================================================================================


class ViewBackward0(Function):
    name = "ViewBackward0"
    is_view = True

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return a._data.reshape(shape)

    def view_fn(self, array: Array) -> Array:
        return array.reshape(self.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class UnsafeViewBackward0(Function):
    """reshape of a tensor that cannot be viewed: a copy (CloneBackward0) then this."""

    name = "UnsafeViewBackward0"

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        return a._data.reshape(shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class UnsqueezeBackward0(Function):
    name = "UnsqueezeBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        return xp_of(a._data).expand_dims(a._data, dim)

    def view_fn(self, array: Array) -> Array:
        return xp_of(array).expand_dims(array, self.dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, grad.shape[: self.dim] + grad.shape[self.dim + 1 :]),)


class SelectBackward0(Function):
    name = "SelectBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, index: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.index = index
        return a._data[self._key()]

    def _key(self) -> tuple[Any, ...]:
        return (slice(None),) * self.dim + (self.index,)

    def view_fn(self, array: Array) -> Array:
        return array[self._key()]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.scatter_view(grad, self.self_sizes, self.view_fn),)


class SliceBackward0(Function):
    name = "SliceBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, start: int, end: int, step: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.start, self.end, self.step = start, end, step
        return a._data[self._key()]

    def _key(self) -> tuple[Any, ...]:
        return (slice(None),) * self.dim + (slice(self.start, self.end, self.step),)

    def view_fn(self, array: Array) -> Array:
        return array[self._key()]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.scatter_view(grad, self.self_sizes, self.view_fn),)


class TBackward0(Function):
    name = "TBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return a._data.T

    def view_fn(self, array: Array) -> Array:
        return array.T

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.t(grad),)


class ExpandBackward0(Function):
    name = "ExpandBackward0"
    is_view = True

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return xp_of(a._data).broadcast_to(a._data, shape)

    def view_fn(self, array: Array) -> Array:
        return xp_of(array).broadcast_to(array, self.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.sum_to(grad, self.self_sizes),)


# =============================================================================================
# Linear algebra
# =============================================================================================


class MmBackward0(Function):
    name = "MmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        return xp_of(a._data).matmul(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            grad @ F.t(self.saved("mat2", F)) if a else None,
            F.t(self.saved("self", F)) @ grad if b else None,
        )


# =============================================================================================
# Copies and casts
# =============================================================================================


class CloneBackward0(Function):
    name = "CloneBackward0"

    def forward(self, a: Tensor) -> Array:
        return a._data.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class ToCopyBackward0(Function):
    """A dtype or device change: the gradient goes back in the input's dtype and device."""

    name = "ToCopyBackward0"

    def forward(self, a: Tensor, dtype: DType, device: str) -> Array:
        self.output_device = device
        return a._data.astype(dtype.np, copy=True)

    def common_device(self, inputs: Any) -> str:  # the device is a parameter, not inferred
        return inputs[0].device

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class ZeroBackward0(Function):
    name = "ZeroBackward0"

    def forward(self, a: Tensor) -> Array:
        return xp_of(a._data).zeros_like(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * 0,)


class FillBackward0(Function):
    name = "FillBackward0"

    def forward(self, a: Tensor, value: Any) -> Array:
        v = value._data if isinstance(value, Tensor) else value
        return xp_of(a._data).full_like(a._data, v)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * 0,)


# =============================================================================================
# The gradient namespaces (what formulas call besides operators)
# =============================================================================================


def _array_unsqueeze_dims(grad: Array, dims: tuple[int, ...], ndim: int) -> Array:
    for d in sorted(d % ndim for d in dims):
        grad = xp_of(grad).expand_dims(grad, d)
    return grad


def _array_sum_to(grad: Array, shape: Shape) -> Array:
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and grad.shape[i + lead] != 1
    )
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


def _array_scatter_view(grad: Array, shape: Shape, view_fn: Callable[[Array], Array]) -> Array:
    result = xp_of(grad).zeros(shape, dtype=grad.dtype)
    view_fn(result)[...] = grad
    return result


def _array_view_split(grad: Array, view_fn: Callable[[Array], Array]) -> tuple[Array, Array]:
    result = grad.copy()
    return result, view_fn(result).copy()


def _array_view_fill(result: Array, view_fn: Callable[[Array], Array], part: Array | None) -> Array:
    view_fn(result)[...] = 0 if part is None else part
    return result


ArrayOps.expand = staticmethod(lambda g, shape: xp_of(g).broadcast_to(g, shape))  # type: ignore
ArrayOps.reshape = staticmethod(lambda g, shape: g.reshape(shape))  # type: ignore
ArrayOps.t = staticmethod(lambda g: g.T)  # type: ignore
ArrayOps.log = staticmethod(lambda g: xp_of(g).log(g))  # type: ignore
ArrayOps.where = staticmethod(lambda c, a, b: xp_of(c).where(c, a, b))  # type: ignore
ArrayOps.cast = staticmethod(lambda g, dtype: g.astype(dtype.np))  # type: ignore
ArrayOps.sum_to = staticmethod(_array_sum_to)  # type: ignore
ArrayOps.unsqueeze_dims = staticmethod(_array_unsqueeze_dims)  # type: ignore
ArrayOps.scatter_view = staticmethod(_array_scatter_view)  # type: ignore
ArrayOps.view_scatter = staticmethod(  # type: ignore
    lambda g, shape, view_fn: _array_scatter_view(g, shape, view_fn)
)
ArrayOps.view_split = staticmethod(_array_view_split)  # type: ignore
ArrayOps.view_fill = staticmethod(_array_view_fill)  # type: ignore


def _install_tensor_ops() -> None:
    """TensorOps: the same helpers built from differentiable operations (create_graph)."""
    from gradsh.engine import ops

    def sum_to(g: Tensor, shape: Shape) -> Tensor:
        lead = g.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(
            i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1
        )
        if dims:
            g = ops.sum(g, dim=dims, keepdim=True)
        return ops.reshape(g, shape) if g.shape != shape else g

    def unsqueeze_dims(g: Tensor, dims: tuple[int, ...], ndim: int) -> Tensor:
        for d in sorted(d % ndim for d in dims):
            g = ops.unsqueeze(g, d)
        return g

    def detached(fn: Callable[..., Array]) -> Callable[..., Tensor]:
        # NOTE: view scatters are not differentiable twice in gradsh yet: the values are right,
        # the result simply has no grad_fn.
        def run(g: Tensor, *args: Any) -> Any:
            out = fn(g._data, *args)
            if isinstance(out, tuple):
                return tuple(Tensor._make(o, g.device) for o in out)
            return Tensor._make(out, g.device)

        return run

    def view_fill(result: Tensor, view_fn: Callable[[Array], Array], part: Tensor | None) -> Tensor:
        data = result._data.copy()
        view_fn(data)[...] = 0 if part is None else part._data
        return Tensor._make(data, result.device)

    TensorOps.expand = staticmethod(ops.expand)  # type: ignore
    TensorOps.reshape = staticmethod(ops.reshape)  # type: ignore
    TensorOps.t = staticmethod(ops.t)  # type: ignore
    TensorOps.log = staticmethod(ops.log)  # type: ignore
    TensorOps.where = staticmethod(lambda *a: ops.where(*a))  # type: ignore
    TensorOps.cast = staticmethod(lambda g, dtype: ops.to(g, dtype))  # type: ignore
    TensorOps.sum_to = staticmethod(sum_to)  # type: ignore
    TensorOps.unsqueeze_dims = staticmethod(unsqueeze_dims)  # type: ignore
    TensorOps.scatter_view = staticmethod(detached(_array_scatter_view))  # type: ignore
    TensorOps.view_scatter = staticmethod(detached(_array_scatter_view))  # type: ignore
    TensorOps.view_split = staticmethod(detached(_array_view_split))  # type: ignore
    TensorOps.view_fill = staticmethod(view_fill)  # type: ignore
