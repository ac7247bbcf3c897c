"""Every operation as a named Function: forward and backward side by side, one class per op.

Each class carries PyTorch's grad_fn name and saves what PyTorch's derivatives.yaml entry saves
(and only when the input it serves needs a gradient), so `grad_fn`, `next_functions` and "can
this graph be backpropagated twice?" all match PyTorch. Backward formulas read like the yaml:
`grad` is the incoming gradient, `F` supplies the few functions operators cannot express, and
the same formula runs on plain arrays or, under create_graph, on differentiable Tensors.

The engine sums broadcast gradients back to each input's shape and casts them to its dtype
(PyTorch's validate_outputs), so binary ops return the broadcast-shaped gradient.

Families, in order: helpers, binary arithmetic, unary element-wise, clamp/maximum/where,
reductions, views, indexing, joining, linear algebra, nn, copies and fills, the fused backward
nodes that only appear in higher-order graphs, and the two gradient namespaces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import backend, dtypes, limits, threads
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
)
from gradsh.engine.tensor import (
    RESULT,
    Array,
    ArrayOps,
    Function,
    Shape,
    Tensor,
    TensorOps,
    _as_array,
)
from gradsh.engine.threads import elementwise

# =============================================================================================
# Helpers
# =============================================================================================


def xp_of(array: Array) -> Any:
    """The array module of `array`: numpy, or cupy for arrays on the GPU."""
    if isinstance(array, (np.ndarray, np.generic)):
        return np
    return backend.array_module(array)


def xp_of_operands(*values: Any) -> Any:
    """The array module of an op whose operands may be Python numbers (`operand`)."""
    for value in values:
        if not isinstance(value, (bool, int, float)):
            return xp_of(value)
    return np


def operand(t: Tensor) -> Any:
    """The value a kernel computes with: wrapped Python numbers stay Python numbers, so NumPy
    treats them as weak scalars, like PyTorch's wrapped numbers."""
    if t._wrapped:
        return t._data.item()
    return t._data


def result_dtype(*tensors: Tensor) -> DType:
    """torch.result_type over tensor operands, wrapped numbers ranked lowest."""
    if len(tensors) == 2:
        # Fast paths for the common binary cases; the general rule below agrees with them.
        a, b = tensors
        if not a._wrapped:
            da = a._data.dtype
            if not b._wrapped:
                if da == b._data.dtype:
                    return a.dtype
            elif da.kind == "f" or (da.kind in "iu" and b._data.dtype.kind in "iub") or (
                da.kind == "b" and b._data.dtype.kind == "b"
            ):
                return a.dtype
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


def infer_size(a: Shape, b: Shape) -> Shape:
    """PyTorch's infer_size: the broadcast of two shapes, with its error text."""
    ndim = max(len(a), len(b))
    out = []
    for i in reversed(range(ndim)):  # PyTorch checks (and reports) from the last dimension
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if len(a) - 1 - offset >= 0 else 1
        size_b = b[len(b) - 1 - offset] if len(b) - 1 - offset >= 0 else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise TorchRuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {i}"
            )
        out.append(size_b if size_a == 1 else size_a)
    return tuple(reversed(out))


def broadcast_shapes(*tensors: Tensor) -> Shape:
    """The shape element-wise operands broadcast to (TensorIterator's compute_shape).

    A broadcast can ask for far more memory than its operands hold ((n, 1) + (1, n)), so a
    result shape that differs from every operand's is checked against gradsh's memory limit.
    """
    shape: Shape = tensors[0]._data.shape
    grew = False
    for t in tensors[1:]:
        other = t._data.shape
        if other != shape:
            if not other:
                continue  # a 0-d operand broadcasts to anything
            new = other if not shape else infer_size(shape, other)
            grew = grew or (new != shape and new != other)
            shape = new
    if grew:
        limits.check(shape, max(t._data.dtype.itemsize for t in tensors))
    return shape


def not_implemented_for(kernel: str, dtype: DType) -> TorchNotImplementedError:
    return TorchNotImplementedError(f'"{kernel}" not implemented for \'{dtype.short}\'')


# PyTorch never warns about overflow, division by zero or invalid values: NumPy must not either.
# Set once for the engine (entering np.errstate on every op would cost more than the op).
np.seterr(all="ignore")
_NO_ERRSTATE = nullcontext()


def _quiet() -> Any:
    """Where NumPy might warn: a no-op, errors are ignored engine-wide (see np.seterr above)."""
    return _NO_ERRSTATE


def _times(x: Any, y: Any) -> Any:
    """`x * y` for gradient formulas: on every core when both are large NumPy arrays."""
    if x.__class__ is np.ndarray and y.__class__ is np.ndarray:
        return elementwise(np.multiply, x, y)
    return x * y


def _scalar_op(x: Any, ufunc: str, other: Any, dtype: DType) -> Array:
    """`x (op) scalar` in `dtype` (add, subtract, multiply with a Python number)."""
    if x.__class__ is np.ndarray:
        return elementwise(getattr(np, ufunc), x, other, dtype=dtype.np)
    return getattr(xp_of(x), ufunc)(x, other, dtype=dtype.np)


# =============================================================================================
# Binary arithmetic
# =============================================================================================


def fma64(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c in float64 rounded once (NumPy has no fma; random.py's exact emulation)."""
    from gradsh.engine.random import _fma64

    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    flat = [np.broadcast_to(np.asarray(v, dtype=np.float64), shape).reshape(-1) for v in (a, b, c)]
    return _fma64(*flat).reshape(shape)


def _add_scaled(x: Any, y: Any, alpha: float | int, dtype: DType, subtract: bool = False) -> Array:
    """x + alpha * y (or x - alpha * y) as PyTorch's CPU kernel computes it: one fused
    multiply-add in the op's math type, so the result rounds once."""
    if alpha == 1 and isinstance(x, np.ndarray):
        op = np.subtract if subtract else np.add
        if x.size < threads.MIN_ELEMENTS and (y.__class__ is not np.ndarray
                                              or y.size < threads.MIN_ELEMENTS):
            return op(x, y, dtype=dtype.np)  # small: one call, without the threads' checks
        return elementwise(op, x, y, dtype=dtype.np)
    xp = xp_of_operands(x, y)
    if dtype is dtypes.bool_:  # bools: x or (alpha and y)
        return xp.logical_or(x, xp.logical_and(y, bool(alpha)))
    if alpha == 1 or dtype.category < 2:
        scaled = y if alpha == 1 else y * alpha
        op = xp.subtract if subtract else xp.add
        with _quiet():
            return op(x, scaled, dtype=dtype.np)
    a = -alpha if subtract else alpha
    with _quiet():
        if xp is not np:
            # NOTE: on the GPU the float64 sum rounds twice, as a CUDA kernel that does not
            # fuse would; float32 below is exact either way.
            if dtype is dtypes.float64:
                return xp.add(x, xp.multiply(y, float(a)), dtype=dtype.np)
            alpha32 = float(np.float32(a))
            exact = xp.asarray(x, dtype=np.float64) + alpha32 * xp.asarray(y, dtype=np.float64)
            return exact.astype(dtype.np)
        if dtype is dtypes.float64:
            return fma64(y, float(a), x)
        # NOTE: float32 operands multiply exactly in float64, so one rounding to float32
        # matches the kernel's fmadd (opmath float, alpha rounded to float first).
        alpha32 = float(np.float32(a))
        exact = np.asarray(x, dtype=np.float64) + alpha32 * np.asarray(y, dtype=np.float64)
        return exact.astype(dtype.np)


class AddBackward0(Function):
    name = "AddBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        x, y = a._data, b._data
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        self.alpha = alpha
        return _add_scaled(x if not a._wrapped else x.item(), y if not b._wrapped else y.item(),
                           alpha, result_dtype(a, b))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        scaled = grad if self.alpha == 1 else grad * self.alpha
        return (grad if a else None, scaled if b else None)


class AddBackward1(Function):
    """add(Tensor, Scalar): the overload C++ formulas use (`1 + result.pow(2)`), one input."""

    name = "AddBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        return _scalar_op(a._data, "add", other * alpha, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class SubBackward0(Function):
    name = "SubBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        x, y = a._data, b._data
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        self.alpha = alpha
        return _add_scaled(x if not a._wrapped else x.item(), y if not b._wrapped else y.item(),
                           alpha, result_dtype(a, b), subtract=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        scaled = -grad if self.alpha == 1 else -grad * self.alpha
        return (grad if a else None, scaled if b else None)


class SubBackward1(Function):
    """sub(Tensor, Scalar), one input."""

    name = "SubBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        return _scalar_op(a._data, "subtract", other * alpha, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class RsubBackward1(Function):
    """`number - tensor`: PyTorch's rsub with a Scalar `other`, one input."""

    name = "RsubBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        self.alpha = alpha
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        x = operand(a) if alpha == 1 else operand(a) * alpha
        with _quiet():
            return xp_of(a._data).subtract(other, x, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad if self.alpha == 1 else -grad * self.alpha,)


class MulBackward0(Function):
    name = "MulBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        x, y = a._data, b._data
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        need_a, need_b = self.needs_input_grad
        if need_a:
            self.save("other", b)
        if need_b:
            self.save("self", a)
        xp = np if x.__class__ is np.ndarray else xp_of(x)
        if xp is np:
            left, right = x if not a._wrapped else x.item(), y if not b._wrapped else y.item()
            if x.size < threads.MIN_ELEMENTS and y.size < threads.MIN_ELEMENTS:
                return np.multiply(left, right, dtype=result_dtype(a, b).np)
            return elementwise(np.multiply, left, right, dtype=result_dtype(a, b).np)
        return xp.multiply(x if not a._wrapped else x.item(), y if not b._wrapped else y.item(),
                           dtype=result_dtype(a, b).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            _times(grad, self.saved("other", F)) if a else None,
            _times(grad, self.saved("self", F)) if b else None,
        )


class MulBackward1(Function):
    """mul(Tensor, Scalar): saves nothing but the number."""

    name = "MulBackward1"

    def forward(self, a: Tensor, other: float | int) -> Array:
        self.other = other
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        return _scalar_op(a._data, "multiply", other, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * self.other,)


class DivBackward0(Function):
    name = "DivBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        if self.needs_input_grad[0] or self.needs_input_grad[1]:
            self.save("other", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        dtype = float_result_dtype(a, b)
        with _quiet():
            return xp_of(a._data).true_divide(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        other = self.saved("other", F)
        with _quiet():
            ga = grad / other if a else None
            gb = -grad * ((self.saved("self", F) / other) / other) if b else None
        return ga, gb


class DivBackward1(Function):
    """div(Tensor, Scalar), one input."""

    name = "DivBackward1"

    def forward(self, a: Tensor, other: float | int) -> Array:
        self.other = other
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        if not dtype.is_floating_point:
            dtype = dtypes.default_float()
        with _quiet():
            return xp_of(a._data).true_divide(a._data, other, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad / self.other,)


def _check_integer_division(a: Tensor, b: Tensor, dtype: DType) -> None:
    if dtype.category < 2:
        divisor = operand(b)
        if (isinstance(divisor, (int, float)) and divisor == 0) or (
            not isinstance(divisor, (int, float)) and bool((divisor == 0).any())
        ):
            raise TorchRuntimeError("ZeroDivisionError")


class FloorDivideNotImplemented(Function):
    """floor_divide has no derivative: PyTorch records a node that raises when reached, with
    an edge for each operand that requires grad (and none for the others). The inputs are those
    operands; `left` and `right` are the operands themselves."""

    name = "NotImplemented"

    def forward(self, *inputs: Tensor, left: Tensor, right: Tensor) -> Array:
        broadcast_shapes(left, right)
        dtype = result_dtype(left, right)
        if dtype is dtypes.bool_:
            raise not_implemented_for("div_floor_cpu", dtype)
        _check_integer_division(left, right, dtype)
        with _quiet():
            return np.floor_divide(operand(left), operand(right), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::floor_divide is not implemented")


def _scalar_division(a: Tensor, other: float | int, ufunc: str) -> Array:
    dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
    if dtype is dtypes.bool_:
        raise not_implemented_for(f"{ufunc}_cpu", dtype)
    if dtype.category < 2 and other == 0:
        raise TorchRuntimeError("ZeroDivisionError")
    with _quiet():
        return getattr(xp_of(a._data), ufunc)(a._data, other, dtype=dtype.np)


class RemainderBackward0(Function):
    """remainder(Tensor, Scalar): the gradient passes unchanged."""

    name = "RemainderBackward0"

    def forward(self, a: Tensor, other: float | int) -> Array:
        return _scalar_division(a, other, "remainder")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class RemainderBackward1(Function):
    """remainder(Tensor, Tensor)."""

    name = "RemainderBackward1"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        if self.needs_input_grad[1]:
            self.save("self", a)
            self.save("other", b)
        dtype = result_dtype(a, b)
        if dtype is dtypes.bool_:
            raise not_implemented_for("remainder_cpu", dtype)
        _check_integer_division(a, b, dtype)
        with _quiet():
            return xp_of(a._data).remainder(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        gb = None
        if b:
            x, y = self.saved("self", F), self.saved("other", F)
            with _quiet():
                gb = -grad * F.floor_divide(x, y)
        return (grad if a else None, gb)


class FmodBackward0(Function):
    """fmod(Tensor, Scalar)."""

    name = "FmodBackward0"

    def forward(self, a: Tensor, other: float | int) -> Array:
        return _scalar_division(a, other, "fmod")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class FmodBackward1(Function):
    """fmod(Tensor, Tensor): other's gradient is -grad * trunc(self / other)."""

    name = "FmodBackward1"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        if self.needs_input_grad[1]:
            self.save("self", a)
            self.save("other", b)
        dtype = result_dtype(a, b)
        if dtype is dtypes.bool_:
            raise not_implemented_for("fmod_cpu", dtype)
        _check_integer_division(a, b, dtype)
        with _quiet():
            return xp_of(a._data).fmod(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        gb = None
        if b:
            x, y = self.saved("self", F), self.saved("other", F)
            with _quiet():
                gb = -grad * F.trunc_divide(x, y)
        return (grad if a else None, gb)


class NegBackward0(Function):
    name = "NegBackward0"

    def forward(self, a: Tensor) -> Array:
        if a._data.dtype.kind == "b":
            raise TorchRuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return xp_of(a._data).negative(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad,)


def _check_integer_power(a: Tensor, exponent: Any, dtype: DType) -> None:
    if dtype.category == 1 and isinstance(exponent, int) and exponent < 0:
        raise TorchRuntimeError("Integers to negative integer powers are not allowed.")


class PowBackward0(Function):
    """`tensor ** number`: the exponent is a Scalar, not an input."""

    name = "PowBackward0"

    def forward(self, a: Tensor, exponent: float | int) -> Array:
        self.exponent = exponent
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [exponent])
        if dtype is dtypes.bool_:  # x ** True is x, x ** False is all True
            return a._data.copy() if exponent else xp_of(a._data).ones_like(a._data)
        _check_integer_power(a, exponent, dtype)
        with _quiet():
            return xp_of(a._data).power(operand(a), exponent, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # pow_backward: grad * (exponent * self.pow(exponent - 1)), zeros where exponent == 0
        p = self.exponent
        if p == 0:
            return (F.zeros_like(grad),)
        x = self.saved("self", F)
        with _quiet():
            return (grad * (p * x ** (p - 1)),)


class PowBackward1(Function):
    """`tensor ** tensor`."""

    name = "PowBackward1"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        self.save("self", a)
        self.save("exponent", b)
        self.save("result", RESULT)
        dtype = result_dtype(a, b)
        if dtype is dtypes.bool_:
            raise not_implemented_for("pow", dtype)
        with _quiet():
            if dtype.category == 1:
                exponents = operand(b)
                xp = xp_of_operands(operand(a), exponents)
                if bool(xp.any(xp.asarray(exponents) < 0)):
                    # PyTorch's integer pow: x ** negative is 1 for x == 1, -1 ** odd ...
                    base = xp.asarray(operand(a), dtype=dtype.np)
                    e = xp.asarray(exponents)
                    out = xp.zeros(np.broadcast_shapes(base.shape, e.shape), dtype=dtype.np)
                    e = xp.broadcast_to(e, out.shape)
                    bb = xp.broadcast_to(base, out.shape)
                    nonneg = e >= 0
                    out[nonneg] = xp.power(bb[nonneg], e[nonneg])
                    neg = ~nonneg
                    out[neg & (bb == 1)] = 1
                    out[neg & (bb == -1)] = xp.where(e[neg & (bb == -1)] % 2 == 0, 1, -1)
                    return out
            return xp_of(a._data).power(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x = self.saved("self", F)
        p = self.saved("exponent", F)
        if a and self._saved["exponent"].dtype is dtypes.bool_:
            # the formula computes `exponent - 1`, which PyTorch refuses for a bool tensor
            raise TorchRuntimeError(
                "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        with _quiet():
            ga = F.where(p == 0.0, 0.0, grad * (p * x ** (p - 1))) if a else None
            gb = None
            if b:
                result = self.saved("result", F)
                gb = grad * F.where((x == 0.0) & (p >= 0), 0.0, result * F.log(x))
        return ga, gb


class PowBackward2(Function):
    """`number ** tensor`."""

    name = "PowBackward2"

    def forward(self, exponent: Tensor, base: float | int) -> Array:
        self.base = base
        if self.needs_input_grad[0]:
            self.save("exponent", exponent)
            self.save("result", RESULT)
        dtype = dtypes.result_type([(exponent.dtype, exponent._data.ndim)], [base])
        if dtype is dtypes.bool_:
            raise not_implemented_for("pow", dtype)
        with _quiet():
            return xp_of(exponent._data).power(base, operand(exponent), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        with _quiet():
            if self.base == 0:
                p = self.saved("exponent", F)
                return (grad * F.where(p >= 0, 0.0, result * float("-inf")),)
            return (grad * (result * math.log(self.base)),)


# =============================================================================================
# Unary element-wise
# =============================================================================================


def _float_unary(a: Tensor, ufunc: str) -> Array:
    """A float-valued ufunc (exp, sin ...): integer inputs compute in the default float."""
    x = a._data
    if x.__class__ is np.ndarray:
        return elementwise(getattr(np, ufunc), x, dtype=float_result_dtype(a).np)
    return getattr(xp_of(x), ufunc)(x, dtype=float_result_dtype(a).np)


class ExpBackward0(Function):
    name = "ExpBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "exp")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_times(grad, self.saved("result", F)),)


class LogBackward0(Function):
    name = "LogBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / self.saved("self", F),)


class Log2Backward0(Function):
    name = "Log2Backward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log2")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / (self.saved("self", F) * math.log(2.0)),)


class Log10Backward0(Function):
    name = "Log10Backward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log10")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / (self.saved("self", F) * math.log(10.0)),)


class SinBackward0(Function):
    name = "SinBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "sin")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * F.cos(self.saved("self", F)),)


class CosBackward0(Function):
    name = "CosBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "cos")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * -F.sin(self.saved("self", F)),)


class TanBackward0(Function):
    name = "TanBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "tan")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        return (grad * (1 + result ** 2),)


class TanhBackward0(Function):
    name = "TanhBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "tanh")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.tanh_backward(grad, self.saved("result", F)),)


def _sigmoid_array(x: Array, dtype: DType) -> Array:
    xp = xp_of(x)
    with _quiet():
        x = x.astype(dtype.np, copy=False)
        return xp.reciprocal(xp.exp(-x) + x.dtype.type(1))


class SigmoidBackward0(Function):
    name = "SigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _sigmoid_array(a._data, float_result_dtype(a))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.sigmoid_backward(grad, self.saved("result", F)),)


class ReluBackward0(Function):
    name = "ReluBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            raise TorchRuntimeError("Boolean inputs not supported for relu")
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        xp = xp_of(a._data)
        # NOTE: `x < 0 ? 0 : x`, as PyTorch's clamp_min: NaN and -0.0 pass through unchanged.
        zero = a._data.dtype.type(0)
        return xp.where(a._data < zero, zero, a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: threshold_backward(grad, result, 0): the gradient at 0 is 0.
        return (F.threshold_backward(grad, self.saved("result", F), 0),)


class SqrtBackward0(Function):
    name = "SqrtBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "sqrt")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: at 0 this is grad / 0 = inf, as in PyTorch.
        with _quiet():
            return (grad / (2 * self.saved("result", F)),)


class RsqrtBackward0(Function):
    name = "RsqrtBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        with _quiet():
            x = a._data.astype(float_result_dtype(a).np, copy=False)
            return xp_of(x).reciprocal(xp_of(x).sqrt(x))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (-0.5 * grad * self.saved("result", F) ** 3,)


class AbsBackward0(Function):
    name = "AbsBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            raise not_implemented_for("abs_cpu", a.dtype)
        if self.needs_input_grad[0]:
            self.save("self", a)
        return xp_of(a._data).abs(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: sgn(0) = 0, so the gradient of abs at 0 is 0.
        return (grad * F.sgn(self.saved("self", F)),)


def _sign_array(x: Array) -> Array:
    """PyTorch's sign: (0 < x) - (x < 0), so sign(NaN) and sign(-0.0) are +0."""
    if x.dtype.kind == "b":
        return x.copy()
    zero = x.dtype.type(0)
    return ((x > zero).astype(x.dtype) - (x < zero).astype(x.dtype)).astype(x.dtype)


class SignBackward0(Function):
    name = "SignBackward0"

    def forward(self, a: Tensor) -> Array:
        return _sign_array(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class SgnBackward0(Function):
    """sgn: sign for real tensors; appears in abs's double backward."""

    name = "SgnBackward0"

    def forward(self, a: Tensor) -> Array:
        return _sign_array(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class ReciprocalBackward0(Function):
    name = "ReciprocalBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "reciprocal")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        return (-grad * (result * result),)


class _Rounding(Function):
    """floor/ceil/round/trunc: piecewise constant, zero gradient."""

    ufunc: ClassVar[str]

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            raise not_implemented_for(f"{self.name[:-len('Backward0')].lower()}_vml_cpu", a.dtype)
        if not a.dtype.is_floating_point:
            return a._data.copy()
        return getattr(xp_of(a._data), self.ufunc)(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FloorBackward0(_Rounding):
    name = "FloorBackward0"
    ufunc = "floor"


class CeilBackward0(_Rounding):
    name = "CeilBackward0"
    ufunc = "ceil"


class RoundBackward0(_Rounding):
    name = "RoundBackward0"
    ufunc = "rint"  # round half to even, as PyTorch's round


class TruncBackward0(_Rounding):
    name = "TruncBackward0"
    ufunc = "trunc"


# =============================================================================================
# Clamp, maximum/minimum, where
# =============================================================================================


def _clamp_dtype(a: Tensor, *bounds: Any) -> DType:
    scalars = [b for b in bounds if b is not None]
    return dtypes.result_type([(a.dtype, a._data.ndim)], scalars)


class ClampBackward1(Function):
    """clamp with number bounds (either may be None); saves self, min, max."""

    name = "ClampBackward1"

    def forward(self, a: Tensor, min: Any = None, max: Any = None) -> Array:  # noqa: A002
        self.min, self.max = min, max
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = _clamp_dtype(a, min, max)
        if dtype is dtypes.bool_:
            kernel = "clamp_scalar_cpu" if min is not None and max is not None else \
                "clamp_min_scalar_cpu" if min is not None else "clamp_max_scalar_cpu"
            raise not_implemented_for(kernel, dtype)
        x = a._data.astype(dtype.np, copy=False)
        xp = xp_of(x)
        with _quiet():
            # clamp(x, min, max) = min(max(x, min), max): with min > max every value is max.
            if min is not None:
                x = xp.where(x < min, dtype.np.type(min), x) if not math.isnan(min) else \
                    xp.full_like(x, math.nan)
            if max is not None:
                x = xp.where(x > max, dtype.np.type(max), x) if not math.isnan(max) else \
                    xp.full_like(x, math.nan)
        return x if x is not a._data else x.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: the bounds are inclusive: at x == min or x == max the gradient passes.
        x = self.saved("self", F)
        if self.min is not None and self.max is not None:
            mask = (x >= self.min) & (x <= self.max)
        elif self.min is not None:
            mask = x >= self.min
        else:
            mask = x <= self.max
        return (F.where(mask, grad, 0.0),)


class ClampMinBackward0(Function):
    name = "ClampMinBackward0"

    def forward(self, a: Tensor, min: Any) -> Array:  # noqa: A002
        self.min = min
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = _clamp_dtype(a, min)
        if dtype is dtypes.bool_:
            raise not_implemented_for("clamp_min_scalar_cpu", dtype)
        x = a._data.astype(dtype.np, copy=False)
        with _quiet():
            return xp_of(x).where(x < min, dtype.np.type(min), x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.where(self.saved("self", F) >= self.min, grad, 0.0),)


class ClampMaxBackward0(Function):
    name = "ClampMaxBackward0"

    def forward(self, a: Tensor, max: Any) -> Array:  # noqa: A002
        self.max = max
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = _clamp_dtype(a, max)
        if dtype is dtypes.bool_:
            raise not_implemented_for("clamp_max_scalar_cpu", dtype)
        x = a._data.astype(dtype.np, copy=False)
        with _quiet():
            return xp_of(x).where(x > max, dtype.np.type(max), x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.where(self.saved("self", F) <= self.max, grad, 0.0),)


class ClampBackward0(Function):
    """clamp with tensor bounds: inputs (self, min, max); a missing bound is an empty tensor
    placeholder (`has_min` / `has_max`)."""

    name = "ClampBackward0"

    def forward(self, a: Tensor, lo: Tensor, hi: Tensor, has_min: bool = True,
                has_max: bool = True) -> Array:
        self.has_min, self.has_max = has_min, has_max
        present = [a] + ([lo] if has_min else []) + ([hi] if has_max else [])
        broadcast_shapes(*present)
        self.save("self", a)
        if has_min:
            self.save("min", lo)
        if has_max:
            self.save("max", hi)
        dtype = result_dtype(*present)
        xp = xp_of(a._data)
        x = a._data.astype(dtype.np, copy=False)
        with _quiet():
            if has_min:
                x = xp.where(x < lo._data, lo._data.astype(dtype.np), x)
                x = xp.where(xp.isnan(lo._data), lo._data.astype(dtype.np), x)
            if has_max:
                x = xp.where(x > hi._data, hi._data.astype(dtype.np), x)
                x = xp.where(xp.isnan(hi._data), hi._data.astype(dtype.np), x)
        return x if x is not a._data else x.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_min, need_max = self.needs_input_grad
        x = self.saved("self", F)
        lo = self.saved("min", F) if self.has_min else None
        hi = self.saved("max", F) if self.has_max else None
        if lo is not None and hi is not None:
            inside = (x >= lo) & (x <= hi)
        elif lo is not None:
            inside = x >= lo
        else:
            inside = x <= hi
        g_self = F.where(inside, grad, 0.0) if need_self else None
        g_min = g_max = None
        if need_min and lo is not None:
            below = x < lo if hi is None else (x < lo) & (lo < hi)
            g_min = F.where(below, grad, 0.0)
        if need_max and hi is not None:
            # with min > max every value is max, so max takes the whole gradient there
            above = x > hi if lo is None else (x > hi) | (hi < lo)
            g_max = F.where(above, grad, 0.0)
        return g_self, g_min, g_max


def _extremum_array(x: Any, y: Any, dtype: DType, kind: str) -> Array:
    """maximum/minimum as PyTorch's kernels: NaN wins, and of two equal values (0.0 and -0.0)
    the first is kept."""
    xp = xp_of_operands(x, y)
    x = xp.asarray(x, dtype=dtype.np)
    y = xp.asarray(y, dtype=dtype.np)
    if dtype.category < 2:
        return (xp.maximum if kind == "max" else xp.minimum)(x, y)
    pick_y = (x < y) if kind == "max" else (x > y)
    return xp.where(pick_y | xp.isnan(y), y, x)


class MaximumBackward0(Function):
    name = "MaximumBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        return _extremum_array(operand(a), operand(b), result_dtype(a, b), "max")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: ties split the gradient in half, as PyTorch's maximum does.
        a, b = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        half = F.where(x == y, grad / 2, grad)
        return (
            F.masked_fill(half, x < y, 0.0) if a else None,
            F.masked_fill(half, x > y, 0.0) if b else None,
        )


class MinimumBackward0(Function):
    name = "MinimumBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        return _extremum_array(operand(a), operand(b), result_dtype(a, b), "min")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        half = F.where(x == y, grad / 2, grad)
        return (
            F.masked_fill(half, x > y, 0.0) if a else None,
            F.masked_fill(half, x < y, 0.0) if b else None,
        )


class WhereBackward0(Function):
    """where(condition, self, other): the condition is a non-differentiable input."""

    name = "WhereBackward0"

    def common_device(self, inputs: Any, params: Any) -> str:
        # PyTorch's where: the first device that is not the CPU, the condition's included
        return super().common_device((params["condition"], *inputs), params)

    def forward(self, a: Tensor, b: Tensor, condition: Tensor) -> Array:
        broadcast_shapes(condition, a, b)
        if condition.device != self.output_device:  # a 0-d CPU condition joins a CUDA where
            condition = Tensor._make(backend.to_device(condition._data, self.output_device),
                                     self.output_device)
        self.save("condition", condition)
        dtype = result_dtype(a, b)
        xp = xp_of(condition._data)
        x = operand(a)
        y = operand(b)
        x = xp.asarray(x, dtype=dtype.np)
        y = xp.asarray(y, dtype=dtype.np)
        return xp.where(condition._data, x, y)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        cond = self.saved("condition", F)
        return (
            F.where(cond, grad, 0.0) if a else None,
            F.where(cond, 0.0, grad) if b else None,
        )


class MaskedFillBackward1(Function):
    """masked_fill with a 0-d tensor value (edges: self, value); the mask is a parameter."""

    name = "MaskedFillBackward1"

    def forward(self, a: Tensor, value: Tensor, mask: Tensor) -> Array:
        self.save("mask", mask)
        out = a._data.copy()
        xp = xp_of(out)
        xp.copyto(out, value._data.astype(out.dtype), where=xp.broadcast_to(mask._data, out.shape))
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        mask = self.saved("mask", F)
        return (
            F.masked_fill(grad, mask, 0.0) if a else None,
            F.sum(F.where(mask, grad, 0.0), None, False) if b else None,
        )


class MaskedFillBackward0(Function):
    """masked_fill(self, mask, value): used by backward formulas (norm, std, maximum)."""

    name = "MaskedFillBackward0"

    def forward(self, a: Tensor, mask: Tensor, value: Any) -> Array:
        self.save("mask", mask)
        out = a._data.copy()
        xp_of(out).copyto(out, value, where=xp_of(out).broadcast_to(mask._data, out.shape))
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.masked_fill(grad, self.saved("mask", F), 0.0),)


# =============================================================================================
# Reductions
# =============================================================================================


# ---------------------------------------------------------------------------------------------
# PyTorch's float sum (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum), bit for bit
# ---------------------------------------------------------------------------------------------
#
# NOTE: NumPy sums pairwise, PyTorch in a cascade: rows of 4 (or of 4 vectors of 32 bytes, the
# width the sum kernel is dispatched at even on AVX512 machines) are added sequentially in
# chunks of 16, chunk sums in chunks of 16 again, over four levels. The last bits differ, which
# shows once a mean is scaled (the blog's `randn(3, 5).mean() * 20200910`). The emulation below
# covers C-contiguous float32/float64 inputs reduced over all, leading or trailing dimensions,
# up to PyTorch's single-thread size (32768 elements); anything else falls back to NumPy.

_SUM_VECTOR_BYTES = 32
_SUM_GRAIN = 32768


def _seq_sum(a: np.ndarray) -> np.ndarray:
    """Sequential adds along axis 0, from a zero accumulator (the kernel's `acc += x`)."""
    out = np.zeros(a.shape[1:], dtype=a.dtype)
    for k in range(a.shape[0]):
        out = out + a[k]
    return out


def _seq_sum_groups(a: np.ndarray, step: int) -> np.ndarray:
    """Sequential sums of consecutive groups of `step` along axis 0 (full groups only)."""
    groups = a.shape[0] // step
    out = np.zeros((groups,) + a.shape[1:], dtype=a.dtype)
    blocks = a[: groups * step].reshape((groups, step) + a.shape[1:])
    for k in range(step):
        out = out + blocks[:, k]
    return out


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """multi_row_sum over axis 0 of `rows` (size, nrows, *lanes): four levels of chunks."""
    size = rows.shape[0]
    ceil_log2 = 1 if size <= 2 else (size - 1).bit_length()
    step = 1 << max(4, ceil_log2 // 4)
    level0 = _seq_sum_groups(rows, step)  # each full chunk, summed into acc[0]
    level1 = _seq_sum_groups(level0, step)  # acc[1] flushed every `step` chunks
    level2 = _seq_sum_groups(level1, step)  # acc[2] flushed every `step` flushes
    acc0 = _seq_sum(rows[level0.shape[0] * step:])
    acc1 = _seq_sum(level0[level1.shape[0] * step:])
    acc2 = _seq_sum(level1[level2.shape[0] * step:])
    acc3 = _seq_sum(level2)
    return ((acc0 + acc1) + acc2) + acc3


def _row_sum(elements: np.ndarray) -> np.ndarray:
    """row_sum over axis 0: rows of 4 (the ILP factor), then the leftovers, then the 4 sums."""
    size = elements.shape[0]
    size_ilp = size // 4
    rows = elements[: size_ilp * 4].reshape((size_ilp, 4) + elements.shape[1:])
    partial = _multi_row_sum(rows)
    total = partial[0]
    for i in range(size_ilp * 4, size):
        total = total + elements[i]
    for k in range(1, 4):
        total = total + partial[k]
    return total


def _inner_sum(x: np.ndarray) -> np.ndarray:
    """Sum over the last axis of a C-contiguous (rows, n) array, one result per row."""
    n = x.shape[1]
    width = _SUM_VECTOR_BYTES // x.itemsize
    columns = np.ascontiguousarray(x.T)  # reduction index first, rows as a batch
    if n < width:
        return _row_sum(columns)
    vectors = n // width
    lanes = columns[: vectors * width].reshape((vectors, width) + columns.shape[1:])
    vector_sum = _row_sum(lanes)  # (width, rows)
    total = np.zeros(x.shape[0], dtype=x.dtype)
    for k in range(vectors * width, n):
        total = total + columns[k]
    for lane in range(width):
        total = total + vector_sum[lane]
    return total


def _outer_sum(x: np.ndarray) -> np.ndarray:
    """Sum over the first axis of a C-contiguous (n, columns) array, one result per column."""
    size0, size1 = x.shape
    width = _SUM_VECTOR_BYTES // x.itemsize
    out = np.empty(size1, dtype=x.dtype)
    j = 0
    if size1 >= width:
        while j + 4 * width <= size1:
            block = x[:, j: j + 4 * width].reshape(size0, 4, width)
            out[j: j + 4 * width] = _multi_row_sum(block).reshape(-1)
            j += 4 * width
        while j + width <= size1:
            out[j: j + width] = _row_sum(x[:, j: j + width])
            j += width
    else:
        while j + 3 < size1:
            out[j: j + 4] = _multi_row_sum(x[:, j: j + 4].reshape(size0, 4))
            j += 4
    if j < size1:
        out[j:] = _row_sum(x[:, j:])
    return out


def torch_sum(x: Array, axis: tuple[int, ...] | None, keepdims: bool, dtype: Any) -> Array:
    """x.sum(axis) as PyTorch's CPU kernel computes it (see the NOTE above)."""
    dtype = np.dtype(dtype)
    ndim = x.ndim
    dims = tuple(range(ndim)) if axis is None else tuple(sorted(axis))
    if (
        not isinstance(x, np.ndarray) or dtype not in (np.float32, np.float64)
        or x.dtype != dtype or not x.flags.c_contiguous or x.size == 0 or x.size > _SUM_GRAIN
        or not dims
    ):
        return x.sum(axis=axis, keepdims=keepdims, dtype=dtype)
    kept_shape = tuple(1 if d in dims else n for d, n in enumerate(x.shape))
    reduced = 1
    for d in dims:
        reduced *= x.shape[d]
    if dims == tuple(range(ndim - len(dims), ndim)):  # trailing (or all) dimensions
        result = _inner_sum(x.reshape(-1, reduced))
    elif dims == tuple(range(len(dims))):  # leading dimensions
        result = _outer_sum(x.reshape(reduced, -1))
    else:
        return x.sum(axis=axis, keepdims=keepdims, dtype=dtype)
    result = result.reshape(kept_shape)
    if not keepdims:
        result = result.reshape(tuple(n for d, n in enumerate(x.shape) if d not in dims))
    return result


def _mean_array(x: Array, axis: Any, keepdims: bool, dtype: Any) -> Array:
    """x.mean(...) as PyTorch: the sum (torch_sum) divided in the dtype; empty means are NaN,
    without NumPy's "Mean of empty slice" warning."""
    if x.size == 0:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return x.mean(axis=axis, keepdims=keepdims, dtype=dtype)
    dims = tuple(range(x.ndim)) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    count = 1
    for d in dims:
        count *= x.shape[d]
    total = torch_sum(x.astype(dtype, copy=False), dims or None, keepdims, dtype)
    # a NumPy scalar divisor: CuPy passes it to the kernel by value, nothing is copied
    return xp_of(total).asarray(total / np.dtype(dtype).type(count))


def _sum_dtype(a: Tensor) -> DType:
    # Integer and bool sums accumulate in int64, as PyTorch's sum does.
    return a.dtype if a.dtype.is_floating_point else dtypes.int64


def _restore_reduced(F: Any, grad: Any, dims: tuple[int, ...] | None, keepdim: bool,
                     ndim: int) -> Any:
    """A reduced gradient with its reduced dimensions back as size 1 (keepdim form)."""
    if keepdim or ndim == 0:
        return grad
    if dims is None:
        dims = tuple(range(ndim))
    return F.unsqueeze_dims(grad, dims, ndim)


def _reshape_reduced(F: Any, t: Any, dims: tuple[int, ...], keepdim: bool, shape: Shape) -> Any:
    """restore_reduced_dims: the reduced result reshaped with size 1 at the reduced dims."""
    if keepdim:
        return t
    return F.reshape(t, tuple(1 if d in dims else n for d, n in enumerate(shape)))


class SumBackward0(Function):
    name = "SumBackward0"

    def forward(self, a: Tensor, dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        return torch_sum(a._data, None, False, (dtype or _sum_dtype(a)).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(grad, self.self_sizes),)


class SumBackward1(Function):
    name = "SumBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False,
                dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        return torch_sum(a._data, dim or None, keepdim, (dtype or _sum_dtype(a)).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, len(self.self_sizes))
        return (F.expand(grad, self.self_sizes),)


class MeanBackward0(Function):
    name = "MeanBackward0"

    def forward(self, a: Tensor, dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.numel = a.numel()
        with _quiet():
            return _mean_array(a._data, None, False, (dtype or a.dtype).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # mean_backward: sum_backward(...) / numel (expand first, then divide)
        with _quiet():
            return (F.expand(grad, self.self_sizes) / self.numel,)


class MeanBackward1(Function):
    name = "MeanBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False,
                dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        with _quiet():
            return _mean_array(a._data, dim or None, keepdim, (dtype or a.dtype).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        count = 1
        for d in self.dim:
            count *= self.self_sizes[d] if self.self_sizes else 1
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, len(self.self_sizes))
        with _quiet():
            return (F.expand(grad, self.self_sizes) / count,)


def _exclusive_products(x: Array, axis: int) -> Array:
    """For each element, the product of the others along `axis` (exact with zeros)."""
    xp = xp_of(x)
    ones_shape = list(x.shape)
    ones_shape[axis] = 1
    one = xp.ones(ones_shape, dtype=x.dtype)
    before = xp.cumprod(xp.concatenate([one, x], axis=axis), axis=axis)
    before = xp.take(before, range(x.shape[axis]), axis=axis)
    flipped = xp.flip(x, axis=axis)
    after = xp.cumprod(xp.concatenate([one, flipped], axis=axis), axis=axis)
    after = xp.flip(xp.take(after, range(x.shape[axis]), axis=axis), axis=axis)
    return before * after


class ProdBackward0(Function):
    name = "ProdBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save("self", a)
        self.save("result", RESULT)
        with _quiet():
            return a._data.prod(dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if x.ndim == 0:
            return (grad,)
        result = self.saved("result", F)
        if F.count_zeros(x) == 0:
            with _quiet():
                return (grad * (result / x),)
        # NOTE: with zeros, result / x is 0/0: use the product of the other elements
        return (grad * F.reshape(F.prod_others(F.reshape(x, (-1,)), 0), x.shape),)


class ProdBackward1(Function):
    name = "ProdBackward1"

    def forward(self, a: Tensor, dim: int, keepdim: bool = False) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        with _quiet():
            return a._data.prod(axis=dim, keepdims=keepdim, dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if x.ndim == 0:
            return (grad,)
        result = self.saved("result", F)
        grad = _restore_reduced(F, grad, (self.dim,), self.keepdim, x.ndim)
        result = _restore_reduced(F, result, (self.dim,), self.keepdim, x.ndim)
        if F.count_zeros(x) == 0:
            with _quiet():
                return (grad * (result / x),)
        return (grad * F.prod_others(x, self.dim),)


class _FullExtremum(Function):
    """max()/min() over all elements: ties share the gradient evenly (evenly_distribute)."""

    reduce: ClassVar[str]

    def forward(self, a: Tensor) -> Array:
        if a.numel() == 0:
            raise TorchRuntimeError(
                f"{self.reduce}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        self.save("self", a)
        self.save("result", RESULT)
        xp = xp_of(a._data)
        fn = xp.max if self.reduce == "max" else xp.min
        return fn(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        result = self.saved("result", F)
        mask = F.isnan(x) if F.to_bool(F.isnan(result)) else x == result
        # evenly_distribute_backward: zeros.masked_fill_(mask, grad / mask.sum())
        return (F.evenly_distribute(grad, x, mask),)


class MaxBackward1(_FullExtremum):
    name = "MaxBackward1"
    reduce = "max"


class MinBackward1(_FullExtremum):
    name = "MinBackward1"
    reduce = "min"


def _arg_extremum(data: Array, dim: int | None, keepdim: bool, reduce: str) -> Array:
    """argmax/argmin with PyTorch's NaN rule (a NaN is the extremum; first occurrence wins)."""
    xp = xp_of(data)
    if data.dtype.kind == "f":
        nan = xp.isnan(data)
        if bool(nan.any()):
            work = xp.where(nan, -xp.inf if reduce == "min" else xp.inf, data)
            if dim is None:
                index = xp.argmax(nan.reshape(-1)) if bool(nan.any()) else None
                return xp.asarray(index, dtype=xp.int64)
            idx = (xp.argmax if reduce == "max" else xp.argmin)(work, axis=dim, keepdims=keepdim)
            any_nan = nan.any(axis=dim, keepdims=keepdim)
            first_nan = xp.argmax(nan, axis=dim, keepdims=keepdim)
            return xp.where(any_nan, first_nan, idx).astype(xp.int64)
    fn = xp.argmax if reduce == "max" else xp.argmin
    if dim is None:
        return xp.asarray(fn(data.reshape(-1)), dtype=xp.int64)
    return fn(data, axis=dim, keepdims=keepdim).astype(xp.int64)


class _DimExtremum(Function):
    """max(dim)/min(dim): the values; the indices are computed alongside (no grad)."""

    reduce: ClassVar[str]

    def forward(self, a: Tensor, dim: int, keepdim: bool, indices: Array) -> Array:
        self.dim, self.keepdim, self.self_sizes = dim, keepdim, a.shape
        self.save("indices", Tensor._make(indices, a.device))
        if a.ndim == 0:
            return a._data.copy()
        idx = indices if keepdim else xp_of(indices).expand_dims(indices, dim)
        values = xp_of(a._data).take_along_axis(a._data, idx, axis=dim)
        return values if keepdim else values.squeeze(dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        indices = self.saved("indices", F)
        if len(self.self_sizes) == 0:
            return (grad,)
        return (F.value_selecting_backward(grad, self.dim, indices, self.self_sizes,
                                           self.keepdim),)


class MaxBackward0(_DimExtremum):
    name = "MaxBackward0"
    reduce = "max"


class MinBackward0(_DimExtremum):
    name = "MinBackward0"
    reduce = "min"


class _AmaxAmin(Function):
    reduce: ClassVar[str]

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        xp = xp_of(a._data)
        fn = xp.max if self.reduce == "max" else xp.min
        return fn(a._data, axis=dim if dim else None, keepdims=keepdim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        dims = self.dim or tuple(range(x.ndim))
        # restore_reduced_dims is a reshape here (not unsqueezes)
        result = _reshape_reduced(F, self.saved("result", F), dims, self.keepdim, x.shape)
        grad = _reshape_reduced(F, grad, dims, self.keepdim, x.shape)
        mask = x == result
        # scale_grad_by_count: a product, so a NaN gradient stays NaN off the extremum too
        with _quiet():
            return ((grad / F.sum(mask, dims, True)) * mask,)


class AmaxBackward0(_AmaxAmin):
    name = "AmaxBackward0"
    reduce = "max"


class AminBackward0(_AmaxAmin):
    name = "AminBackward0"
    reduce = "min"


class LogsumexpBackward0(Function):
    name = "LogsumexpBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data.astype(float_result_dtype(a).np, copy=False)
        xp = xp_of(x)
        with _quiet():
            m = xp.max(x, axis=dim, keepdims=True) if x.size else xp.zeros((1,) * x.ndim, x.dtype)
            m = xp.where(xp.isinf(m), 0, m)
            out = xp.log(xp.sum(xp.exp(x - m), axis=dim, keepdims=True)) + m
        return out if keepdim else out.squeeze(axis=dim) if x.ndim else out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        result = _restore_reduced(F, self.saved("result", F), self.dim, self.keepdim, x.ndim)
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, x.ndim)
        return (grad * F.exp(x - result),)


class LinalgVectorNormBackward0(Function):
    name = "LinalgVectorNormBackward0"

    def forward(self, a: Tensor, ord: float, dim: tuple[int, ...] | None,  # noqa: A002
                keepdim: bool) -> Array:
        self.ord, self.dim, self.keepdim = ord, dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data
        xp = xp_of(x)
        axis = dim if dim else None
        with _quiet():
            ax = xp.abs(x)
            if ord == 2:
                out = xp.sqrt(xp.sum(ax * ax, axis=axis, keepdims=keepdim))
            elif ord == 1:
                out = xp.sum(ax, axis=axis, keepdims=keepdim)
            elif ord == math.inf:
                out = xp.max(ax, axis=axis, keepdims=keepdim)
            elif ord == -math.inf:
                out = xp.min(ax, axis=axis, keepdims=keepdim)
            elif ord == 0:
                out = xp.sum(ax != 0, axis=axis, keepdims=keepdim).astype(x.dtype)
            else:
                out = xp.sum(ax ** ord, axis=axis, keepdims=keepdim) ** (1.0 / ord)
        return xp.asarray(out, dtype=x.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # norm_backward, formula for formula
        x = self.saved("self", F)
        norm = self.saved("result", F)
        dims = self.dim or ()
        if not self.keepdim and x.ndim != 0 and dims:
            grad = F.unsqueeze_dims(grad, dims, x.ndim)
            norm = F.unsqueeze_dims(norm, dims, x.ndim)
        p = self.ord
        with _quiet():
            if p == 0:
                return (None,)  # PyTorch returns an undefined gradient: x.grad stays None
            if p == 1:
                return (F.sgn(x) * grad,)
            if p == 2:
                # NOTE: the gradient at the zero vector is 0 (masked), not NaN.
                return (grad * F.masked_fill(x / norm, norm == 0, 0.0),)
            if math.isinf(p):
                ax = F.abs(x)
                mask = (ax == norm) | F.isnan(ax)
                return (F.sgn(x) * ((grad / F.sum(mask, dims or None, True)) * mask),)
            if p < 1:
                scaled = F.sgn(x) * F.masked_fill(F.abs(x) ** (p - 1), x == 0, 0.0)
                return (scaled * grad * norm ** (1 - p),)
            if p < 2:
                scaled = F.sgn(x) * F.abs(x) ** (p - 1)
            else:
                scaled = x * F.abs(x) ** (p - 2)
            return (scaled * F.masked_fill(grad / norm ** (p - 1), norm == 0, 0.0),)


def _reduced_count(shape: Shape, dims: tuple[int, ...] | None) -> int:
    count = 1
    for d in dims if dims else range(len(shape)):
        count *= shape[d]
    return count


def _var_array(x: Array, dims: tuple[int, ...] | None, correction: float, keepdim: bool) -> Array:
    xp = xp_of(x)
    axis = dims if dims else None
    with _quiet():
        mean = _mean_array(x, axis, True, x.dtype)
        centered = x - mean
        total = xp.sum(centered * centered, axis=axis, keepdims=keepdim)
        n = _reduced_count(x.shape, dims)
        return xp.asarray(total / max(n - correction, 0), dtype=x.dtype)


class VarBackward0(Function):
    name = "VarBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, correction: float,
                keepdim: bool) -> Array:
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        self.save("self", a)
        return _var_array(a._data, dim, correction, keepdim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_var_backward(F, grad, self.saved("self", F), self.dim, self.correction,
                              self.keepdim),)


def _var_backward(F: Any, grad: Any, x: Any, dim: tuple[int, ...] | None, correction: float,
                  keepdim: bool) -> Any:
    # var_backward: (2 / (N - correction)) * grad * (self - self.mean(dim, keepdim=True))
    with _quiet():
        if x.ndim == 0 or dim is None:
            dof = _numel(x.shape) - correction
            if dof <= 0:
                # PyTorch returns a constant: inf (with grad's sign) off the mean, nan on it
                # (linear in grad: its graph continues, the factor is a constant)
                return grad * F.detached(lambda v: _var_dof_zero(v), x)
            return (2.0 / dof) * grad * (x - F.mean(x, None, False))
        if not keepdim and x.ndim > 1 and dim:
            grad = F.unsqueeze_dims(grad, dim, x.ndim)
        n = 1
        for d in dim:  # _safe_size over the listed dims: 1 for an explicit empty list
            n *= x.shape[d]
        scale = 2.0 / (n - correction) if n - correction != 0 else math.inf
        return scale * grad * (x - F.mean(x, dim, True))


def _var_dof_zero(x: Array) -> Array:
    """inf off the mean, nan on it (0 * inf)."""
    xp = xp_of(x)
    off_mean = xp.abs(_sign_array(x - _mean_array(x, None, False, x.dtype)))
    return off_mean * x.dtype.type(math.inf)


class StdBackward0(Function):
    name = "StdBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, correction: float,
                keepdim: bool) -> Array:
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        with _quiet():
            return xp_of(a._data).sqrt(_var_array(a._data, dim, correction, keepdim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        with _quiet():
            grad_var = F.masked_fill(grad / (result * 2), result == 0, 0.0)
        return (_var_backward(F, grad_var, self.saved("self", F), self.dim, self.correction,
                              self.keepdim),)


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


class ReshapeAliasBackward0(ViewBackward0):
    """reshape of a non-contiguous tensor whose strides still allow a view."""

    name = "ReshapeAliasBackward0"

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return np.reshape(a._data, shape, copy=False) if isinstance(a._data, np.ndarray) \
            else a._data.reshape(shape)


class UnsafeViewBackward0(Function):
    """reshape of a tensor that cannot be viewed: a copy (CloneBackward0) then this."""

    name = "UnsafeViewBackward0"

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        return a._data.reshape(shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class AliasBackward0(Function):
    """`x[...]`, `x[:, :]`: a view of the whole tensor."""

    name = "AliasBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return a._data[...]

    def view_fn(self, array: Array) -> Array:
        return array[...]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class UnsqueezeBackward0(Function):
    name = "UnsqueezeBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        return xp_of(a._data).expand_dims(a._data, dim)

    def view_fn(self, array: Array) -> Array:
        return xp_of(array).expand_dims(array, self.dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.squeeze(grad, self.dim),)


class _Squeeze(Function):
    is_view = True

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.self_sizes = a.shape
        self.dims = tuple(d for d in dims if a.shape[d] == 1) if a.ndim else ()
        return a._data.reshape(self._out_shape(a.shape))

    def _out_shape(self, shape: Shape) -> Shape:
        return tuple(n for i, n in enumerate(shape) if i not in self.dims)

    def view_fn(self, array: Array) -> Array:
        return array.reshape(self._out_shape(array.shape))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class SqueezeBackward0(_Squeeze):
    """squeeze(): every size-1 dimension."""

    name = "SqueezeBackward0"


class SqueezeBackward1(_Squeeze):
    """squeeze(dim)."""

    name = "SqueezeBackward1"


class SqueezeBackward2(_Squeeze):
    """squeeze(dims)."""

    name = "SqueezeBackward2"


class SqueezeBackward4(Function):
    """squeeze_(dim) in place on a fresh result (matmul's 1-d @ 2-d): not a view."""

    name = "SqueezeBackward4"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        if a.shape[dim] != 1:
            return a._data
        return a._data.reshape(a.shape[:dim] + a.shape[dim + 1:])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class SelectBackward0(Function):
    name = "SelectBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, index: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.index = index
        return a._data[self._key()]

    def _key(self) -> tuple[Any, ...]:
        # The trailing Ellipsis keeps a 0-d result a view (not a NumPy scalar copy).
        return (slice(None),) * self.dim + (self.index, Ellipsis)

    def view_fn(self, array: Array) -> Array:
        return array[self._key()]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.view_backward(grad, self.self_sizes, self.view_fn, "select",
                                (self.dim, self.index)),)


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
        return (F.view_backward(grad, self.self_sizes, self.view_fn, "slice",
                                (self.dim, self.start, self.end, self.step)),)


class SplitBackward0(SliceBackward0):
    """One piece of split/chunk (gradsh gives each piece its own node; see ops.split)."""

    name = "SplitBackward0"


class SplitWithSizesBackward0(SliceBackward0):
    """One piece of split with a list of sizes."""

    name = "SplitWithSizesBackward0"


class UnbindBackward0(SelectBackward0):
    """One element of unbind / iteration (each element its own node; see ops.unbind)."""

    name = "UnbindBackward0"


class TBackward0(Function):
    name = "TBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return a._data.T

    def view_fn(self, array: Array) -> Array:
        return array.T

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.t(grad),)


class TransposeBackward0(Function):
    name = "TransposeBackward0"
    is_view = True

    def forward(self, a: Tensor, dim0: int, dim1: int) -> Array:
        self.dim0, self.dim1 = dim0, dim1
        return self.view_fn(a._data)

    def view_fn(self, array: Array) -> Array:
        if array.ndim == 0:
            return array[...]
        return xp_of(array).swapaxes(array, self.dim0, self.dim1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.transpose(grad, self.dim0, self.dim1),)


class PermuteBackward0(Function):
    name = "PermuteBackward0"
    is_view = True

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.dims = dims
        return xp_of(a._data).transpose(a._data, dims)

    def view_fn(self, array: Array) -> Array:
        return xp_of(array).transpose(array, self.dims)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return (F.permute(grad, tuple(inverse)),)


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
# Indexing
# =============================================================================================


class IndexBackward0(Function):
    """Advanced indexing: `key` is a NumPy key of slices and int64 arrays; `indices` are the
    index tensors PyTorch saves (so the node cannot be backpropagated twice)."""

    name = "IndexBackward0"

    def forward(self, a: Tensor, key: tuple[Any, ...], indices: Sequence[Tensor]) -> Array:
        self.self_sizes = a.shape
        self.key = key
        for i, t in enumerate(indices):
            self.save(f"indices{i}" if i else "indices", t)
        return a._data[key]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        for name in self._saved:
            self.saved(name, F)  # raises if freed or modified, as PyTorch does
        return (F.index_put_acc(grad, self.self_sizes, self.key),)


class IndexPutBackward0(Function):
    """`t[advanced] = values` (index_put_): self keeps the gradient outside the indexed
    positions, values receive the gradient at them."""

    name = "IndexPutBackward0"

    def forward(self, a: Tensor, values: Tensor, key: tuple[Any, ...],
                indices: Sequence[Tensor], accumulate: bool = False) -> Array:
        self.key, self.accumulate = key, accumulate
        for i, t in enumerate(indices):
            self.save(f"indices{i}" if i else "indices", t)
        out = a._data.copy()
        target_shape = out[key].shape
        v = values._data
        try:
            infer_size(target_shape, v.shape)
            v = xp_of(v).broadcast_to(v, target_shape) if v.shape != target_shape else v
        except TorchRuntimeError:
            raise TorchRuntimeError(
                f"shape mismatch: value tensor of shape [{', '.join(map(str, values.shape))}] "
                f"cannot be broadcast to indexing result of shape "
                f"[{', '.join(map(str, target_shape))}]"
            ) from None
        v = v.astype(out.dtype, copy=False)
        if accumulate:
            xp_of(out).add.at(out, key, v)
        else:
            out[key] = v
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        for name in self._saved:
            self.saved(name, F)
        g_self = g_values = None
        if a:
            g_self = grad if self.accumulate else F.index_fill_zero(grad, self.key)
        if b:
            g_values = F.index(grad, self.key)
        return g_self, g_values


# =============================================================================================
# Joining and splitting
# =============================================================================================


class CatBackward0(Function):
    name = "CatBackward0"

    def forward(self, *tensors: Tensor, dim: int, dtype: DType) -> Array:
        self.dim = dim
        self.sizes = [t.shape for t in tensors]
        arrays = [t._data.astype(dtype.np, copy=False) for t in tensors if t._data.ndim > 0
                  and not (t._data.ndim == 1 and t._data.shape[0] == 0 and len(tensors) > 1
                           and any(u.ndim > 1 for u in tensors))]
        if not arrays:
            return xp_of(tensors[0]._data).zeros((0,), dtype=dtype.np)
        return xp_of(arrays[0]).concatenate(arrays, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        grads: list[Any] = []
        offset = 0
        for needed, shape in zip(self.needs_input_grad, self.sizes, strict=True):
            if len(shape) == 1 and shape[0] == 0 and len(grad.shape) > 1:
                grads.append(None if not needed else F.zeros(shape, grad))
                continue
            length = shape[self.dim]
            grads.append(F.narrow(grad, self.dim, offset, length) if needed else None)
            offset += length
        return tuple(grads)


class StackBackward0(Function):
    name = "StackBackward0"

    def forward(self, *tensors: Tensor, dim: int, dtype: DType) -> Array:
        self.dim = dim
        arrays = [t._data.astype(dtype.np, copy=False) for t in tensors]
        return xp_of(arrays[0]).stack(arrays, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return tuple(F.select(grad, self.dim, i) if needed else None
                     for i, needed in enumerate(self.needs_input_grad))


# =============================================================================================
# Linear algebra
# =============================================================================================


def _strides(array: Array) -> tuple[int, ...]:
    item = array.itemsize
    return tuple(s // item for s in array.strides)


class MmBackward0(Function):
    name = "MmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        # NOTE: PyTorch returns the gradient in column-major form when the input was
        # column-major (mm_mat1_backward / mm_mat2_backward); the layout decides the formula.
        self.self_column_major = _column_major(a._data)
        self.mat2_column_major = _column_major(b._data)
        return xp_of(a._data).matmul(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        ga = gb = None
        if a:
            mat2 = self.saved("mat2", F)
            if self.self_column_major:
                ga = F.t(F.mm(mat2, F.t(grad)))
            else:
                ga = F.mm(grad, F.t(mat2))
        if b:
            mat1 = self.saved("self", F)
            if self.mat2_column_major:
                gb = F.t(F.mm(F.t(grad), mat1))
            else:
                gb = F.mm(F.t(mat1), grad)
        return ga, gb


def _column_major(array: Array) -> bool:
    if array.ndim != 2:
        return False
    strides = _strides(array)
    return strides[0] == 1 and strides[1] == array.shape[0]


class MvBackward0(Function):
    name = "MvBackward0"

    def forward(self, a: Tensor, v: Tensor) -> Array:
        self.save("self", a)
        self.save("vec", v)
        return xp_of(a._data).matmul(a._data, v._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.outer(grad, self.saved("vec", F)) if a else None,
            F.mv(F.t(self.saved("self", F)), grad) if b else None,
        )


class DotBackward0(Function):
    name = "DotBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("tensor", b)
        return xp_of(a._data).dot(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            grad * self.saved("tensor", F) if a else None,
            grad * self.saved("self", F) if b else None,
        )


class BmmBackward0(Function):
    name = "BmmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        return xp_of(a._data).matmul(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.bmm(grad, F.transpose(self.saved("mat2", F), 1, 2)) if a else None,
            F.bmm(F.transpose(self.saved("self", F), 1, 2), grad) if b else None,
        )


# =============================================================================================
# nn
# =============================================================================================


def _c_order(x: Array) -> Array:
    """x in C order (ascontiguousarray would turn a 0-d array into a 1-d one)."""
    return x if x.flags.c_contiguous else x.copy(order="C")


def _softmax_array(x: Array, dim: int) -> Array:
    xp = xp_of(x)
    if x.ndim == 0:
        return xp.ones_like(x)
    with _quiet():
        m = xp.max(x, axis=dim, keepdims=True) if x.size else x.sum(axis=dim, keepdims=True)
        e = xp.exp(x - m)
        return e / xp.sum(e, axis=dim, keepdims=True)


def _log_softmax_array(x: Array, dim: int) -> Array:
    xp = xp_of(x)
    if x.ndim == 0:
        return xp.zeros_like(x)
    with _quiet():
        m = xp.max(x, axis=dim, keepdims=True) if x.size else x.sum(axis=dim, keepdims=True)
        shifted = x - m
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=dim, keepdims=True))


class SoftmaxBackward0(Function):
    name = "SoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        # PyTorch's softmax kernels write a contiguous result whatever the input's layout
        return _c_order(_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.softmax_backward(grad, self.saved("result", F), self.dim),)


class LogSoftmaxBackward0(Function):
    name = "LogSoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        return _c_order(_log_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.log_softmax_backward(grad, self.saved("result", F), self.dim),)


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduce_array(values: Array, reduction: str) -> Array:
    if reduction == "none":
        return values
    with _quiet():
        return _mean_array(values, None, False, values.dtype) if reduction == "mean" \
            else values.sum()


def _loss_scale(grad: Any, reduction: str, numel: int) -> Any:
    """The gradient of a reduced loss, spread over the elements (mean divides by N)."""
    return grad / numel if reduction == "mean" else grad


class _PairLoss(Function):
    """A loss of (input, target) of one shape; both may require grad."""

    def setup(self, a: Tensor, target: Tensor, reduction: str) -> tuple[Array, Array, Any]:
        self.reduction = reduction
        self.numel = a.numel()
        self.save("self", a)
        self.save("target", target)
        dtype = result_dtype(a, target)
        return (a._data.astype(dtype.np, copy=False),
                target._data.astype(dtype.np, copy=False), dtype)

    def reduce(self, values: Array, dtype: DType) -> Array:
        return xp_of(values).asarray(_reduce_array(values, self.reduction), dtype=dtype.np)


class MseLossBackward0(_PairLoss):
    name = "MseLossBackward0"

    def forward(self, a: Tensor, target: Tensor, reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        with _quiet():
            diff = x - t
            return self.reduce(diff * diff, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        g = F.mse_loss_backward(grad, x, t, self.reduction)
        return (g if a else None, -g if b else None)


class NllLossBackward0(Function):
    """nll_loss over (N, C) or (C,) log-probabilities with class-index targets."""

    name = "NllLossBackward0"

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                ignore_index: int) -> Array:
        # target and weight are not differentiable inputs: PyTorch gives the node one edge.
        self.reduction, self.ignore_index = reduction, ignore_index
        self.save("self", a)
        self.save("target", target)
        x = a._data
        xp = xp_of(x)
        t = target._data.reshape(-1) if x.ndim == 2 else target._data.reshape(1)
        logp = x if x.ndim == 2 else x.reshape(1, -1)
        classes = logp.shape[1]
        valid = t != ignore_index
        bad = t[valid & ((t < 0) | (t >= classes))]
        if bad.size:
            raise TorchIndexError(f"Target {int(bad[0])} is out of bounds.")
        safe = xp.where(valid, t, 0)
        w = xp.ones(classes, dtype=x.dtype) if weight is None else weight._data.astype(x.dtype)
        self.weight = w
        wt = xp.where(valid, w[safe], 0).astype(x.dtype)
        picked = -logp[xp.arange(logp.shape[0]), safe] * wt
        self.total_weight = wt.sum(dtype=x.dtype)
        self.save("total_weight", Tensor._make(xp.asarray(self.total_weight), a.device))
        if weight is not None:
            self.save("weight", weight)
        with _quiet():
            if reduction == "none":
                out = picked if x.ndim == 2 else picked.reshape(())
            elif reduction == "sum":
                out = picked.sum(dtype=x.dtype)
            else:
                out = picked.sum(dtype=x.dtype) / self.total_weight
        return xp.asarray(out, dtype=x.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        target = self.saved("target", F)
        return (F.nll_loss_backward(grad, x, target, self),)


# =============================================================================================
# Copies, casts and fills
# =============================================================================================


class CloneBackward0(Function):
    """clone: memory_format "preserve" keeps a dense layout (a transposed clone stays
    transposed), "contiguous" is what reshape and contiguous() use."""

    name = "CloneBackward0"

    def forward(self, a: Tensor, memory_format: str = "preserve") -> Array:
        return a._data.copy(order="K" if memory_format == "preserve" else "C")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class ToCopyBackward0(Function):
    """A dtype or device change: the gradient goes back in the input's dtype and device."""

    name = "ToCopyBackward0"

    def forward(self, a: Tensor, dtype: DType, device: str) -> Array:
        self.output_device = device
        return backend.to_device(a._data.astype(dtype.np, copy=True), device)

    def common_device(self, inputs: Any, params: Any) -> str:  # the device is a parameter
        return inputs[0].device

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # _to_copy_backward: grad.to(self.options()), dtype and device in one copy
        _shape, dtype, device = self.input_meta[0]
        return (F.to_copy(grad, dtype, device),)


class ZeroBackward0(Function):
    name = "ZeroBackward0"

    def forward(self, a: Tensor) -> Array:
        return xp_of(a._data).zeros_like(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FillBackward2(Function):
    """fill_(number)."""

    name = "FillBackward2"

    def forward(self, a: Tensor, value: Any) -> Array:
        return xp_of(a._data).full_like(a._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FillBackward3(Function):
    """fill_(0-d tensor): the value is an input and receives the sum of the gradient."""

    name = "FillBackward3"

    def forward(self, a: Tensor, value: Tensor) -> Array:
        if value.ndim != 0:
            raise TorchRuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return xp_of(a._data).full_like(a._data, value._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (F.zeros_like(grad) if a else None, F.sum(grad, None, False) if b else None)


class CopyBackwards(Function):
    """copy_(src): self's old values get no gradient, src gets it (summed to its shape)."""

    name = "CopyBackwards"

    def forward(self, a: Tensor, src: Tensor) -> Array:
        try:
            infer_size(a.shape, src.shape)
            if len(src.shape) > len(a.shape) or infer_size(a.shape, src.shape) != a.shape:
                raise TorchRuntimeError("")
        except TorchRuntimeError:
            raise TorchRuntimeError(
                f"The size of tensor a ({a.shape[-1] if a.shape else 1}) must match the size of "
                f"tensor b ({src.shape[-1] if src.shape else 1}) at non-singleton dimension "
                f"{max(len(a.shape) - 1, 0)}"
            ) from None
        src_data = src._data
        if src.device != a.device:
            src_data = backend.to_device(src_data, a.device)  # copy_ crosses devices
        xp = xp_of(a._data)
        return xp.broadcast_to(src_data, a.shape).astype(a._data.dtype, copy=True)

    def common_device(self, inputs: Any, params: Any) -> str:  # copy_ reads from any device
        return inputs[0].device

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        g_src = None
        if b:
            # grad.to(src's options): its dtype and device, before the engine sums it
            _shape, dtype, device = self.input_meta[1]
            g_src = F.to_copy(grad, dtype, device)
        return (F.zeros_like(grad) if a else None, g_src)


# =============================================================================================
# More element-wise functions, activations, losses, cumulative and index ops
# =============================================================================================


def _erf_array(x: Array) -> Array:
    """erf element-wise (NumPy has none): math.erf in float64, rounded to x's dtype."""
    flat = np.asarray(x, dtype=np.float64).reshape(-1)
    out = np.fromiter((math.erf(v) for v in flat), dtype=np.float64, count=flat.size)
    return out.reshape(np.shape(x)).astype(np.asarray(x).dtype, copy=False)


_ARRAY_UFUNCS: dict[str, Callable[[Array], Array]] = {
    "cosh": lambda x: xp_of(x).cosh(x),
    "sinh": lambda x: xp_of(x).sinh(x),
    "rsqrt": lambda x: 1 / xp_of(x).sqrt(x),
    "sigmoid": lambda x: _sigmoid_array(x, dtypes.from_numpy(x.dtype)),
    "tanh": lambda x: xp_of(x).tanh(x),
    "erf": lambda x: _erf_array(x) if xp_of(x) is np else xp_of(x).asarray(
        _erf_array(backend.to_host(x))),
    "logsigmoid": lambda x: xp_of(x).minimum(x, 0) - xp_of(x).log1p(
        xp_of(x).exp(-xp_of(x).abs(x))),
}


def _array_diagonal_scatter(g: Array, shape: Shape, k: int) -> Array:
    """A zero matrix of `shape` with g on its k-th diagonal."""
    out = xp_of(g).zeros(shape, dtype=g.dtype)
    n = g.shape[0]
    rows = xp_of(g).arange(n) + (0 if k >= 0 else -k)
    out[rows, rows + k] = g
    return out


def _float_op(a: Tensor, compute: Callable[[Array], Array]) -> Array:
    """An element-wise formula on a's values in its float dtype (integers promote)."""
    dtype = float_result_dtype(a).np
    with _quiet():
        return xp_of(a._data).asarray(compute(a._data.astype(dtype, copy=False)), dtype=dtype)


class _SavesSelf(Function):
    """A unary op whose backward reads its input."""

    def save_input(self, a: Tensor) -> None:
        if self.needs_input_grad[0]:
            self.save("self", a)


def _float_unary_node(name: str, ufunc: str, saves: str,
                      formula: Callable[[Any, Any, Any], Any]) -> type[Function]:
    """A float-valued element-wise op whose backward is `formula(F, grad, saved)`, where the
    saved tensor is its input ("self") or its output ("result")."""

    def forward(self: Function, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save(saves, a if saves == "self" else RESULT)
        return _float_unary(a, ufunc)

    def backward(self: Function, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (formula(F, grad, self.saved(saves, F)),)

    return type(name, (Function,), {"name": name, "forward": forward, "backward": backward,
                                    "__module__": __name__})


Log1PBackward0 = _float_unary_node("Log1PBackward0", "log1p", "self",
                                   lambda F, g, x: g / (x + 1))
Expm1Backward0 = _float_unary_node("Expm1Backward0", "expm1", "result",
                                   lambda F, g, y: g * (y + 1))
Exp2Backward0 = _float_unary_node("Exp2Backward0", "exp2", "result",
                                  lambda F, g, y: g * y * math.log(2))
SinhBackward0 = _float_unary_node("SinhBackward0", "sinh", "self",
                                  lambda F, g, x: g * F.ufunc("cosh", x))
CoshBackward0 = _float_unary_node("CoshBackward0", "cosh", "self",
                                  lambda F, g, x: g * F.ufunc("sinh", x))
AsinBackward0 = _float_unary_node("AsinBackward0", "arcsin", "self",
                                  lambda F, g, x: g * F.ufunc("rsqrt", -x * x + 1))
AcosBackward0 = _float_unary_node("AcosBackward0", "arccos", "self",
                                  lambda F, g, x: g * -F.ufunc("rsqrt", -x * x + 1))
AtanBackward0 = _float_unary_node("AtanBackward0", "arctan", "self",
                                  lambda F, g, x: g / (x * x + 1))


class ErfBackward0(_SavesSelf):
    name = "ErfBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, _ARRAY_UFUNCS["erf"])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (grad * (2 / math.sqrt(math.pi)) * F.exp(-(x * x)),)


class LeakyReluBackward0(_SavesSelf):
    name = "LeakyReluBackward0"

    def forward(self, a: Tensor, negative_slope: float) -> Array:
        self.save_input(a)
        self.negative_slope = negative_slope
        return _float_op(a, lambda x: xp_of(x).where(x > 0, x, x * negative_slope))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where(x > 0, grad, grad * self.negative_slope),)


class EluBackward0(_SavesSelf):
    name = "EluBackward0"

    def forward(self, a: Tensor, alpha: float, scale: float, input_scale: float) -> Array:
        self.save_input(a)
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        return _float_op(a, lambda x: xp_of(x).where(
            x <= 0, xp_of(x).expm1(x * input_scale) * (alpha * scale), x * scale))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        coefficient = self.input_scale * self.alpha * self.scale
        negative = grad * coefficient * F.exp(x * self.input_scale)
        # At 0 the value is grad * coefficient, held constant: PyTorch's double backward masks
        # with x < 0, so the second derivative there is 0.
        return (F.where(x < 0, negative, F.where(x <= 0, grad * coefficient,
                                                 grad * self.scale)),)


class SiluBackward0(_SavesSelf):
    name = "SiluBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: x / (1 + xp_of(x).exp(-x)))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        s = F.ufunc("sigmoid", x)
        return (grad * s * (1 + x * (1 - s)),)


class SoftplusBackward0(_SavesSelf):
    name = "SoftplusBackward0"

    def forward(self, a: Tensor, beta: float, threshold: float) -> Array:
        self.save_input(a)
        self.beta, self.threshold = beta, threshold
        return _float_op(a, lambda x: xp_of(x).where(
            x * beta > threshold, x, xp_of(x).log1p(xp_of(x).exp(x * beta)) / beta))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        z = F.exp(x * self.beta)
        with _quiet():
            return (F.where(x * self.beta > self.threshold, grad, grad * z / (z + 1)),)


class LogSigmoidBackward0(_SavesSelf):
    name = "LogSigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, _ARRAY_UFUNCS["logsigmoid"])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * F.ufunc("sigmoid", -self.saved("self", F)),)


class HardtanhBackward0(_SavesSelf):
    name = "HardtanhBackward0"

    def forward(self, a: Tensor, min_val: float, max_val: float) -> Array:
        self.save_input(a)
        self.min_val, self.max_val = min_val, max_val
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x, min_val), max_val))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        outside = (x <= self.min_val) | (x >= self.max_val)
        return (F.where(outside, 0.0, grad),)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class GeluBackward0(_SavesSelf):
    name = "GeluBackward0"

    def forward(self, a: Tensor, approximate: str) -> Array:
        self.save_input(a)
        self.approximate = approximate
        if approximate == "tanh":
            return _float_op(a, lambda x: 0.5 * x * (1 + xp_of(x).tanh(
                _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))))
        return _float_op(a, lambda x: x * 0.5 * (1 + _ARRAY_UFUNCS["erf"](x / math.sqrt(2))))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if self.approximate == "tanh":
            t = F.ufunc("tanh", _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
            left = 0.5 * x
            right = 1 + t
            slope = left * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
            return (grad * (0.5 * right + slope),)
        cdf = 0.5 * (1 + F.ufunc("erf", x * (1 / math.sqrt(2))))
        pdf = F.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))
        return (grad * (cdf + x * pdf),)


class BinaryCrossEntropyBackward0(_PairLoss):
    name = "BinaryCrossEntropyBackward0"

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None,
                reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        xp = xp_of(x)
        if bool(((x < 0) | (x > 1)).any()):
            raise TorchRuntimeError("all elements of input should be between 0 and 1")
        self.weight = weight
        with _quiet():
            loss = (t - 1) * xp.maximum(xp.log1p(-x), -100) - t * xp.maximum(xp.log(x), -100)
            if weight is not None:
                loss = loss * weight._data
        return self.reduce(loss.astype(dtype.np, copy=False), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        g = _loss_scale(grad, self.reduction, self.numel)
        w = None if self.weight is None else F.as_operand(self.weight)
        with _quiet():
            gx = gt = None
            if need_x:
                denominator = (1 - x) * x
                gx = g * (x - t) / F.where(denominator < 1e-12, 1e-12, denominator)
                gx = gx if w is None else gx * w
            if need_t:
                gt = -F.log(x / (1 - x)) * g
                gt = gt if w is None else gt * w
        return (gx, gt)


class BinaryCrossEntropyWithLogitsBackward0(_PairLoss):
    name = "BinaryCrossEntropyWithLogitsBackward0"

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None,
                pos_weight: Tensor | None, reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        self.weight, self.pos_weight = weight, pos_weight
        with _quiet():
            log_sigmoid = _ARRAY_UFUNCS["logsigmoid"](x)
            if pos_weight is not None:
                log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * t + 1)
            loss = (1 - t) * x - log_sigmoid
            if weight is not None:
                loss = loss * weight._data
        return self.reduce(loss.astype(dtype.np, copy=False), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        g = _loss_scale(grad, self.reduction, self.numel)
        w = None if self.weight is None else F.as_operand(self.weight)
        pw = None if self.pos_weight is None else F.as_operand(self.pos_weight)
        gx = gt = None
        with _quiet():
            if need_x:
                s = F.ufunc("sigmoid", x)
                if pw is None:
                    gx = (s - t) * g
                else:
                    scaled = pw * t
                    gx = ((scaled + 1 - t) * s - scaled) * g
                gx = gx if w is None else gx * w
            if need_t:
                if pw is None:
                    gt = -x * g
                else:
                    log_sig = F.ufunc("logsigmoid", x)
                    gt = (F.ufunc("logsigmoid", -x) - log_sig * pw) * g
                gt = gt if w is None else gt * w
        return (gx, gt)


class _PiecewiseLoss(_PairLoss):
    """smooth_l1 / huber: quadratic for |d| below a width, linear above; one parameter."""

    def forward(self, a: Tensor, target: Tensor, reduction: str, width: float) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        self.width = width
        z = xp_of(x).abs(x - t)
        return self.reduce(self.value(xp_of(x), z, width).astype(dtype.np, copy=False), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # PyTorch differentiates the target as the input with the two swapped (so a zero
        # difference gives +0.0 on both sides, not -0.0).
        x, t = self.saved("self", F), self.saved("target", F)
        g = _loss_scale(grad, self.reduction, self.numel)
        need_x, need_t = self.needs_input_grad
        return (self.slope(F, x - t, g, self.width) if need_x else None,
                self.slope(F, t - x, g, self.width) if need_t else None)

    @staticmethod
    def value(xp: Any, z: Array, width: float) -> Array:
        raise NotImplementedError

    @staticmethod
    def slope(F: Any, d: Any, g: Any, width: float) -> Any:
        raise NotImplementedError


class SmoothL1LossBackward0(_PiecewiseLoss):
    name = "SmoothL1LossBackward0"

    @staticmethod
    def value(xp: Any, z: Array, beta: float) -> Array:
        return xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)

    @staticmethod
    def slope(F: Any, d: Any, g: Any, beta: float) -> Any:
        return F.where(d < -beta, -g, F.where(d > beta, g, g * d / beta))


class HuberLossBackward0(_PiecewiseLoss):
    name = "HuberLossBackward0"

    @staticmethod
    def value(xp: Any, z: Array, delta: float) -> Array:
        return xp.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))

    @staticmethod
    def slope(F: Any, d: Any, g: Any, delta: float) -> Any:
        return F.where(d < -delta, -g * delta, F.where(d > delta, g * delta, g * d))


class CumsumBackward0(Function):
    name = "CumsumBackward0"

    def forward(self, a: Tensor, dim: int, dtype: DType) -> Array:
        self.dim, self.ndim = dim, a.ndim
        x = a._data
        if x.ndim == 0:
            return x.astype(dtype.np)
        return xp_of(x).cumsum(x, axis=dim, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if not self.ndim:
            return (grad,)
        return (F.flip(F.cumsum(F.flip(grad, (self.dim,)), self.dim), (self.dim,)),)


def _cumprod_grad_array(grad: Array, x: Array, dim: int) -> Array:
    """d/dx of cumprod along dim, exact with zeros: grad_i = sum over k >= i of grad_k times
    the product of x_j for j <= k, j != i (the products built row by row)."""
    xp = xp_of(x)
    xm, gm = xp.moveaxis(x, dim, -1), xp.moveaxis(grad, dim, -1)
    n = xm.shape[-1]
    others = xp.broadcast_to(xm[..., None, :], xm.shape + (n,)).copy()  # [..., i, j]
    eye = xp.eye(n, dtype=bool)
    others[..., eye] = 1  # x_j with x_i replaced by 1
    prefix = xp.cumprod(others, axis=-1)  # [..., i, k]: prod over j <= k of x_j (j != i)
    upper = xp.triu(xp.ones((n, n), dtype=bool))  # k >= i
    out = (prefix * upper * gm[..., None, :]).sum(axis=-1)
    return xp.moveaxis(out.astype(grad.dtype, copy=False), -1, dim)


class CumprodBackward0(Function):
    name = "CumprodBackward0"

    def forward(self, a: Tensor, dim: int, dtype: DType) -> Array:
        self.dim, self.ndim = dim, a.ndim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data
        if x.ndim == 0:
            return x.astype(dtype.np)
        return xp_of(x).cumprod(x, axis=dim, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x, out = self.saved("self", F), self.saved("result", F)
        if not self.ndim:
            return (grad,)
        if F.count_zeros(x) == 0:
            flipped = F.flip(F.cumsum(F.flip(out * grad, (self.dim,)), self.dim), (self.dim,))
            with _quiet():
                return (flipped / x,)
        return (F.detached(lambda g: _cumprod_grad_array(g, F.as_array(x), self.dim), grad),)


class FlipBackward0(Function):
    name = "FlipBackward0"

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.dims = dims
        return xp_of(a._data).flip(a._data, dims).copy() if dims else a._data.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.flip(grad, self.dims),)


class RepeatBackward0(Function):
    name = "RepeatBackward0"

    def forward(self, a: Tensor, repeats: tuple[int, ...]) -> Array:
        self.repeats = repeats
        self.padded = (1,) * (len(repeats) - a.ndim) + a.shape
        self.shape = a.shape
        return xp_of(a._data).tile(a._data.reshape(self.padded), repeats)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        split: list[int] = []
        for r, n in zip(self.repeats, self.padded, strict=True):
            split += [r, n]
        dims = tuple(range(0, 2 * len(self.repeats), 2))
        g = F.reshape(grad, tuple(split))
        g = F.sum(g, dims, False) if dims else g
        return (F.reshape(g, self.shape),)


def _gather_index(x: Array, index: Array, dim: int) -> tuple[Any, ...]:
    """The part of x that `index` addresses outside `dim` (gather allows a smaller index)."""
    return tuple(slice(None) if d == dim else slice(0, index.shape[d]) for d in range(x.ndim))


class GatherBackward0(Function):
    name = "GatherBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index, self.shape = dim, index._data, a.shape
        self.save("index", index)  # saved as PyTorch saves it: freed after a backward
        x = a._data
        if x.ndim == 0:
            return x[()] if index._data.ndim == 0 else x.reshape(1)[index._data]
        part = x[_gather_index(x, index._data, dim)]
        return xp_of(x).take_along_axis(part, index._data, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def scatter_add(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            if not self.shape:
                return out + g.sum()
            grid = list(xp.indices(self.index.shape, sparse=True))
            grid[self.dim] = self.index
            xp.add.at(out, tuple(grid), g)
            return out

        return (F.detached(scatter_add, grad),)


class IndexSelectBackward0(Function):
    name = "IndexSelectBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index, self.shape = dim, index._data.reshape(-1), a.shape
        self.save("index", index)  # saved as PyTorch saves it: freed after a backward
        x = a._data
        if x.ndim == 0:
            return x.reshape(1)[self.index].reshape(index._data.shape)
        return xp_of(x).take(x, self.index, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def index_add(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            if not self.shape:
                return out + g.sum()
            moved = xp.moveaxis(out, self.dim, 0)
            xp.add.at(moved, self.index, xp.moveaxis(g, self.dim, 0))
            return out

        return (F.detached(index_add, grad),)


class TrilBackward0(Function):
    name = "TrilBackward0"
    upper = False

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal = diagonal
        xp = xp_of(a._data)
        return (xp.triu if self.upper else xp.tril)(a._data, diagonal)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.triangle(grad, self.diagonal, self.upper),)


class TriuBackward0(TrilBackward0):
    name = "TriuBackward0"
    upper = True


class TraceBackward0(Function):
    name = "TraceBackward0"

    def forward(self, a: Tensor) -> Array:
        self.shape = a.shape
        return xp_of(a._data).asarray(xp_of(a._data).trace(a._data), dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        rows, cols = self.shape
        return (F.diagonal_matrix(grad, rows, cols),)


class AddmmBackward0(Function):
    """addmm(input, mat1, mat2, beta, alpha) = beta * input + alpha * (mat1 @ mat2): the fused
    op F.linear uses for 2-D inputs with a bias."""

    name = "AddmmBackward0"

    def forward(self, bias: Tensor, mat1: Tensor, mat2: Tensor, beta: float,
                alpha: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1:
            self.save("mat2", mat2)
        if need_2:
            self.save("mat1", mat1)
        self.beta, self.alpha = beta, alpha
        self.mat1_column_major = _column_major(mat1._data)
        self.mat2_column_major = _column_major(mat2._data)
        xp = xp_of(mat1._data)
        product = xp.matmul(mat1._data, mat2._data)
        if alpha != 1:
            product = product * alpha
        if beta == 0:  # the input is ignored, NaN and all
            return product
        with _quiet():
            return xp.asarray(product + (bias._data if beta == 1 else bias._data * beta),
                              dtype=product.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_bias, need_1, need_2 = self.needs_input_grad
        g_bias = g1 = g2 = None
        if need_bias:
            g_bias = grad if self.beta == 1 else grad * self.beta
        if need_1:
            mat2 = self.saved("mat2", F)
            g1 = (F.t(F.mm(mat2, F.t(grad))) if self.mat1_column_major
                  else F.mm(grad, F.t(mat2)))
            g1 = g1 if self.alpha == 1 else g1 * self.alpha
        if need_2:
            mat1 = self.saved("mat1", F)
            g2 = (F.t(F.mm(F.t(grad), mat1)) if self.mat2_column_major
                  else F.mm(F.t(mat1), grad))
            g2 = g2 if self.alpha == 1 else g2 * self.alpha
        return g_bias, g1, g2


class RollBackward0(Function):
    name = "RollBackward0"

    def forward(self, a: Tensor, shifts: tuple[int, ...], dims: tuple[int, ...]) -> Array:
        self.shifts, self.dims, self.shape = shifts, dims, a.shape
        x = a._data
        if not dims:
            return xp_of(x).roll(x.reshape(-1), shifts[0]).reshape(x.shape)
        return xp_of(x).roll(x, shifts, dims)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        back = tuple(-s for s in self.shifts)
        return (F.roll(grad, back, self.dims),)


class Atan2Backward0(Function):
    name = "Atan2Backward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        dtype = float_result_dtype(a, b).np
        return xp_of(a._data).arctan2(a._data, b._data, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        y, x = self.saved("self", F), self.saved("other", F)
        with _quiet():
            scale = grad / (x * x + y * y)
            return (scale * x if need_a else None, scale * -y if need_b else None)


class LerpBackward0(Function):
    """lerp(start, end, weight: Scalar) = start + weight * (end - start)."""

    name = "LerpBackward0"

    def forward(self, a: Tensor, b: Tensor, weight: float) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.weight = weight
        dtype = result_dtype(a, b).np
        x, y = a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)
        with _quiet():
            # PyTorch's lerp kernel: from the nearer end, so lerp(a, b, 1) is exactly b
            if abs(weight) < 0.5:
                return xp_of(x).asarray(x + weight * (y - x), dtype=dtype)
            return xp_of(x).asarray(y - (y - x) * (1 - weight), dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        return (grad * (1 - self.weight) if need_a else None,
                grad * self.weight if need_b else None)


class MishBackward0(_SavesSelf):
    name = "MishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: x * xp_of(x).tanh(xp_of(x).log1p(xp_of(x).exp(x))))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        sigmoid = F.ufunc("sigmoid", x)
        tanh_softplus = F.ufunc("tanh", -F.ufunc("logsigmoid", -x))
        return (grad * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus)),)


class HardsigmoidBackward0(_SavesSelf):
    name = "HardsigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x + 3, 0), 6) / 6)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where((x > -3) & (x < 3), grad * (1 / 6), 0.0),)


class NanToNumBackward0(_SavesSelf):
    name = "NanToNumBackward0"

    def forward(self, a: Tensor, nan: float, posinf: float | None,
                neginf: float | None) -> Array:
        self.save_input(a)
        x = a._data
        if x.dtype.kind not in "fc":
            return x.copy()
        return xp_of(x).nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where(x == x, F.where((x - x) == 0, grad, 0.0), 0.0),)


class DiagEmbedBackward0(Function):
    """diag of a vector: the matrix with it on the `diagonal`-th diagonal."""

    name = "DiagEmbedBackward0"

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal = diagonal
        return xp_of(a._data).diag(a._data, diagonal)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal(grad, self.diagonal),)


class DiagonalBackward0Copy(Function):
    """diag of a matrix: a copy of its `diagonal`-th diagonal."""

    name = "DiagonalBackward0_copy"

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal, self.shape = diagonal, a.shape
        return xp_of(a._data).diagonal(a._data, diagonal).copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal_scatter(grad, self.shape, self.diagonal),)


class MaskedSelectBackward0(Function):
    name = "MaskedSelectBackward0"

    def forward(self, a: Tensor, mask: Tensor) -> Array:
        shape = np.broadcast_shapes(a.shape, mask.shape)
        self.shape, self.input_shape = shape, a.shape
        self.save("mask", mask)
        xp = xp_of(a._data)
        return xp.broadcast_to(a._data, shape)[xp.broadcast_to(mask._data, shape)]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        mask = self.saved("mask", F)

        def scatter(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            out[xp.broadcast_to(F.as_array(mask), self.shape)] = g
            return out

        return (F.detached(scatter, grad),)


class DiagonalBackwardBackward0(Function):
    """The backward of diag(matrix) when it is differentiated again: g on a zero matrix's
    diagonal."""

    name = "DiagonalBackwardBackward0"

    def forward(self, g: Tensor, shape: Shape, k: int) -> Array:
        self.k = k
        return _array_diagonal_scatter(g._data, shape, k)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal(grad, self.k),)


def _kth_smallest(data: Array, axis: int, k: Array | int) -> Array:
    """The index of the k-th smallest along axis in the stable order (NaN sorted last); k is
    an int or an array over the reduced shape."""
    xp = xp_of(data)
    order = xp.argsort(data, axis=axis, kind="stable")
    reduced = order.shape[:axis] + order.shape[axis + 1:]
    kth = xp.broadcast_to(xp.asarray(k, dtype=xp.int64), reduced)
    picked = xp.take_along_axis(order, xp.expand_dims(kth, axis), axis=axis)
    return picked.squeeze(axis).astype(xp.int64)


class MedianBackward0(_FullExtremum):
    """median() over all elements (the lower median; NaN if any): ties share the gradient
    evenly, as for max()."""

    name = "MedianBackward0"
    reduce = "median"
    skip_nan = False

    def forward(self, a: Tensor) -> Array:
        if a.numel() == 0:
            return xp_of(a._data).asarray(xp_of(a._data).nan, dtype=a._data.dtype)
        self.save("self", a)
        self.save("result", RESULT)
        flat = a._data.reshape(-1)
        xp = xp_of(flat)
        nan = xp.isnan(flat) if flat.dtype.kind == "f" else None
        if nan is not None and bool(nan.any()):
            if not self.skip_nan:
                return flat[xp.argmax(nan)].copy()
            flat = flat[~nan]
            if flat.size == 0:
                return xp.asarray(xp.nan, dtype=a._data.dtype)
        return xp.sort(flat)[(flat.size - 1) // 2].copy()


class NanmedianBackward0(MedianBackward0):
    name = "NanmedianBackward0"
    skip_nan = True


class MedianBackward1(_DimExtremum):
    name = "MedianBackward1"
    reduce = "median"


class KthvalueBackward0(_DimExtremum):
    name = "KthvalueBackward0"
    reduce = "kthvalue"


class ModeBackward0(_DimExtremum):
    name = "ModeBackward0"
    reduce = "mode"


class XlogyBackward0(Function):
    """xlogy(x, y) = x * log(y), 0 where x is 0 (unless y is NaN)."""

    name = "XlogyBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        dtype = float_result_dtype(a, b).np
        x, y = a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)
        xp = xp_of(x)
        with _quiet():
            return xp.asarray(xp.where((x == 0) & ~xp.isnan(y), 0, x * xp.log(y)), dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_y = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        with _quiet():
            gx = grad * F.where((x == 0) & (y == y), 0.0, F.log(y)) if need_x else None
            gy = grad * x / y if need_y else None
        return (gx, gy)


class BernoulliBackward1(Function):
    """bernoulli_(p) with a number p: 0/1 draws (uniform doubles < p, PyTorch CPU's stream)
    written in place; the gradient through it is zero."""

    name = "BernoulliBackward1"

    def forward(self, a: Tensor, p: float, draws: Array) -> Array:
        xp = xp_of(a._data)
        return xp.asarray(draws < p, dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class AddcmulBackward0(Function):
    """addcmul(x, t1, t2, value) = x + value * t1 * t2."""

    name = "AddcmulBackward0"

    def forward(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1:
            self.save("tensor2", t2)
        if need_2:
            self.save("tensor1", t1)
        self.value = value
        dtype = result_dtype(a, t1, t2).np
        x, y, z = (t._data.astype(dtype, copy=False) for t in (a, t1, t2))
        with _quiet():
            return xp_of(x).asarray(x + value * y * z, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_1, need_2 = self.needs_input_grad
        g1 = grad * (self.saved("tensor2", F) * self.value) if need_1 else None
        g2 = grad * (self.saved("tensor1", F) * self.value) if need_2 else None
        return (grad if need_x else None, g1, g2)


class AddcdivBackward0(Function):
    """addcdiv(x, t1, t2, value) = x + value * t1 / t2."""

    name = "AddcdivBackward0"

    def forward(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1 or need_2:
            self.save("tensor2", t2)
        if need_2:
            self.save("tensor1", t1)
        self.value = value
        dtype = result_dtype(a, t1, t2).np
        x, y, z = (t._data.astype(dtype, copy=False) for t in (a, t1, t2))
        with _quiet():
            return xp_of(x).asarray(x + value * y / z, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_1, need_2 = self.needs_input_grad
        with _quiet():
            g1 = grad * (self.value / self.saved("tensor2", F)) if need_1 else None
            g2 = None
            if need_2:
                t1, t2 = self.saved("tensor1", F), self.saved("tensor2", F)
                g2 = -grad * (self.value * t1 / (t2 * t2))
        return (grad if need_x else None, g1, g2)


class FracBackward0(Function):
    name = "FracBackward0"

    def forward(self, a: Tensor) -> Array:
        x = a._data
        return x - xp_of(x).trunc(x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class DistBackward0(Function):
    """dist(a, b, p) = the p-norm of a - b."""

    name = "DistBackward0"

    def forward(self, a: Tensor, b: Tensor, p: float) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        self.save("result", RESULT)
        self.p = p
        dtype = result_dtype(a, b).np
        diff = xp_of(a._data).abs(a._data.astype(dtype) - b._data.astype(dtype)).reshape(-1)
        xp = xp_of(diff)
        with _quiet():
            if p == 0:
                value = (diff != 0).sum()
            elif math.isinf(p):
                value = diff.max() if p > 0 else diff.min()
            else:
                value = (diff.astype(np.float64) ** p).sum() ** (1 / p)
        return xp.asarray(value, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        d = self.saved("self", F) - self.saved("other", F)
        norm = self.saved("result", F)
        p = self.p
        if p == 0:  # PyTorch's norm backward gives no tensor for p = 0, and says so
            raise TorchRuntimeError("Expected a proper Tensor but got None (or an undefined "
                                    "Tensor in C++) for argument #0 'self'")
        with _quiet():
            if p == 1:
                g = F.sgn(d) * grad
            elif p == 2:
                g = F.where(norm == 0, d * 0, d * (grad / norm))
            elif math.isinf(p):
                at = (F.abs(d) == norm)
                g = F.sgn(d) * at * (grad / F.sum(at, None, False))
            else:
                g = F.where(norm == 0, d * 0,
                            d * F.abs(d) ** (p - 2) * (grad / norm ** (p - 1)))
        return (g if need_a else None, -g if need_b else None)


class UniformBackward0(Function):
    """uniform_(from, to) in place; its gradient is zero."""

    name = "UniformBackward0"

    def forward(self, a: Tensor, draws: Array) -> Array:
        return draws

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class NormalBackward0(UniformBackward0):
    """normal_(mean, std) in place; its gradient is zero."""

    name = "NormalBackward0"


class ConstantPadNdBackward0(Function):
    """F.pad(x, pad, value): pad (or, with negative amounts, crop) the last dimensions."""

    name = "ConstantPadNdBackward0"

    def forward(self, a: Tensor, pad: tuple[int, ...], value: float) -> Array:
        x = a._data
        xp = xp_of(x)
        pairs = [(0, 0)] * x.ndim
        for i in range(len(pad) // 2):
            pairs[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
        self.pairs = pairs
        crop = tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pairs, x.shape,
                                                                              strict=True))
        kept = x[crop]
        grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        self.inner = tuple(slice(g[0], g[0] + n) for g, n in zip(grow, kept.shape, strict=True))
        self.shape = x.shape
        out = xp.full(tuple(n + g[0] + g[1] for n, g in zip(kept.shape, grow, strict=True)),
                      value, dtype=x.dtype)
        out[self.inner] = kept
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # the gradient of the kept part, padded back with zeros where the input was cropped
        return (F.constant_pad(F.index(grad, self.inner),
                               tuple(x for lo, hi in reversed(self.pairs)
                                     for x in (max(-lo, 0), max(-hi, 0))), self.shape),)


class LogitBackward0(_SavesSelf):
    name = "LogitBackward0"

    def forward(self, a: Tensor, eps: float | None) -> Array:
        self.save_input(a)
        self.eps = eps

        def compute(x: Array) -> Array:
            xp = xp_of(x)
            if eps is not None:
                x = xp.clip(x, eps, 1 - eps)
            return xp.log(x / (1 - x))

        return _float_op(a, compute)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        with _quiet():
            g = grad / (x * (1 - x))
            if self.eps is None:
                return (F.where((x < 0) | (x > 1), g * float("nan"), g),)
            return (F.where((x < self.eps) | (x > 1 - self.eps), 0.0, g),)


def _scatter_array(base: Array, dim: int, index: Array, src: Any, add: bool = False) -> Array:
    """A copy of base with src written (or added) at index along dim (scatter / scatter_add);
    index may be smaller than base and src outside dim."""
    xp = xp_of(base)
    out = base.copy()
    grid = list(xp.indices(index.shape, sparse=True))
    grid[dim] = index
    values = src if xp.ndim(src) == 0 else src[tuple(slice(0, n) for n in index.shape)]
    if add:
        xp.add.at(out, tuple(grid), values)
    else:
        out[tuple(grid)] = values
    return out


def _index_fill_array(base: Array, dim: int, index: Array, value: Any) -> Array:
    out = base.copy()
    out[(slice(None),) * dim + (index,)] = value
    return out


class TakeBackward0(Function):
    name = "TakeBackward0"

    def forward(self, a: Tensor, index: Tensor) -> Array:
        self.save("index", index)
        self.shape = a.shape
        return a._data.reshape(-1)[index._data]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def put(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(int(np.prod(self.shape, dtype=np.int64)), dtype=g.dtype)
            xp.add.at(out, F.as_array(self.saved("index", F)).reshape(-1), g.reshape(-1))
            return out.reshape(self.shape)

        return (F.detached(put, grad),)


class IndexFillBackward0(Function):
    name = "IndexFillBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor, value: Any) -> Array:
        self.dim, self.index = dim, index._data
        return _index_fill_array(a._data, dim, index._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.detached(lambda g: _index_fill_array(g, self.dim, self.index, 0), grad),)


class ScatterBackward0(Function):
    """scatter(dim, index, src): self gets zeros where written; src gets the gathered grad."""

    name = "ScatterBackward0"

    def forward(self, a: Tensor, src: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, src._data.astype(a._data.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        g_self = F.detached(lambda g: _scatter_array(g, self.dim, self.index, 0),
                            grad) if need_self else None
        g_src = F.gather(grad, self.dim, self.saved("index", F)) if need_src else None
        return (g_self, g_src)


class ScatterBackward1(Function):
    """scatter(dim, index, value) with a number."""

    name = "ScatterBackward1"

    def forward(self, a: Tensor, dim: int, index: Tensor, value: Any) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.detached(lambda g: _scatter_array(g, self.dim, self.index, 0), grad),)


class ScatterAddBackward0(Function):
    name = "ScatterAddBackward0"

    def forward(self, a: Tensor, src: Tensor, dim: int, index: Tensor) -> Array:
        self.dim = dim
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, src._data.astype(a._data.dtype),
                              add=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        g_src = F.gather(grad, self.dim, self.saved("index", F)) if need_src else None
        return (grad if need_self else None, g_src)


class IndexAddBackward0(Function):
    name = "IndexAddBackward0"

    def forward(self, a: Tensor, source: Tensor, dim: int, index: Tensor, alpha: Any) -> Array:
        self.dim, self.alpha = dim, alpha
        self.save("index", index)
        xp = xp_of(a._data)
        out = a._data.copy()
        src = source._data.astype(a._data.dtype) * alpha if alpha != 1 else source._data
        moved = xp.moveaxis(out, dim, 0)
        xp.add.at(moved, index._data.reshape(-1), xp.moveaxis(src.reshape(
            source.shape if source.ndim else (1,)), dim if source.ndim else 0, 0))
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        g_src = None
        if need_src:
            g_src = F.index_select(grad, self.dim, self.saved("index", F))
            g_src = g_src if self.alpha == 1 else g_src * self.alpha
        return (grad if need_self else None, g_src)


class SortBackward0(Function):
    """sort's values (the indices are computed alongside, no grad); the gradient goes back
    to where each value came from."""

    name = "SortBackward0"

    def forward(self, a: Tensor, dim: int, indices: Array) -> Array:
        self.dim, self.self_sizes = dim, a.shape
        self.save("indices", Tensor._make(indices, a.device))
        if a.ndim == 0:
            return a._data.copy()
        return xp_of(a._data).take_along_axis(a._data, indices, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if not self.self_sizes:
            return (grad,)
        return (F.value_selecting_backward(grad, self.dim, self.saved("indices", F),
                                           self.self_sizes, True),)


class TopkBackward0(SortBackward0):
    name = "TopkBackward0"


# =============================================================================================
# Nodes that only appear in higher-order graphs (the backward of a backward)
# =============================================================================================


def _in_place_ok(grad: Any, t: Any) -> bool:
    """Whether `grad * t` may be written into the temporary `t` (a NumPy array of the result's
    shape and dtype): the same operations, one allocation instead of one per operation."""
    return (t.__class__ is np.ndarray and grad.__class__ is np.ndarray and t.ndim > 0
            and grad.shape == t.shape and grad.dtype == t.dtype)


def _tanh_backward_array(grad: Array, y: Array) -> Array:
    t = _times(y, y)
    if _in_place_ok(grad, t):
        elementwise(np.subtract, 1, t, out=t)
        return elementwise(np.multiply, grad, t, out=t)
    return grad * (1 - t)


def _sigmoid_backward_array(grad: Array, y: Array) -> Array:
    t = elementwise(np.subtract, 1, y) if y.__class__ is np.ndarray else 1 - y
    if _in_place_ok(grad, t):
        elementwise(np.multiply, t, y, out=t)
        return elementwise(np.multiply, grad, t, out=t)
    return grad * (t * y)


def _threshold_backward_array(grad: Array, y: Array, threshold: float) -> Array:
    xp = xp_of(grad)
    return xp.where(y <= threshold, xp.zeros((), dtype=grad.dtype), grad)


def _softmax_backward_array(grad: Array, y: Array, dim: int) -> Array:
    if y.ndim == 0:
        return grad * 0
    return y * (grad - (grad * y).sum(axis=dim, keepdims=True))


def _log_softmax_backward_array(grad: Array, y: Array, dim: int) -> Array:
    if y.ndim == 0:
        return grad * 0
    return grad - xp_of(y).exp(y) * grad.sum(axis=dim, keepdims=True)


def _mse_backward_array(grad: Array, x: Array, t: Array, reduction: str) -> Array:
    scale = 2.0 / x.size if reduction == "mean" and x.size else 2.0
    with _quiet():
        return (scale * (x - t)) * grad


class TanhBackwardBackward0(Function):
    name = "TanhBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor) -> Array:
        self.save("grad_output", grad)
        self.save("output", result)
        return _tanh_backward_array(grad._data, result._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        return (
            F.tanh_backward(g, y) if a else None,
            g * -2.0 * y * self.saved("grad_output", F) if b else None,
        )


class SigmoidBackwardBackward0(Function):
    name = "SigmoidBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor) -> Array:
        self.save("grad_output", grad)
        self.save("output", result)
        return _sigmoid_backward_array(grad._data, result._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        return (
            F.sigmoid_backward(g, y) if a else None,
            g * self.saved("grad_output", F) * (-2.0 * y + 1.0) if b else None,
        )


class ThresholdBackwardBackward0(Function):
    name = "ThresholdBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor, threshold: float) -> Array:
        self.threshold = threshold
        self.save("self", result)
        return _threshold_backward_array(grad._data, result._data, threshold)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("self", F)
        return (
            F.threshold_backward(g, y, self.threshold) if a else None,
            F.zeros_like(g) if b else None,
        )


class SoftmaxBackwardDataBackward0(Function):
    name = "SoftmaxBackwardDataBackward0"

    def forward(self, grad: Tensor, result: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("grad_output", grad)
        self.save("output", result)
        return _softmax_backward_array(grad._data, result._data, dim)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        go = self.saved("grad_output", F)
        ga = F.softmax_backward(g, y, self.dim) if a else None
        gb = None
        if b:
            gb = g * go - g * F.sum(go * y, (self.dim,), True) - go * F.sum(g * y, (self.dim,),
                                                                           True)
        return ga, gb


class LogSoftmaxBackwardDataBackward0(Function):
    name = "LogSoftmaxBackwardDataBackward0"

    def forward(self, grad: Tensor, result: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("grad_output", grad)
        self.save("output", result)
        return _log_softmax_backward_array(grad._data, result._data, dim)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        go = self.saved("grad_output", F)
        ga = (g - F.sum(g * F.exp(y), (self.dim,), True)) if a else None
        gb = (-g * F.exp(y) * F.sum(go, (self.dim,), True)) if b else None
        return ga, gb


class MseLossBackwardBackward0(Function):
    name = "MseLossBackwardBackward0"

    def forward(self, grad: Tensor, x: Tensor, t: Tensor, reduction: str) -> Array:
        self.reduction = reduction
        self.save("grad_output", grad)
        self.save("self", x)
        self.save("target", t)
        dtype = result_dtype(grad, x, t)
        return _mse_backward_array(grad._data, x._data, t._data, reduction).astype(dtype.np)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        go = self.saved("grad_output", F)
        scale = 2.0 / _numel(x.shape) if self.reduction == "mean" else 2.0
        g_grad = None
        if need_grad:
            g_grad = F.sum(g * (scale * (x - t)), None, False) if self.reduction != "none" \
                else g * (scale * (x - t))
        g_x = (scale * go) * g if need_x else None
        g_t = -(scale * go) * g if need_t else None
        return g_grad, g_x, g_t


def _numel(shape: Shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _nll_backward_array(grad: Array, target: Array, node: NllLossBackward0,
                        shape: Shape) -> Array:
    xp = xp_of(grad)
    out = xp.zeros(shape, dtype=grad.dtype)
    flat = out if len(shape) == 2 else out.reshape(1, -1)
    t = target.reshape(-1)
    valid = t != node.ignore_index
    rows = xp.arange(flat.shape[0])[valid]
    cols = t[valid]
    w = node.weight[cols].astype(grad.dtype)
    if node.reduction == "none":
        g = grad.reshape(-1)[valid]
    elif node.reduction == "sum":
        g = grad
    else:
        with _quiet():
            g = grad / node.total_weight
    flat[rows, cols] = -w * g
    return out


class NllLossBackwardBackward0(Function):
    name = "NllLossBackwardBackward0"

    def forward(self, grad: Tensor, x: Tensor, target: Tensor, node: Any) -> Array:
        # edges: grad_output and self; the target is not differentiable
        self.node = node
        self.save("target", target)
        return _nll_backward_array(grad._data, target._data, node, x.shape)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        target = self.saved("target", F)
        t = target._data if isinstance(target, Tensor) else target
        node = self.node
        g_grad = F.detached(lambda v: _nll_pick(v, t, node), g) if a else None
        return g_grad, (F.zeros_like(g) if b else None)


def _nll_pick(g: Array, target: Array, node: Any) -> Array:
    flat = g if g.ndim == 2 else g.reshape(1, -1)
    t = target.reshape(-1)
    xp = xp_of(g)
    valid = t != node.ignore_index
    safe = xp.where(valid, t, 0)
    w = xp.where(valid, node.weight[safe], 0).astype(g.dtype)
    picked = -flat[xp.arange(flat.shape[0]), safe] * w
    if node.reduction == "none":
        return picked if g.ndim == 2 else picked.reshape(())
    total = picked.sum(dtype=g.dtype)
    with _quiet():
        return xp.asarray(total if node.reduction == "sum" else total / node.total_weight)


class _ViewScatter(Function):
    """select_backward / slice_backward: the gradient placed into zeros of the input's shape.
    Its own backward takes the same view of the incoming gradient."""

    def forward(self, grad: Tensor, shape: Shape, view_fn: Callable[[Array], Array],
                view_op: Callable[[Tensor], Tensor]) -> Array:
        self.view_fn_, self.view_op = view_fn, view_op
        return _array_scatter_view(grad._data, shape, view_fn)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        return (self.view_op(g) if F.as_tensor else self.view_fn_(g),)


class SelectBackwardBackward0(_ViewScatter):
    name = "SelectBackwardBackward0"


class SliceBackwardBackward0(_ViewScatter):
    name = "SliceBackwardBackward0"


class StridedView(Function):
    """Any view given by its view_fn (the views of views that in-place changes leave behind):
    the differentiable forward of AsStridedBackward0's formula."""

    name = "AsStridedBackward0"
    is_view = True

    def forward(self, a: Tensor, view_fn: Callable[[Array], Array]) -> Array:
        self.view_fn_, self.base_shape = view_fn, a.shape
        return view_fn(a._data)

    def view_fn(self, array: Array) -> Array:
        return self.view_fn_(array)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.view_scatter(grad, self.base_shape, self.view_fn_),)


class StridedScatter(Function):
    """AsStridedBackward0's formula: the gradient placed into zeros of the base's shape."""

    name = "AsStridedScatterBackward0"

    def forward(self, grad: Tensor, shape: Shape, view_fn: Callable[[Array], Array]) -> Array:
        self.view_fn_ = view_fn
        return _array_scatter_view(grad._data, shape, view_fn)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (StridedView.apply(g, view_fn=self.view_fn_),)
        return (self.view_fn_(g),)


class IndexPutImplBackward0(Function):
    """The gradient of indexing placed (accumulating) into zeros: IndexBackward0's formula,
    `_index_put_impl_(zeros, indices, grad, accumulate=True)` (edges: the zeros, the values)."""

    name = "IndexPutImplBackward0"

    def forward(self, zeros: Tensor, grad: Tensor, key: tuple[Any, ...]) -> Array:
        self.key = key
        return _array_index_put_acc(grad._data, zeros.shape, key)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (g if a else None, F.index(g, self.key) if b else None)


class ValueSelectingBackward(Function):
    """max(dim)/min(dim)'s backward: `zeros.scatter(dim, indices, grad)` (edges: the zeros,
    the gradient unsqueezed at dim), as value_selecting_reduction_backward."""

    name = "ScatterBackward0"

    def forward(self, zeros: Tensor, grad: Tensor, dim: int, indices: Array) -> Array:
        self.dim, self.indices = dim, indices
        return _array_value_selecting(grad._data, dim, indices, zeros.shape, True)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.detached(lambda v: _array_scatter_fill(v, self.dim, self.indices), g) if a else None,
            F.detached(lambda v: _gather(v, self.dim, self.indices, True), g) if b else None,
        )


def _array_scatter_fill(g: Array, dim: int, indices: Array) -> Array:
    out = g.copy()
    xp_of(out).put_along_axis(out, indices, 0, axis=dim)
    return out


def _gather(g: Array, dim: int, indices: Array, keepdim: bool) -> Array:
    idx = indices if keepdim else xp_of(indices).expand_dims(indices, dim)
    out = xp_of(g).take_along_axis(g, idx, axis=dim)
    return out if keepdim else out.squeeze(dim)


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
        grad = torch_sum(grad, axes, True, grad.dtype)
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


def _array_index_put_acc(grad: Array, shape: Shape, key: tuple[Any, ...]) -> Array:
    result = xp_of(grad).zeros(shape, dtype=grad.dtype)
    xp_of(grad).add.at(result, key, grad)
    return result


def _array_index_fill_zero(grad: Array, key: tuple[Any, ...]) -> Array:
    result = grad.copy()
    result[key] = 0
    return result


def _array_value_selecting(grad: Array, dim: int, indices: Array, shape: Shape,
                           keepdim: bool) -> Array:
    xp = xp_of(grad)
    result = xp.zeros(shape, dtype=grad.dtype)
    idx = indices if keepdim else xp.expand_dims(indices, dim)
    g = grad if keepdim else xp.expand_dims(grad, dim)
    xp.put_along_axis(result, idx, g, axis=dim)
    return result


def _array_sum(g: Array, dims: tuple[int, ...] | None, keepdim: bool) -> Array:
    axis = dims if dims else None
    dtype = g.dtype if g.dtype.kind == "f" else np.int64
    return xp_of(g).asarray(torch_sum(g, axis, keepdim, dtype))


def _array_mean(g: Array, dims: tuple[int, ...] | None, keepdim: bool) -> Array:
    axis = dims if dims else None
    with _quiet():
        return xp_of(g).asarray(_mean_array(g, axis, keepdim, g.dtype))


def _array_masked_fill(g: Array, mask: Array, value: float) -> Array:
    xp = xp_of(g)
    shape = np.broadcast_shapes(g.shape, mask.shape)
    return xp.where(mask, xp.zeros((), dtype=g.dtype) + value, xp.broadcast_to(g, shape))


def _array_narrow(g: Array, dim: int, start: int, length: int) -> Array:
    key = (slice(None),) * dim + (slice(start, start + length),)
    return g[key]


def _array_select(g: Array, dim: int, index: int) -> Array:
    return g[(slice(None),) * dim + (index, Ellipsis)]


def _array_to_copy(g: Array, dtype: DType | None, device: str) -> Array:
    if dtype is not None and g.dtype != dtype.np:
        g = g.astype(dtype.np)
    return backend.to_device(g, device)


class _Namespace:
    """Fill ArrayOps and TensorOps with one call per helper."""

    @staticmethod
    def install(target: type, **helpers: Callable[..., Any]) -> None:
        for name, helper in helpers.items():
            setattr(target, name, staticmethod(helper))


_Namespace.install(
    ArrayOps,
    expand=lambda g, shape: xp_of(g).broadcast_to(g, shape),
    reshape=lambda g, shape: g.reshape(shape),
    t=lambda g: g.T,
    transpose=lambda g, d0, d1: xp_of(g).swapaxes(g, d0, d1) if g.ndim else g,
    permute=lambda g, dims: xp_of(g).transpose(g, dims),
    squeeze=lambda g, d: g.reshape(g.shape[:d] + g.shape[d + 1:]) if g.ndim else g,
    log=lambda g: xp_of(g).log(g),
    exp=lambda g: xp_of(g).exp(g),
    sin=lambda g: xp_of(g).sin(g),
    cos=lambda g: xp_of(g).cos(g),
    abs=lambda g: xp_of(g).abs(g),
    sgn=_sign_array,
    isnan=lambda g: xp_of(g).isnan(g),
    to_bool=lambda g: bool(g),
    count_true=lambda g: int(g.sum()),
    count_zeros=lambda g: int((g == 0).sum()),
    floor_divide=lambda a, b: xp_of(a).floor_divide(a, b),
    trunc_divide=lambda a, b: xp_of(a).trunc(a / b),
    where=lambda c, a, b: xp_of(c).where(c, a, b),
    masked_fill=_array_masked_fill,
    evenly_distribute=lambda g, x, mask: xp_of(x).where(mask, g / int(mask.sum()),
                                                        xp_of(x).zeros((), dtype=g.dtype)),
    zeros_like=lambda g: xp_of(g).zeros_like(g),
    zeros=lambda shape, like: xp_of(like).zeros(shape, dtype=like.dtype),
    cast=lambda g, dtype: g.astype(dtype.np),
    to_copy=_array_to_copy,
    sum_to=_array_sum_to,
    sum=_array_sum,
    mean=_array_mean,
    unsqueeze_dims=_array_unsqueeze_dims,
    mm=lambda a, b: a @ b,
    mv=lambda a, b: a @ b,
    bmm=lambda a, b: a @ b,
    outer=lambda a, b: xp_of(a).outer(a, b),
    narrow=_array_narrow,
    select=_array_select,
    view_backward=lambda g, shape, view_fn, kind, args: _array_scatter_view(g, shape, view_fn),
    view_scatter=_array_scatter_view,
    index_put_acc=_array_index_put_acc,
    index_fill_zero=_array_index_fill_zero,
    index=lambda g, key: g[key],
    value_selecting_backward=lambda g, dim, idx, shape, keepdim: _array_value_selecting(
        g, dim, idx, shape, keepdim),
    tanh_backward=_tanh_backward_array,
    sigmoid_backward=_sigmoid_backward_array,
    threshold_backward=_threshold_backward_array,
    softmax_backward=_softmax_backward_array,
    log_softmax_backward=_log_softmax_backward_array,
    mse_loss_backward=_mse_backward_array,
    nll_loss_backward=lambda g, x, target, node: _nll_backward_array(g, target, node, x.shape),
    detached=lambda fn, x: fn(x),
    ufunc=lambda name, g: _ARRAY_UFUNCS[name](g) if name in _ARRAY_UFUNCS else getattr(
        xp_of(g), name)(g),
    flip=lambda g, dims: xp_of(g).flip(g, dims),
    roll=lambda g, shifts, dims: xp_of(g).roll(g, shifts, dims) if dims else xp_of(g).roll(
        g.reshape(-1), shifts[0]).reshape(g.shape),
    cumsum=lambda g, dim: xp_of(g).cumsum(g, axis=dim),
    triangle=lambda g, k, upper: (xp_of(g).triu if upper else xp_of(g).tril)(g, k),
    diagonal_matrix=lambda g, rows, cols: _array_diagonal_scatter(
        xp_of(g).broadcast_to(g, (min(rows, cols),)), (rows, cols), 0),
    as_operand=lambda t: t._data,
    as_array=lambda t: t,
    gather=lambda g, dim, index: xp_of(g).take_along_axis(
        g[tuple(slice(None) if d == dim else slice(0, index.shape[d]) for d in range(g.ndim))],
        index, axis=dim),
    index_select=lambda g, dim, index: xp_of(g).take(g, index.reshape(-1), axis=dim),
    constant_pad=lambda g, pad, shape: xp_of(g).pad(g, [(0, 0)] * (g.ndim - len(pad) // 2) + [
        (pad[i], pad[i + 1]) for i in range(0, len(pad), 2)][::-1]),
    diagonal=lambda g, k: xp_of(g).diagonal(g, k).copy(),
    diagonal_scatter=_array_diagonal_scatter,
    prod_others=_exclusive_products,
    view_split=_array_view_split,
    view_fill=_array_view_fill,
)


class ScalarOverloads:
    """While a backward formula runs under create_graph, `tensor * number` is PyTorch's C++
    `mul(Tensor, Scalar)` (MulBackward1), not Python's wrapped-number MulBackward0."""

    active: bool = False

    @classmethod
    @contextmanager
    def enabled(cls) -> Iterator[None]:
        previous = cls.active
        cls.active = True
        try:
            yield
        finally:
            cls.active = previous
