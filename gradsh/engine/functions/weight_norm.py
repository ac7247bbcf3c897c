"""WeightNormInterfaceBackward0: ATen's fused weight norm over the first or the last
dimension, w = v * (g / ||v||), and its backward, with the CPU kernel's steps (WeightNormKernel:
for the first dimension each row's squares summed as vec::map_reduce_all sums them; for the last
each column's summed down the rows: each thread of at::parallel_for(0, rows, 1) into its own
buffer row after row, the buffers then added in thread order from 0; one division per norm,
then products)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath.batchnorm import parallel_chunks
from gradsh.engine.vecmath.fp import fma32

__all__ = ["WeightNormInterfaceBackward0"]


_LANES = 8  # this kernel's Vectorized<float> is 8 wide (measured against PyTorch 2.13)


def _row_sums(products: np.ndarray) -> np.ndarray:
    """vec::map_reduce_all's sum of each row: 8 lanes side by side, a partial last vector into
    the first lanes, then the shuffle tree; rows shorter than 8 fold left to right."""
    n = products.shape[1]
    if n < _LANES:
        return np.cumsum(products, axis=1, dtype=products.dtype)[:, -1]
    acc = products[:, :_LANES].copy()
    full = n - n % _LANES
    for d in range(_LANES, full, _LANES):
        acc = acc + products[:, d:d + _LANES]
    if n > full:
        acc[:, :n - full] = acc[:, :n - full] + products[:, full:]
    step = _LANES // 2
    while step:
        acc = acc + acc[:, np.arange(_LANES) ^ step]
        step //= 2
    return acc[:, 0]


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once in float32 (GCC contracts the kernel's vector expressions)."""
    return fma32(a, b, c) if a.dtype == np.float32 else a * b + c


def _dots(a: np.ndarray, b: np.ndarray, last: bool) -> np.ndarray:
    """The sums of a * b: along each row (vec::map2_reduce_all), or with `last` down each
    column: per thread's chunk of rows a buffer from 0, row after row, each step a fused
    multiply-add; the buffers added in thread order from 0."""
    if not last:
        return _row_sums(a * b) if a.dtype == np.float32 else np.einsum("ij,ij->i", a, b)
    total = np.zeros(a.shape[1], dtype=a.dtype)
    for begin, end in parallel_chunks(a.shape[0], threads.torch_threads()):
        buffer = np.zeros(a.shape[1], dtype=a.dtype)
        for i in range(begin, end):
            buffer = _fma(a[i], b[i], buffer)
        total = total + buffer
    return total


class WeightNormInterfaceBackward0(Function):
    """_weight_norm(v, g, dim), dim the first or the last: v viewed as (rows, n); with dim 0
    each row is scaled by g / its 2-norm, with the last dim each column."""

    node_name = "WeightNormInterfaceBackward0"

    def forward(self, v: Tensor, g: Tensor, last: bool) -> Array:
        data = np.ascontiguousarray(v._data)
        rows = data.reshape(-1, data.shape[-1]) if last else data.reshape(data.shape[0], -1)
        norm = np.sqrt(_dots(rows, rows, last)).astype(data.dtype)
        gains = np.ascontiguousarray(g._data).reshape(-1).astype(data.dtype)
        self.saved = (rows, gains, norm, g._data.shape, last)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = (gains / norm).astype(data.dtype)
            scaled = rows * (scale[None, :] if last else scale[:, None])
            return scaled.astype(data.dtype, copy=False).reshape(data.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "WeightNormInterfaceBackward0 yet")
        rows, gains, norm, g_shape, last = self.saved
        grad_w = np.ascontiguousarray(grad).reshape(rows.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            grad_g = _dots(grad_w, rows, last) / norm
            a = gains / norm
            b = a * grad_g / norm
            a, b = (a[None, :], b[None, :]) if last else (a[:, None], b[:, None])
            a, b = np.broadcast_to(a, rows.shape), np.broadcast_to(b, rows.shape)
            grad_v = _fma(-b, rows, a * grad_w)
        dtype = rows.dtype
        return (grad_v.astype(dtype).reshape(grad.shape),
                grad_g.astype(dtype).reshape(g_shape))
