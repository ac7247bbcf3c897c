"""Nodes of binary arithmetic: add, sub, mul, div, remainder, pow, addcmul, lerp ..."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import dtypes, threads
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions import complex_kernels, pointwise
from gradsh.engine.functions.common import (
    _quiet,
    cj,
    _scalar_op,
    _times,
    broadcast_shapes,
    iterator_layout,
    laid_out,
    fit_int,
    float_result_dtype,
    fma64,
    not_implemented_for,
    operand,
    result_dtype,
    xp_of,
    xp_of_operands,
)
from gradsh.engine.functions.half_opmath import add_scaled as half_add_scaled
from gradsh.engine.functions.half_opmath import addc_opmath, bfloat16_pow, scalar_opmath
from gradsh.engine.tensor import RESULT, Array, ArrayOps, Function, Tensor
from gradsh.engine.threads import elementwise
from gradsh.engine.vecmath.fp import fma32

__all__ = [
    "AddBackward0", "AddBackward1", "SubBackward0", "SubBackward1", "RsubBackward1",
    "MulBackward0", "MulBackward1", "DivBackward0", "DivBackward1", "DivBackward2",
    "FloorDivideNotImplemented",
    "RemainderBackward0", "RemainderBackward1", "FmodBackward0", "FmodBackward1", "PowBackward0",
    "PowBackward1", "PowBackward2", "Atan2Backward0", "LerpBackward0", "XlogyBackward0",
    "AddcmulBackward0", "AddcdivBackward0", "LinalgCrossBackward0", "LerpBackward1",
]


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)  # (NumPy's one instance of each)
_C128 = np.dtype(np.complex128)  # a wrapped Python complex's


def _as_float32(x: Any) -> Any:
    """A NumPy operand as float32 (a PyTorch kernel's common dtype); others unchanged."""
    return x.astype(np.float32, copy=False) if x.__class__ is np.ndarray else x


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
    if dtype.np in dtypes.REDUCED_FLOAT_NP and xp is np and isinstance(x, np.ndarray) and \
            isinstance(y, np.ndarray):
        return half_add_scaled(x, y, a, dtype)
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
        if dtype is dtypes.float32 and x.__class__ is np.ndarray and y.__class__ is np.ndarray \
                and x.dtype == np.float32 and y.dtype == np.float32:
            # the kernel's fmadd (opmath float, alpha rounded to float first), in one pass
            return fma32(y, np.float32(a), x)
        # NOTE: float32 operands multiply exactly in float64, so one rounding to float32
        # matches the kernel's fmadd (opmath float, alpha rounded to float first) but for a
        # float64 sum that lands halfway between two floats (rare; fma32 above decides those).
        alpha32 = float(np.float32(a))
        exact = np.asarray(x, dtype=np.float64) + alpha32 * np.asarray(y, dtype=np.float64)
        return exact.astype(np.float32).astype(dtype.np, copy=False)


class AddBackward0(Function):
    node_name = "AddBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        x, y = a._data, b._data
        self.alpha = alpha
        if b._wrapped and alpha == 1 and not a._wrapped and x.__class__ is np.ndarray and \
                (x.dtype is _F32 or x.dtype is _F64) and x.size < threads.MIN_ELEMENTS \
                and y.dtype is not _C128:
            # `x + 0.5` on a small float tensor: what the general path below does for it
            return np.add(x, y.item(), dtype=x.dtype, out=...)  # (out=...: an array if 0-d)
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        dtype = result_dtype(a, b)
        return _add_scaled(operand(a, dtype), operand(b, dtype), alpha, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        scaled = grad if self.alpha == 1 else grad * self.alpha
        return (grad if a else None, scaled if b else None)


class AddBackward1(Function):
    """add(Tensor, Scalar): the overload C++ formulas use (`1 + result.pow(2)`), one input."""

    node_name = "AddBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        return _scalar_op(a._data, "add", other * alpha, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class SubBackward0(Function):
    node_name = "SubBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: float | int = 1) -> Array:
        x, y = a._data, b._data
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        self.alpha = alpha
        dtype = result_dtype(a, b)
        return _add_scaled(operand(a, dtype), operand(b, dtype), alpha, dtype, subtract=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        scaled = -grad if self.alpha == 1 else -grad * self.alpha
        return (grad if a else None, scaled if b else None)


class SubBackward1(Function):
    """sub(Tensor, Scalar), one input."""

    node_name = "SubBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        return _scalar_op(a._data, "subtract", other * alpha, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class RsubBackward1(Function):
    """`number - tensor`: PyTorch's rsub with a Scalar `other`, one input."""

    node_name = "RsubBackward1"

    def forward(self, a: Tensor, other: float | int, alpha: float | int = 1) -> Array:
        self.alpha = alpha
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        x = operand(a) if alpha == 1 else operand(a) * alpha
        with _quiet():
            return xp_of(a._data).subtract(fit_int(other, dtype), x, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad if self.alpha == 1 else -grad * self.alpha,)


class MulBackward0(Function):
    node_name = "MulBackward0"
    optional_saved = ("other", "self")

    def forward(self, a: Tensor, b: Tensor) -> Array:
        x, y = a._data, b._data
        need_a, need_b = self.needs_input_grad
        if b._wrapped and not a._wrapped and x.__class__ is np.ndarray and \
                (x.dtype is _F32 or x.dtype is _F64) and x.size < threads.MIN_ELEMENTS \
                and y.dtype is not _C128:
            # `x * 0.5` on a small float tensor: what the general path below does for it
            if need_a:
                self.save("other", b)
            if need_b:
                self.save("self", a)
            return np.multiply(x, y.item(), dtype=x.dtype, out=...)
        if x.shape != y.shape:
            broadcast_shapes(a, b)
        if need_a:
            self.save("other", b)
        if need_b:
            self.save("self", a)
        if y.size == 1 and not a._wrapped:
            out = scalar_opmath(np.multiply, x, operand(b), result_dtype(a, b))
            if out is not None:
                return out
        xp = np if x.__class__ is np.ndarray else xp_of(x)
        dtype = result_dtype(a, b)
        left, right = operand(a, dtype), operand(b, dtype)
        if xp is np:
            if dtype.category == 3:
                return complex_kernels.mul(left, right, dtype.np)
            if x.size < threads.MIN_ELEMENTS and y.size < threads.MIN_ELEMENTS:
                return np.multiply(left, right, dtype=dtype.np)
            return elementwise(np.multiply, left, right, dtype=dtype.np)
        return xp.multiply(left, right, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            _times(grad, cj(self.saved("other", F))) if a else None,
            _times(grad, cj(self.saved("self", F))) if b else None,
        )


class MulBackward1(Function):
    """mul(Tensor, Scalar): saves nothing but the number."""

    node_name = "MulBackward1"

    def forward(self, a: Tensor, other: float | int) -> Array:
        self.other = other
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        out = scalar_opmath(np.multiply, a._data, other, dtype)
        if out is not None:
            return out
        return _scalar_op(a._data, "multiply", other, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_times(grad, cj(self.other)),)


class DivBackward0(Function):
    node_name = "DivBackward0"
    optional_saved = ("other", "self")

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        if self.needs_input_grad[0] or self.needs_input_grad[1]:
            self.save("other", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        dtype = float_result_dtype(a, b)
        if b._data.size == 1 and not a._wrapped:
            out = scalar_opmath(np.true_divide, a._data, operand(b), dtype)
            if out is not None:
                return out
        with _quiet():
            return xp_of(a._data).true_divide(operand(a), operand(b), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        other = self.saved("other", F)
        with _quiet():
            ga = _over(grad, cj(other)) if a else None
            gb = -grad * cj((self.saved("self", F) / other) / other) if b else None
        return ga, gb


class DivBackward1(Function):
    """div(Tensor, Scalar), one input."""

    node_name = "DivBackward1"

    def forward(self, a: Tensor, other: float | int) -> Array:
        self.other = other
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        if not dtype.is_floating_point:
            dtype = dtypes.default_float()
        out = scalar_opmath(np.true_divide, a._data, other, dtype)
        if out is not None:
            return out
        with _quiet():
            return xp_of(a._data).true_divide(a._data, other, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_over(grad, cj(self.other)),)


def _over(grad: Any, other: Any) -> Any:
    """`grad / other` for a formula, a number divisor kept in float32 for float16 and
    bfloat16 gradients (div's reduced-float branch)."""
    if other.__class__ is float and grad.__class__ is np.ndarray:
        out = scalar_opmath(np.true_divide, grad, other, dtypes.from_numpy(grad.dtype))
        if out is not None:
            return out
    return grad / other


def _check_integer_division(a: Tensor, b: Tensor, dtype: DType) -> None:
    if dtype.category < 2:
        divisor = operand(b, dtype)
        if (isinstance(divisor, (int, float)) and divisor == 0) or (
            not isinstance(divisor, (int, float)) and bool((divisor == 0).any())
        ):
            raise TorchRuntimeError("ZeroDivisionError")


class FloorDivideNotImplemented(Function):
    """floor_divide has no derivative: PyTorch records a node that raises when reached, with
    an edge for each operand that requires grad (and none for the others). The inputs are those
    operands; `left` and `right` are the operands themselves."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, *inputs: Tensor, left: Tensor, right: Tensor) -> Array:
        return iterator_layout(self._quotient(left, right), left._data, right._data)

    def _quotient(self, left: Tensor, right: Tensor) -> Array:
        broadcast_shapes(left, right)
        dtype = result_dtype(left, right)
        if dtype is dtypes.bool_:
            raise not_implemented_for("div_floor_cpu", dtype)
        _check_integer_division(left, right, dtype)
        if right._data.size == 1 and not left._wrapped:
            out = scalar_opmath(np.floor_divide, left._data, operand(right), dtype)
            if out is not None:
                return out
        with _quiet():
            return np.floor_divide(operand(left, dtype), operand(right, dtype), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::floor_divide is not implemented")


class DivBackward2(DivBackward0):
    """div(a, b, rounding_mode="floor" | "trunc"): the quotient rounded down (as floor_divide)
    or toward zero; derivatives.yaml gives both operands `grad * 0`. With rounding_mode=None
    given, DivBackward0's true division under this name."""

    node_name = "DivBackward2"
    rounding_mode: str | None = None

    def forward(self, a: Tensor, b: Tensor, rounding_mode: str | None = None) -> Array:
        if rounding_mode is None:
            return super().forward(a, b)
        self.rounding_mode = rounding_mode
        broadcast_shapes(a, b)
        dtype = result_dtype(a, b)
        if dtype is dtypes.bool_:
            raise not_implemented_for(f"div_{rounding_mode}_cpu", dtype)
        _check_integer_division(a, b, dtype)
        left, right = operand(a, dtype), operand(b, dtype)
        with _quiet():
            if rounding_mode == "floor":
                return np.floor_divide(left, right, dtype=dtype.np)
            if dtype.category == 2:
                return np.trunc(np.divide(left, right, dtype=dtype.np))
            quotient = np.floor_divide(left, right, dtype=dtype.np)  # then toward zero
            inexact = (quotient * right != left) & ((np.asarray(left) < 0) != (right < 0))
            return quotient + inexact.astype(dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if self.rounding_mode is None:
            return super().backward(F, grad)
        need_a, need_b = self.needs_input_grad
        return (grad * 0 if need_a else None, grad * 0 if need_b else None)


def _scalar_division(a: Tensor, other: float | int, ufunc: str) -> Array:
    dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
    if dtype is dtypes.bool_:
        raise not_implemented_for(f"{ufunc}_cpu", dtype)
    other = fit_int(other, dtype)
    if dtype.category < 2 and other == 0:
        raise TorchRuntimeError("ZeroDivisionError")
    with _quiet():
        if ufunc == "remainder":
            return _remainder(a._data, other, dtype)
        return getattr(xp_of(a._data), ufunc)(a._data, other, dtype=dtype.np)


def _remainder(left: Any, right: Any, dtype: DType) -> Array:
    """remainder as PyTorch's CPU kernel computes it: for floats fmod, moved into the divisor's
    sign when they differ, so that a zero keeps fmod's sign (2. % -2 is 0., NumPy's -0.)."""
    xp = xp_of_operands(left, right)
    if dtype.category < 2:
        return xp.remainder(left, right, dtype=dtype.np)
    mod = xp.fmod(left, right, dtype=dtype.np)
    adjust = (mod != 0) & ((xp.asarray(right) < 0) != (mod < 0))
    return xp.where(adjust, mod + right, mod).astype(dtype.np, copy=False)


class RemainderBackward0(Function):
    """remainder(Tensor, Scalar): the gradient passes unchanged."""

    node_name = "RemainderBackward0"

    def forward(self, a: Tensor, other: float | int) -> Array:
        return _scalar_division(a, other, "remainder")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class RemainderBackward1(Function):
    """remainder(Tensor, Tensor)."""

    node_name = "RemainderBackward1"

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
            return _remainder(operand(a, dtype), operand(b, dtype), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        gb = None
        if b:
            x, y = self.saved("self", F), self.saved("other", F)
            with _quiet():
                gb = -grad * F.floor_divide(x, y)
        return (grad if a else None, gb)


class _RemainderScalarTensor(Function):
    """`number % tensor`: not differentiable in PyTorch (its node raises)."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, a: Tensor, other: bool | int | float) -> Any:
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [other])
        if dtype.category < 2 and bool((a._data == 0).any()):
            raise TorchRuntimeError("ZeroDivisionError")
        if dtype.category == 1 and isinstance(other, int):  # the number cast (wrapped) first
            other = dtype.np.type(np.array(other, dtype=np.int64).astype(dtype.np))
        with np.errstate(all="ignore"):
            return _remainder(other, a._data, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::remainder is not implemented")


class FmodBackward0(Function):
    """fmod(Tensor, Scalar)."""

    node_name = "FmodBackward0"

    def forward(self, a: Tensor, other: float | int) -> Array:
        return _scalar_division(a, other, "fmod")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class FmodBackward1(Function):
    """fmod(Tensor, Tensor): other's gradient is -grad * trunc(self / other)."""

    node_name = "FmodBackward1"

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
            return xp_of(a._data).fmod(operand(a, dtype), operand(b, dtype), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        gb = None
        if b:
            x, y = self.saved("self", F), self.saved("other", F)
            with _quiet():
                gb = -grad * F.trunc_divide(x, y)
        return (grad if a else None, gb)


def _check_integer_power(a: Tensor, exponent: Any, dtype: DType) -> None:
    if dtype.category == 1 and isinstance(exponent, int) and exponent < 0:
        raise TorchRuntimeError("Integers to negative integer powers are not allowed.")


class PowBackward0(Function):
    """`tensor ** number`: the exponent is a Scalar, not an input."""

    node_name = "PowBackward0"

    def forward(self, a: Tensor, exponent: float | int) -> Array:
        self.exponent = exponent
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = dtypes.result_type([(a.dtype, a._data.ndim)], [exponent])
        if dtype is dtypes.bool_:  # x ** True is x, x ** False is all True
            return a._data.copy() if exponent else xp_of(a._data).ones_like(a._data)
        _check_integer_power(a, exponent, dtype)
        if dtype in (dtypes.float32, dtypes.float64) and a._data.__class__ is np.ndarray:
            exact = pointwise.pow_scalar(a._data.astype(dtype.np, copy=False), exponent)
            if exact is not None:
                return exact
        if dtype is dtypes.bfloat16 and a._data.__class__ is np.ndarray:
            return bfloat16_pow(a._data.astype(dtype.np, copy=False), exponent)
        if dtype.category == 3 and a._data.__class__ is np.ndarray:
            exact = complex_kernels.pow_scalar(a._data.astype(dtype.np, copy=False), exponent)
            if exact is not None:
                return exact
        with _quiet():
            return xp_of(a._data).power(operand(a), exponent, dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # pow_backward: grad * (exponent * self.pow(exponent - 1)), zeros where exponent == 0
        p = self.exponent
        if p == 0:
            return (F.zeros_like(grad),)
        x = self.saved("self", F)
        exact = None if F.as_tensor else pointwise.pow_backward(grad, x, p)
        if exact is not None:
            return (exact,)
        if not F.as_tensor and x.dtype == dtypes.BF16_NP:
            # bfloat16's pow kernel, and the number factor kept in float32
            return (grad * _times(bfloat16_pow(x, p - 1), float(p)),)
        with _quiet():
            return (grad * (p * x ** (p - 1)),)


class PowBackward1(Function):
    """`tensor ** tensor`."""

    node_name = "PowBackward1"

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
                out = _integer_pow(operand(a, dtype), operand(b, dtype), dtype)
                if out is not None:
                    return out
            if dtype is dtypes.float32:
                exact = pointwise.pow_tensor(_as_float32(operand(a)), _as_float32(operand(b)))
                if exact is not None:
                    return exact
            if dtype is dtypes.float64 and operand(a).__class__ is np.ndarray \
                    and operand(b).__class__ is np.ndarray:
                exact = pointwise.pow_tensor(operand(a).astype(np.float64, copy=False),
                                             operand(b).astype(np.float64, copy=False))
                if exact is not None:
                    return exact
            return xp_of(a._data).power(operand(a, dtype), operand(b, dtype), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x = self.saved("self", F)
        p = self.saved("exponent", F)
        if not F.as_tensor and ((pointwise.is_float32(x) and pointwise.is_float32(p)) or (
                pointwise.is_float64(x) and pointwise.is_float64(p))):
            return self._float32_backward(grad, x, p, a, b)
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

    def _float32_backward(self, grad: Array, x: Array, p: Array, need_a: bool,
                          need_b: bool) -> tuple[Any, ...]:
        """pow_backward_self and pow_backward_exponent on float32 (or float64) arrays, the pow
        and log as PyTorch's kernels compute them."""
        kind = x.dtype.type
        zero = kind(0.0)
        ga = gb = None
        if need_a:
            base = pointwise.pow_tensor(x, np.asarray(p - kind(1), kind))
            ga = np.where(p == 0.0, zero, grad * (p * base))
        if need_b:
            result = self.saved("result", ArrayOps)
            gb = grad * np.where((x == 0.0) & (p >= 0), zero,
                                 result * pointwise.unary("log", x))
        return ga, gb


def _integer_pow(base: Any, exponents: Any, dtype: DType) -> Array | None:
    """PyTorch's integer pow where an exponent is negative (x ** negative is 1 for x == 1,
    +-1 for x == -1, else 0; NumPy refuses it); None when none is, for NumPy's power."""
    xp = xp_of_operands(base, exponents)
    if not bool(xp.any(xp.asarray(exponents) < 0)):
        return None
    base = xp.asarray(base, dtype=dtype.np)
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


class PowBackward2(Function):
    """`number ** tensor`."""

    node_name = "PowBackward2"

    def forward(self, exponent: Tensor, base: float | int) -> Array:
        self.base = base
        if self.needs_input_grad[0]:
            self.save("exponent", exponent)
            self.save("result", RESULT)
        dtype = dtypes.result_type([(exponent.dtype, exponent._data.ndim)], [base])
        if dtype is dtypes.bool_:
            raise not_implemented_for("pow", dtype)
        if dtype in (dtypes.float32, dtypes.float64) and isinstance(base, (int, float)) \
                and base != 1 and operand(exponent).__class__ is np.ndarray:
            exact = pointwise.rpow(base, operand(exponent).astype(dtype.np, copy=False))
            if exact is not None:
                return exact
        with _quiet():
            if dtype.category == 1:  # `2 ** int_tensor` with negative exponents
                out = _integer_pow(fit_int(base, dtype), operand(exponent, dtype), dtype)
                if out is not None:
                    return out
            return xp_of(exponent._data).power(base, operand(exponent), dtype=dtype.np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        with _quiet():
            if self.base == 0:
                p = self.saved("exponent", F)
                return (grad * F.where(p >= 0, 0.0, result * float("-inf")),)
            # Scalar::log as C's: NaN for a negative base ((-2.0) ** x), where math.log raises
            log_base = math.log(self.base) if self.base > 0 else math.nan
            return (grad * (result * log_base),)


class Atan2Backward0(Function):
    node_name = "Atan2Backward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        dtype = float_result_dtype(a, b).np
        if dtype == np.float32:
            exact = pointwise.atan2(_as_float32(a._data), _as_float32(b._data))
            if exact is not None:
                return exact
        if dtype == np.float64 and a._data.__class__ is np.ndarray \
                and b._data.__class__ is np.ndarray:
            exact = pointwise.atan2(a._data.astype(np.float64, copy=False),
                                    b._data.astype(np.float64, copy=False))
            if exact is not None:
                return exact
        return xp_of(a._data).arctan2(a._data, b._data, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        y, x = self.saved("self", F), self.saved("other", F)
        with _quiet():
            # atan2_backward: the reciprocal is 0 where both are 0, so the gradients there are
            # 0 and -0, not nan
            denom = y * y + x * x
            recip = F.masked_fill(F.ufunc("reciprocal", denom), denom == 0, 0.0)
            return (grad * x * recip if need_a else None, grad * -y * recip if need_b else None)


def _lerp_values(x: Any, y: Any, weight: Any, dtype: DType) -> Array:
    """PyTorch's lerp kernel (lerp_vec) in the op's math type (float for float16): from the
    nearer end with one fused multiply-add, fma(w, y - x, x) where |w| < 0.5 and
    fma(w - 1, y - x, y) elsewhere, so lerp(x, y, 1) is exactly y."""
    xp = xp_of_operands(x, y, weight)
    math = np.float64 if dtype is dtypes.float64 else np.float32
    x, y = xp.asarray(x, dtype=math), xp.asarray(y, dtype=math)
    w = xp.asarray(weight, dtype=math)
    with _quiet():
        d = y - x
        small = xp.abs(w) < 0.5
        coeff, base = xp.where(small, w, w - math(1)), xp.where(small, x, y)
        if xp is not np:
            out = coeff * d + base  # NOTE: on the GPU, as a kernel that does not fuse
        elif math is np.float64:
            out = fma64(coeff, d, base)
        else:
            out = fma32(coeff, d, base)
        return xp.asarray(out, dtype=dtype.np)


class LerpBackward0(Function):
    """lerp(start, end, weight: Scalar) = start + weight * (end - start)."""

    node_name = "LerpBackward0"

    def forward(self, a: Tensor, b: Tensor, weight: float) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.weight = weight
        return _lerp_values(a._data, b._data, weight, result_dtype(a, b))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        return (grad * (1 - self.weight) if need_a else None,
                grad * self.weight if need_b else None)


class LerpBackward1(Function):
    """lerp(start, end, weight: Tensor), the three broadcast together; derivatives.yaml:
    self: grad * (1 - weight), end: grad * weight, weight: grad * (end - self)."""

    node_name = "LerpBackward1"

    def forward(self, a: Tensor, b: Tensor, w: Tensor) -> Array:
        broadcast_shapes(a, b, w)
        need_a, need_b, need_w = self.needs_input_grad
        if need_a or need_b:
            self.save("weight", w)
        if need_w:
            self.save("self", a)
            self.save("end", b)
        return _lerp_values(a._data, b._data, w._data, a.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b, need_w = self.needs_input_grad
        w = self.saved("weight", F) if need_a or need_b else None
        return (grad * (1 - w) if need_a else None,
                grad * w if need_b else None,
                grad * (self.saved("end", F) - self.saved("self", F)) if need_w else None)


def _logf(y: np.ndarray) -> np.ndarray:
    """glibc's logf element-wise (xlogy's scalar loop on float), in y's shape."""
    from gradsh.engine.vecmath import libm

    return libm.logf(y).reshape(y.shape)


class XlogyBackward0(Function):
    """xlogy(x, y) = x * log(y), 0 where x is 0 (unless y is NaN)."""

    node_name = "XlogyBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        dtype = float_result_dtype(a, b).np
        x, y = a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)
        xp = xp_of(x)
        with _quiet():
            if pointwise.is_float64(x) and pointwise.is_float64(y):
                # xlogy_kernel's scalar loop: x * std::log(y), the C library's log
                x, y = np.broadcast_arrays(x, y)
                return np.where((x == 0) & ~np.isnan(y), 0.0, x * pointwise.D.c_log(y))
            if pointwise.is_float32(x) and pointwise.is_float32(y):
                # the same loop in float: glibc's logf
                x, y = np.broadcast_arrays(x, y)
                return np.where((x == 0) & ~np.isnan(y), np.float32(0), x * _logf(y))
            return xp.asarray(xp.where((x == 0) & ~xp.isnan(y), 0, x * xp.log(y)), dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_y = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        with _quiet():
            # derivatives.yaml: xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0):
            # log(y) even where x is 0, unless y <= 0 there
            zero = ((grad == 0) & (y == y)) | ((x == 0) & (y <= 0))
            if need_x and not F.as_tensor and pointwise.is_float64(y) \
                    and pointwise.is_float64(grad):
                # at::xlogy(grad, other): its kernel's std::log, the C library's
                log_y = pointwise.D.c_log(np.broadcast_to(y, np.broadcast_shapes(y.shape,
                                                                                 grad.shape)))
                gx = F.where(zero, 0.0, grad * log_y)
            elif need_x and not F.as_tensor and pointwise.is_float32(y) \
                    and pointwise.is_float32(grad):
                log_y = _logf(np.broadcast_to(y, np.broadcast_shapes(y.shape, grad.shape)))
                gx = F.where(zero, 0.0, grad * log_y)
            else:
                gx = F.where(zero, 0.0, grad * F.log(y)) if need_x else None
            gy = grad * x / y if need_y else None
        return (gx, gy)


class AddcmulBackward0(Function):
    """addcmul(x, t1, t2, value) = x + value * t1 * t2."""

    node_name = "AddcmulBackward0"

    def forward(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        return self._values(a, t1, t2, value)

    def _values(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1:
            self.save("tensor2", t2)
        if need_2:
            self.save("tensor1", t1)
        self.value = value
        dtype = result_dtype(a, t1, t2).np
        x, y, z = (t._data.astype(dtype, copy=False) for t in (a, t1, t2))
        out = addc_opmath(x, y, z, value, divide=False)
        if out is not None:
            return out
        if dtype == np.float32 and all(t.__class__ is np.ndarray for t in (x, y, z)):
            # addcmul_cpu_kernel: self + value * t1 * t2, which GCC compiles as one fused
            # multiply-add, fma(value * t1, t2, self), in both of its loops
            with _quiet():
                shape = np.broadcast_shapes(x.shape, y.shape, z.shape)
                return np.asarray(fma32(np.float32(value) * y, z, np.broadcast_to(x, shape)),
                                  dtype=np.float32).reshape(shape)
        if pointwise.is_float64(x) and pointwise.is_float64(y) and pointwise.is_float64(z):
            # the same fused step in float64 (measured)
            with _quiet():
                shape = np.broadcast_shapes(x.shape, y.shape, z.shape)
                return pointwise.D.fma(np.float64(value) * y, z, x).reshape(shape)
        with _quiet():
            return xp_of(x).asarray(x + value * y * z, dtype=dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_1, need_2 = self.needs_input_grad
        g1 = grad * (self.saved("tensor2", F) * self.value) if need_1 else None
        g2 = grad * (self.saved("tensor1", F) * self.value) if need_2 else None
        return (grad if need_x else None, g1, g2)


class AddcdivBackward0(Function):
    """addcdiv(x, t1, t2, value) = x + value * t1 / t2."""

    node_name = "AddcdivBackward0"

    def forward(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        return self._values(a, t1, t2, value)

    def _values(self, a: Tensor, t1: Tensor, t2: Tensor, value: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1 or need_2:
            self.save("tensor2", t2)
        if need_2:
            self.save("tensor1", t1)
        self.value = value
        dtype = result_dtype(a, t1, t2).np
        x, y, z = (t._data.astype(dtype, copy=False) for t in (a, t1, t2))
        out = addc_opmath(x, y, z, value, divide=True)
        if out is not None:
            return out
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


class LinalgCrossBackward0(Function):
    """cross(self, other, dim): the cross product of 3-vectors along dim (inputs broadcast)."""

    node_name = "LinalgCrossBackward0"

    def forward(self, a: Tensor, b: Tensor, dim: int) -> Array:
        need_a, need_b = self.needs_input_grad
        if need_a:
            self.save("other", b)
        if need_b:
            self.save("self", a)
        self.dim = dim
        shape = broadcast_shapes(a, b)
        xp = xp_of(a._data)
        x, y = (xp.broadcast_to(t._data, shape) for t in (a, b))
        with _quiet():
            return xp.cross(x, y, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        g_a = F.cross(self.saved("other", F), grad, self.dim) if need_a else None
        g_b = F.cross(grad, self.saved("self", F), self.dim) if need_b else None
        return (g_a, g_b)


# TensorIterator ops of their tensor operands (a wrapped number among them is a 0-d operand);
# the Scalar overloads compute with a wrapped number too (`t - 1`, `t / 3`, `t % 0.3`) except
# pow(Tensor, Scalar), a unary op of the tensor; linalg.cross and pow(Scalar, Tensor) write a
# fresh contiguous result
for _name in ("AddBackward0", "SubBackward0", "MulBackward0", "DivBackward0", "DivBackward2",
              "RemainderBackward1", "FmodBackward1", "PowBackward0", "PowBackward1",
              "Atan2Backward0", "LerpBackward0", "LerpBackward1",
              "XlogyBackward0", "AddcmulBackward0", "AddcdivBackward0"):
    laid_out("iterator")(globals()[_name])
for _name in ("AddBackward1", "SubBackward1", "RsubBackward1", "MulBackward1", "DivBackward1",
              "RemainderBackward0", "FmodBackward0", "_RemainderScalarTensor"):
    laid_out("scalar")(globals()[_name])
laid_out("row_major")(LinalgCrossBackward0)
laid_out("row_major")(PowBackward2)
