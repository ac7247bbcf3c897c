"""PyTorch's float sum and mean, bit for bit (SumKernel.cpp's cascade_sum)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array

__all__ = ["torch_sum"]


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
