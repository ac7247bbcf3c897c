"""Nodes that pick values element by element: clamp, maximum, minimum, where, masked_fill."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import backend, dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.functions.common import (
    _quiet,
    broadcast_shapes,
    iterator_layout,
    not_implemented_for,
    operand,
    result_dtype,
    xp_of,
    xp_of_operands,
)
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = [
    "ClampBackward1", "ClampMinBackward0", "ClampMaxBackward0", "ClampBackward0",
    "MaximumBackward0", "MinimumBackward0", "WhereBackward0", "MaskedFillBackward1",
    "MaskedFillBackward0",
]


def _clamp_dtype(a: Tensor, *bounds: Any) -> DType:
    scalars = [b for b in bounds if b is not None]
    return dtypes.result_type([(a.dtype, a._data.ndim)], scalars)


class ClampBackward1(Function):
    """clamp with number bounds (either may be None); saves self, min, max."""

    node_name = "ClampBackward1"

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
    node_name = "ClampMinBackward0"

    def forward(self, a: Tensor, min: Any) -> Array:  # noqa: A002
        self.min = min
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = _clamp_dtype(a, min)
        if dtype is dtypes.bool_:
            raise not_implemented_for("clamp_min_scalar_cpu", dtype)
        x = a._data.astype(dtype.np, copy=False)
        with _quiet():
            return xp_of(x).where((x < min) | (min != min), dtype.np.type(min), x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.where(self.saved("self", F) >= self.min, grad, 0.0),)


class ClampMaxBackward0(Function):
    node_name = "ClampMaxBackward0"

    def forward(self, a: Tensor, max: Any) -> Array:  # noqa: A002
        self.max = max
        if self.needs_input_grad[0]:
            self.save("self", a)
        dtype = _clamp_dtype(a, max)
        if dtype is dtypes.bool_:
            raise not_implemented_for("clamp_max_scalar_cpu", dtype)
        x = a._data.astype(dtype.np, copy=False)
        with _quiet():  # (a NaN bound makes every value NaN, as in clamp)
            return xp_of(x).where((x > max) | (max != max), dtype.np.type(max), x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.where(self.saved("self", F) <= self.max, grad, 0.0),)


class ClampBackward0(Function):
    """clamp with tensor bounds: inputs (self, min, max); a missing bound is an empty tensor
    placeholder (`has_min` / `has_max`)."""

    node_name = "ClampBackward0"

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
        with _quiet():  # the bounds compared in the common dtype (a uint8 tensor's min of a
            if has_min:  # 0-d int32 -2 is 254)
                low = lo._data.astype(dtype.np)
                x = xp.where(x < low, low, x)
                x = xp.where(xp.isnan(low), low, x)
            if has_max:
                high = hi._data.astype(dtype.np)
                x = xp.where(x > high, high, x)
                x = xp.where(xp.isnan(high), high, x)
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
    node_name = "MaximumBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        return iterator_layout(
            _extremum_array(operand(a), operand(b), result_dtype(a, b), "max"), a._data, b._data)

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
    node_name = "MinimumBackward0"

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

    node_name = "WhereBackward0"

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
        x = operand(a, dtype)  # (a number wraps into an integer dtype: -1 in uint8 is 255)
        y = operand(b, dtype)
        x = xp.asarray(x, dtype=dtype.np)
        y = xp.asarray(y, dtype=dtype.np)
        return iterator_layout(xp.where(condition._data, x, y), condition._data, a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        cond = self.saved("condition", F)
        return (
            F.where(cond, grad, 0.0) if a else None,
            F.where(cond, 0.0, grad) if b else None,
        )


class MaskedFillBackward1(Function):
    """masked_fill with a 0-d tensor value (edges: self, value); the mask is a parameter."""

    operand_overlap_check = False  # (ATen reads the value first: no overlap check)

    node_name = "MaskedFillBackward1"

    def forward(self, a: Tensor, value: Tensor, mask: Tensor) -> Array:
        self.save("mask", mask)
        out = a._data.copy()
        xp = xp_of(out)
        xp.copyto(out, value._data.astype(out.dtype), where=xp.broadcast_to(mask._data, out.shape))
        return out  # (astype: C++'s cast, 2.7 into an integer tensor is 2, 5 into bool True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        mask = self.saved("mask", F)
        return (
            F.masked_fill(grad, mask, 0.0) if a else None,
            F.sum(F.where(mask, grad, 0.0), None, False) if b else None,
        )


class MaskedFillBackward0(Function):
    """masked_fill(self, mask, value): used by backward formulas (norm, std, maximum)."""

    node_name = "MaskedFillBackward0"

    def forward(self, a: Tensor, mask: Tensor, value: Any) -> Array:
        self.save("mask", mask)
        # out of place, self broadcasts to the mask's shape (expand_outplace(mask, self))
        shape = broadcast_shapes(a, mask)
        out = a._data.copy() if shape == a._data.shape else \
            xp_of(a._data).broadcast_to(a._data, shape).copy()
        # casting as C++ casts the Scalar: 2.7 into an integer tensor is 2, 5 into bool True
        xp_of(out).copyto(out, value, where=xp_of(out).broadcast_to(mask._data, out.shape),
                          casting="unsafe")
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.masked_fill(grad, self.saved("mask", F), 0.0),)
