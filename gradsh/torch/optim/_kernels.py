"""The in-place updates optimizers make (lerp_, addcmul_, addcdiv_, maximum with out=), computed
as PyTorch's CPU kernels compute them, so that an update is bit for bit PyTorch's.

NOTE: PyTorch's CPU build (GCC, -mfma) fuses `self + weight * (end - self)` in lerp and
`self + value * t1 * t2` in addcmul into one fused multiply-add (measured against torch 2.13:
the unfused sums differ in a few elements per thousand); addcdiv divides, so nothing fuses
there: `self + (value * t1) / t2`, each step rounded in the dtype. float16 and bfloat16 compute
in float32 (their opmath type) and round once.

Each function writes into `target`'s storage (bumping its version once, as an in-place op
does) and records no graph: optimizers run their updates under no_grad.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.random import _fma64
from gradsh.engine.tensor import Tensor
from gradsh.engine.vecmath.fp import fma32


def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c elementwise, rounded once, in float32 if `c` is float32 (else float64)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    if np.asarray(c).dtype == np.float32:
        a, c = (np.ascontiguousarray(np.broadcast_to(v, shape), dtype=np.float32) for v in (a, c))
        b = np.float32(b) if np.ndim(b) == 0 else np.ascontiguousarray(
            np.broadcast_to(b, shape), dtype=np.float32)
        return fma32(a, b, c)  # (through the compiled kernels where built)
    return _fma64(*(np.broadcast_to(np.asarray(v, dtype=np.float64), shape) for v in (a, b, c)))


def _array(t: Tensor, dtype: np.dtype) -> np.ndarray:
    return np.asarray(t._data, dtype=dtype)


def _math_dtype(target: Tensor) -> np.dtype:
    """The dtype the kernel computes in: float32 for float16 and bfloat16."""
    dtype = target._data.dtype
    return np.dtype(np.float32) if dtype in REDUCED_FLOAT_NP else dtype


def lerp_(target: Tensor, end: Tensor, weight: float) -> Tensor:
    """target.lerp_(end, weight) for a number weight: from the nearer end, fused."""
    dtype = _math_dtype(target)
    start, stop = _array(target, dtype), _array(end, dtype)
    w = dtype.type(weight)
    diff = stop - start
    with np.errstate(all="ignore"):
        if abs(w) < 0.5:
            out = _fma(diff, w, start)
        else:
            out = _fma(diff, w - dtype.type(1), stop)
    target._inplace_data(out.astype(target._data.dtype, copy=False))
    return target


def addcmul_(target: Tensor, t1: Tensor, t2: Tensor, value: float = 1) -> Tensor:
    """target.addcmul_(t1, t2, value=value): fma(value * t1, t2, target)."""
    dtype = _math_dtype(target)
    with np.errstate(all="ignore"):
        scaled = dtype.type(value) * _array(t1, dtype)
        out = _fma(scaled, _array(t2, dtype), _array(target, dtype))
    target._inplace_data(out.astype(target._data.dtype, copy=False))
    return target


def addcdiv_(target: Tensor, t1: Tensor, t2: Tensor, value: float = 1) -> Tensor:
    """target.addcdiv_(t1, t2, value=value): target + (value * t1) / t2, rounded per step."""
    dtype = _math_dtype(target)
    with np.errstate(all="ignore"):
        out = _array(target, dtype) + (dtype.type(value) * _array(t1, dtype)) / _array(t2, dtype)
    target._inplace_data(out.astype(target._data.dtype, copy=False))
    return target


def maximum_(target: Tensor, other: Tensor) -> Tensor:
    """torch.maximum(target, other, out=target) (NaN wins, as in PyTorch)."""
    target._inplace_data(np.maximum(target._data, other._data))
    return target
