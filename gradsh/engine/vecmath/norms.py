"""ATen's float32 2-norm reduction (linalg.vector_norm, torch.norm, Tensor.norm) on the CPU, bit
for bit, for inputs in the default contiguous layout; and the other p-norms (norm_p).

norm_kernel_tensor_iterator_impl takes a vectorised path when the reduced elements of each output
are the trailing, contiguous part of the input (is_reduce_lastdim: a whole-tensor norm, or the
last dims): 8 float lanes (the wheel runs this kernel's AVX2 build) each accumulate x * x, the
product rounded, over the whole vectors; the lanes are then added into lane 0 left to right,
the remaining elements' squares added in order, and the square root taken in float. Any other
reduction runs binary_kernel_reduce with NormTwoOps: for each output, acc + x * x over its
elements in memory order, from 0. Both end in an IEEE sqrt (not MKL's).

float64 (measured against torch 2.13): the same kernel with 4 double lanes, the products
unfused, and the remaining (fewer than 4) squares each added by a fused multiply-add.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.vecmath.fp import F32, fma32

LANES = 8


def _lastdim(rows: np.ndarray) -> np.ndarray:
    """The vectorised kernel over each row of (rows, n): the sums of squares."""
    n = rows.shape[1]
    full = n - n % LANES
    acc = np.zeros((rows.shape[0], LANES), F32)
    for d in range(0, full, LANES):
        block = rows[:, d:d + LANES]
        acc += block * block
    total = acc[:, 0].copy()
    for j in range(1, LANES):
        total += acc[:, j]
    # GCC vectorised the remainder loop in-order (fold-left) four at a time, the squares
    # rounded, and left the last n % 4 to scalar code with a fused multiply-add
    groups = full + 4 * ((n - full) // 4)
    for d in range(full, groups):
        column = rows[:, d]
        total += column * column
    for d in range(groups, n):
        total = fma32(rows[:, d], rows[:, d], total)
    return total


def _lastdim64(rows: np.ndarray) -> np.ndarray:
    """_lastdim on float64 rows (rows, n): 4 lanes, a fused tail (vecmath/sleef_double.fma)."""
    from gradsh.engine.vecmath.sleef_double import fma

    lanes = 4
    n = rows.shape[1]
    full = n - n % lanes
    acc = np.zeros((rows.shape[0], lanes))
    for d in range(0, full, lanes):
        block = rows[:, d:d + lanes]
        acc += block * block
    total = acc[:, 0].copy()
    for j in range(1, lanes):
        total += acc[:, j]
    for d in range(full, n):
        total = fma(rows[:, d], rows[:, d], total)
    return total


def _serial(values: np.ndarray) -> np.ndarray:
    """NormTwoOps over (reduced, outputs): acc + x * x, the reduced elements in order."""
    total = np.zeros(values.shape[1:], values.dtype)
    for row in values:
        total += row * row
    return total


def _broadcast_norm(kernel: Any, x: np.ndarray, dims: tuple[int, ...] | None,
                    keepdim: bool) -> np.ndarray | None:
    """kernel's norms of an x whose only non-contiguous dimensions are broadcast (stride 0,
    from expand) kept ones: each output reduces the same elements in the same order as the
    first along such a dimension (torch gives x[:, None].expand(...) the norms of x), so the
    norms are taken once with those dimensions cut to size 1 and broadcast back. None for
    any other layout."""
    reduced = set(range(x.ndim)) if not dims else {d % max(x.ndim, 1) for d in dims}
    index = tuple(slice(0, 1) if d not in reduced and x.strides[d] == 0 and x.shape[d] > 1
                  else slice(None) for d in range(x.ndim))
    compact = x[index]
    if compact.shape == x.shape or not compact.flags.c_contiguous:
        return None
    out = kernel(compact, dims, True)
    if out is None:
        return None
    full = tuple(1 if d in reduced else n for d, n in enumerate(x.shape))
    out = np.ascontiguousarray(np.broadcast_to(out, full))
    return out if keepdim else out.reshape(tuple(n for d, n in enumerate(x.shape)
                                                 if d not in reduced))


def norm2(x: np.ndarray, dims: tuple[int, ...] | None, keepdim: bool) -> np.ndarray | None:
    """The float32 (or float64) 2-norm of C-contiguous `x` over `dims` (None: all), or None
    where ATen would iterate in another order (a non-contiguous input), or for float64 without
    the compiled kernels."""
    if x.dtype not in (np.float32, np.float64) or x.size == 0:
        return None
    if not x.flags.c_contiguous:
        return _broadcast_norm(norm2, x, dims, keepdim)
    lastdim = _lastdim
    if x.dtype == np.float64:
        from gradsh.engine.vecmath import sleef_double

        if not sleef_double.available():
            return None
        lastdim = _lastdim64
    reduced = set(range(x.ndim)) if not dims else {d % max(x.ndim, 1) for d in dims}
    kept = [d for d in range(x.ndim) if d not in reduced]
    out_shape = tuple(1 if d in reduced else x.shape[d] for d in range(x.ndim)) if keepdim \
        else tuple(x.shape[d] for d in kept)
    # TensorIterator drops size-1 dims: the reduction is "last dim" when every reduced dim of
    # size > 1 comes after every kept one of size > 1
    big_kept = [d for d in kept if x.shape[d] > 1]
    big_reduced = [d for d in reduced if x.shape[d] > 1]
    if not big_reduced or not big_kept or max(big_kept) < min(big_reduced):
        count = int(np.prod([x.shape[d] for d in reduced])) if reduced else 1
        sums = lastdim(x.reshape(-1, count)) if count > 0 else np.zeros(0, x.dtype)
    else:
        moved = np.moveaxis(x, sorted(reduced), range(len(reduced)))
        sums = _serial(moved.reshape((-1,) + moved.shape[len(reduced):]))
    with np.errstate(invalid="ignore"):
        return np.sqrt(sums).reshape(out_shape)


def _pow(x: np.ndarray, e: float) -> np.ndarray:
    """std::pow in the dtype: glibc's powf for float, its pow for double."""
    if x.dtype == F32:
        from gradsh.engine.vecmath import libm

        return libm.powf(x, np.full(x.shape, e, F32)).reshape(x.shape)
    from gradsh.engine.vecmath import sleef_double

    return sleef_double.libm2("pow", x, np.full(x.shape, e))


def norm_p(x: np.ndarray, p: float, dims: tuple[int, ...] | None, keepdim: bool,
           threads: int = 1) -> np.ndarray | None:
    """The float32 or float64 p-norm for p other than 0, 2 and +-inf, as binary_kernel_reduce
    runs NormOneOps (p = 1: acc + |x|) and NormOps (acc + std::pow(|x|, p), then
    std::pow(acc, 1 / p)) with the dtype's accumulator: each output's elements in memory order
    from 0. One output of 32,768 elements or more at several threads is split as parallel_for
    splits it, each piece's accumulator from 0, the pieces added in order. None for a
    non-contiguous x or without the compiled kernels (the C library's pow); `threads`:
    torch.get_num_threads()."""
    from gradsh.engine.vecmath import sleef_double

    if x.dtype not in (F32, np.float64) or x.size == 0 or not sleef_double.available():
        return None
    if not x.flags.c_contiguous:
        # (a broadcast dimension is a kept one of size > 1: one piece, as in norm_p's split)
        return _broadcast_norm(lambda c, d, k: norm_p(c, p, d, k), x, dims, keepdim)
    reduced = sorted(set(range(x.ndim)) if not dims else {d % max(x.ndim, 1) for d in dims})
    kept = [d for d in range(x.ndim) if d not in reduced]
    moved = np.transpose(x, reduced + kept)
    values = np.abs(moved.reshape((-1,) + tuple(x.shape[d] for d in kept)))
    out_shape = tuple(1 if d in reduced else x.shape[d] for d in range(x.ndim)) if keepdim \
        else tuple(x.shape[d] for d in kept)
    pieces = [(0, len(values))]
    if all(x.shape[d] == 1 for d in kept) and x.size >= 32768 and threads > 1:
        count = min(threads, -(-x.size // 32768))
        size = -(-x.size // count)
        pieces = [(start, min(start + size, x.size)) for start in range(0, x.size, size)]
    total = np.zeros(values.shape[1:], x.dtype)
    with np.errstate(all="ignore"):
        terms = values if p == 1 else _pow(values, p)
        for begin, end in pieces:
            acc = np.zeros(values.shape[1:], x.dtype)
            for row in terms[begin:end]:
                acc = acc + row
            total = total + acc
        if p == 1:
            return total.reshape(out_shape)
        return _pow(total, 1.0 / p).reshape(out_shape)
