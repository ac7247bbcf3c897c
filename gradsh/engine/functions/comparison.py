"""Comparisons and bitwise operators: forward only, never differentiable."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.functions.common import (
    broadcast_shapes,
    iterator_layout,
    not_implemented_for,
    operand,
    result_dtype,
    xp_of_operands,
)
from gradsh.engine.tensor import Function, Tensor


class _Compare(Function):
    """A comparison: a bool result, so the engine never records it."""

    node_name = "Compare"

    def forward(self, a: Tensor, b: Tensor, op: str) -> Any:
        broadcast_shapes(a, b)
        dtype = result_dtype(a, b)
        x, y = operand(a, dtype), operand(b, dtype)
        if not isinstance(x, (int, float, bool)):
            x = x.astype(dtype.np, copy=False)
        if not isinstance(y, (int, float, bool)):
            y = y.astype(dtype.np, copy=False)
        with np.errstate(all="ignore"):
            return iterator_layout(getattr(xp_of_operands(x, y), op)(x, y), a._data, b._data)


class _Bitwise(Function):
    node_name = "Bitwise"

    def forward(self, a: Tensor, b: Tensor, op: str, kernel: str) -> Any:
        broadcast_shapes(a, b)  # (TensorIterator's shapes come before the kernel's dtypes)
        dtype = result_dtype(a, b)
        if dtype.is_floating_point or dtype is dtypes.bool_ and "shift" in op:
            raise not_implemented_for(kernel, dtype)  # PyTorch names the promoted dtype
        return getattr(np, op)(operand(a, dtype), operand(b, dtype), dtype=dtype.np)
