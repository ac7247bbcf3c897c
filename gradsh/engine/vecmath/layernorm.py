"""ATen's float32 and float64 layer norm on the CPU (layer_norm_kernel.cpp, moments_utils.h),
bit for bit, for a contiguous input seen as M rows of N.

Each row's mean and variance come from RowwiseMoments: Welford's update on 8-float or
4-double vectors (the AVX2 build the wheel runs this kernel in) over chunks of 16 vectors, the
chunks merged by a cascade (a binary counter of partial moments), the elements past the last
whole vector by scalar Welford steps, and finally the lanes merged into that scalar state one
by one. rstd = 1 / sqrt(var + eps); y = fma((x - mean) * rstd, gamma, beta). Which
multiply-adds GCC fused was found by probing torch (each choice below was the only one that
matched on every row tested; float64 takes the same steps, its backward's row sums folding
the 4 lanes left to right with a partial last vector fused in).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine.vecmath import native, sleef_double
from gradsh.engine.vecmath.batchnorm import _dot_all as _dot_rows32
from gradsh.engine.vecmath.batchnorm import _reduce_all as _sum_rows32
from gradsh.engine.vecmath.fp import F32, F64, fma32

LANES = 8
CHUNK = 16


def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c rounded once in the operands' dtype (float32 or float64), broadcast."""
    a, b, c = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    return sleef_double.fma(a, b, c) if a.dtype == F64 else fma32(a, b, c)


def _lanes(dtype: np.dtype) -> int:
    return LANES if dtype == F32 else LANES // 2


def _sum_rows64(rows: np.ndarray) -> np.ndarray:
    """vec::reduce_all(+) over each float64 row: 4 lanes block by block (a partial last block
    into the first lanes), the lanes then folded left to right; short rows in order."""
    n = rows.shape[1]
    if n < 4:
        return np.cumsum(rows, axis=1)[:, -1]
    acc = rows[:, :4].copy()
    full = n - n % 4
    for d in range(4, full, 4):
        acc += rows[:, d:d + 4]
    if n > full:
        acc[:, :n - full] += rows[:, full:]
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _dot_rows64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """vec::map2_reduce_all(a * b, +) over each float64 row, a partial last block fused."""
    n = a.shape[1]
    if n < 4 or n % 4 == 0:
        return _sum_rows64(a * b)
    full = n - n % 4
    acc = a[:, :4] * b[:, :4]
    for d in range(4, full, 4):
        acc += a[:, d:d + 4] * b[:, d:d + 4]
    acc[:, :n - full] = sleef_double.fma(a[:, full:], b[:, full:], acc[:, :n - full])
    return ((acc[:, 0] + acc[:, 1]) + acc[:, 2]) + acc[:, 3]


def _dot_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _dot_rows32(a, b) if a.dtype == F32 else _dot_rows64(a, b)


def _sum_rows(rows: np.ndarray) -> np.ndarray:
    return _sum_rows32(rows) if rows.dtype == F32 else _sum_rows64(rows)


def _merge_vectors(m0_add: int, m1_add: np.ndarray, m2_add: np.ndarray, m0: int,
                   m1: np.ndarray, m2: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """AddMomentsVec: the (count, mean, M2) of a block merged into the running one."""
    t = m1.dtype.type
    n = m0 + m0_add
    c = t(0) if n == 0 else t(m0_add) / t(n)
    delta = m1_add - m1
    m1 = m1 + c * delta
    m2 = _fma(delta, (delta * c) * t(m0), m2 + m2_add)
    return n, m1, m2


def _merge_scalar(m0_add: int, m1_add: np.ndarray, m2_add: np.ndarray, m0: int,
                  m1: np.ndarray, m2: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """AddMoments (one lane into the scalar state)."""
    t = m1.dtype.type
    n = m0 + m0_add
    c = t(0) if n == 0 else t(m0_add) / t(n)
    delta = m1_add - m1
    m1 = _fma(c, delta, m1)
    term = (delta * delta) * c
    m2 = m2 + _fma(term, t(m0), m2_add)
    return n, m1, m2


def moments(x: np.ndarray, halves: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """RowwiseMoments of each row of float32 or float64 (M, N): (mean, biased variance).
    `halves=2`: float16 or bfloat16 rows (given as float32): ATen loads 16 of them a vector
    and updates the two 8-float halves apart, each merged into the running moments in turn,
    so every lane counts two updates a vector."""
    rows, size = x.shape
    t = x.dtype.type
    lanes = _lanes(x.dtype)
    reciprocals = [t(1) / t(i + 1) for i in range(CHUNK)]
    width = lanes * halves  # the elements one loaded vector holds
    vectors = size // width
    chunks = -(-vectors // CHUNK)
    depth = math.ceil(math.log2(chunks)) if chunks > 1 else 0
    zero = np.zeros((rows, lanes), x.dtype)
    stack = [(0, zero, zero) for _ in range(max(depth, 1))]
    for i in range(chunks):
        count = min(CHUNK, vectors - i * CHUNK)
        for half in range(halves):
            m1, m2 = zero, zero
            for j in range(count):
                start = (i * CHUNK + j) * width + half * lanes
                v = x[:, start:start + lanes]
                delta = v - m1
                m1 = _fma(delta, reciprocals[j], m1)
                m2 = _fma(delta, v - m1, m2)
            stack[0] = _merge_vectors(count, m1, m2, *stack[0])
        mask = i + 1
        level = 1
        while level < depth and mask & 1 == 0:
            stack[level] = _merge_vectors(*stack[level - 1], *stack[level])
            stack[level - 1] = (0, zero, zero)
            mask >>= 1
            level += 1
    for level in range(1, depth):
        stack[0] = _merge_vectors(*stack[level], *stack[0])
    lane_m1, lane_m2 = stack[0][1], stack[0][2]
    m0 = 0
    m1 = np.zeros(rows, x.dtype)
    m2 = np.zeros(rows, x.dtype)
    for k in range(vectors * width, size):
        column = x[:, k]
        delta = column - m1
        m0 += 1
        m1 = m1 + delta / t(m0)
        m2 = m2 + delta * (column - m1)
    for lane in range(lanes):
        m0, m1, m2 = _merge_scalar(vectors * halves, lane_m1[:, lane], lane_m2[:, lane], m0,
                                   m1, m2)
    return m1, m2 / t(size)


def forward(x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LayerNormKernelImplInternal on float32 or float64 (M, N): (y, mean, rstd)."""
    t = x.dtype.type
    mean, var = moments(x)
    rstd = t(1) / np.sqrt(var + t(eps))
    g = np.ones(x.shape[1], x.dtype) if gamma is None else gamma
    b = np.zeros(x.shape[1], x.dtype) if beta is None else beta
    y = _fma((x - mean[:, None]) * rstd[:, None], np.broadcast_to(g, x.shape),
              np.broadcast_to(b, x.shape))
    return y, mean, rstd


def reduced_forward(x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
                    gamma: np.ndarray | None, beta: np.ndarray | None) -> np.ndarray:
    """The float16/bfloat16 kernel's y in float32 (to be rounded) from float32 rows (M, N)
    and their (M, 1) statistics: fma(fma(x, rstd, -rstd * mean), gamma, beta), found by
    probing torch (the only form of eight that matched every row, either parameter dtype)."""
    shifted = _fma(x, rstd, -rstd * mean)
    if gamma is None and beta is None:
        return shifted
    g = np.ones(x.shape[1], x.dtype) if gamma is None else gamma
    b = np.zeros(x.shape[1], x.dtype) if beta is None else beta
    return _fma(shifted, g, b)


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
             gamma: np.ndarray | None, threads: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LayerNormBackwardKernelImplInternal on float32 or float64 (M, N): (dx, dgamma,
    dbeta)."""
    rows, size = x.shape
    t = x.dtype.type
    scale = t(1) / t(size)
    if gamma is None:
        ds, db = _dot_rows(dy, x), _sum_rows(dy)
    else:
        g = np.broadcast_to(gamma, x.shape)
        ds, db = _dot_rows(dy * x, g), _dot_rows(dy, g)
    a = rstd
    b = (((_fma(db, mean, -ds) * a) * a) * a) * scale
    c = _fma(-b, mean, -((db * a) * scale))
    weighted = (a[:, None] * dy) * (1 if gamma is None else gamma)
    dx = _fma(b[:, None], x, weighted) + c[:, None]
    dgamma, dbeta = affine_gradients(dy, x, mean, rstd, threads)
    return dx, dgamma, dbeta


def affine_gradients(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
                     threads: int = 1, narrow: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """dgamma and dbeta of the (M, N) rows: a buffer per thread, its rows added in order
    (dgamma += dy * (rstd * x - rstd * mean), fused), then the buffers. A float16 or bfloat16
    layer norm runs the same loop on float32 copies of dy and x, its buffers in the input's
    dtype (`narrow`: ATen allocates them so), rounded after every row."""
    rows, size = x.shape
    a = rstd
    dgamma = np.zeros(size, x.dtype)
    dbeta = np.zeros(size, x.dtype)
    used = max(1, min(threads, rows))
    chunk = max(1, -(-rows // used))  # (no rows: an empty batch, zero gradients)
    for start in range(0, rows, chunk):
        stop = min(start + chunk, rows)
        if narrow is None:
            g_buffer, b_buffer = _row_sums(dy[start:stop], x[start:stop], a[start:stop],
                                           mean[start:stop])
            dgamma += g_buffer
            dbeta += b_buffer
            continue
        g_buffer = np.zeros(size, x.dtype)
        b_buffer = np.zeros(size, x.dtype)
        for i in range(start, stop):
            shifted = _fma(a[i], x[i], -a[i] * mean[i])
            g_buffer = _fma(dy[i], shifted, g_buffer)
            b_buffer += dy[i]
            g_buffer = g_buffer.astype(narrow).astype(x.dtype)
            b_buffer = b_buffer.astype(narrow).astype(x.dtype)
        dgamma += g_buffer
        dbeta += b_buffer
    return dgamma, dbeta


def _row_sums(dy: np.ndarray, x: np.ndarray, a: np.ndarray,
              mean: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One thread's buffers of affine_gradients: from zero, row after row, g = fma(dy, a x -
    a mean, g) (its inner product fused) and b += dy. The rows' shifted values are computed
    at once (element-wise, the same bits); b's running sums are cumsum's down the columns (the
    same additions in the same order; + 0.0 gives the zero the loop's first 0 + dy makes)."""
    rows, size = x.shape
    g = np.zeros(size, x.dtype)
    if not rows:
        return g, g.copy()
    shifted = _fma(a[:, None], x, (-a * mean)[:, None])
    dy = np.ascontiguousarray(dy)
    if x.dtype in (F32, F64) and native.kernels is not None:
        native.fma_rows_into(g, dy, np.ascontiguousarray(shifted, x.dtype))
    else:
        for i in range(rows):
            g = _fma(dy[i], shifted[i], g)
    return g, np.cumsum(dy, axis=0)[-1] + x.dtype.type(0.0)


_HALF_LANES = 16  # Vectorized<float>::size() on AVX-512; a float16/bfloat16 vector is 32
_TREE = [np.arange(_HALF_LANES) ^ step for step in (8, 4, 2, 1)]


def _reduced_reduce_all(values: np.ndarray) -> np.ndarray:
    """Row sums of float32 `values` (M, N) as ATen's vec::map*_reduce_all<Half/BFloat16> add
    them: a row shorter than 32 as two 16-lane halves (the second added into the first's
    leading lanes) summed lane by lane in order; a longer row in two 16-lane accumulators over
    32-element blocks (a partial last block into the leading lanes), joined, then the AVX-512
    lane tree (i ^ 8, ^ 4, ^ 2, ^ 1)."""
    rows, size = values.shape
    lanes = _HALF_LANES
    if size < 2 * lanes:
        if size > lanes:
            first = values[:, :lanes].copy()
            first[:, :size - lanes] += values[:, lanes:]
        else:
            first = values
        total = first[:, 0].copy()
        for i in range(1, first.shape[1]):
            total += first[:, i]
        return total
    acc0, acc1 = values[:, :lanes].copy(), values[:, lanes:2 * lanes].copy()
    d, whole = 2 * lanes, size - size % (2 * lanes)
    while d < whole:
        acc0 += values[:, d:d + lanes]
        acc1 += values[:, d + lanes:d + 2 * lanes]
        d += 2 * lanes
    rest = size - d
    if rest > lanes:
        acc0 += values[:, d:d + lanes]
        acc1[:, :rest - lanes] += values[:, d + lanes:]
    elif rest > 0:
        acc0[:, :rest] += values[:, d:]
    acc0 += acc1
    for partner in _TREE:
        acc0 = acc0 + acc0[:, partner]
    return acc0[:, 0]


def reduced_input_gradient(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
                           gamma: np.ndarray | None) -> np.ndarray:
    """dX of a float16/bfloat16 layer norm whose parameters share its dtype (ATen's generic
    layer_norm_backward_frame<T, T, float>), in float32 from float32 copies of dy, x, gamma
    and the dtype-rounded mean and rstd: ds = sum(dy * x * gamma), db = sum(dy * gamma) by
    _reduced_reduce_all, then the float kernel's b, c and dx formulas (rounded by the caller)."""
    size = x.shape[1]
    scale = np.float32(1) / np.float32(size)
    if gamma is None:
        ds, db = _reduced_reduce_all(dy * x), _reduced_reduce_all(dy)
    else:
        ds, db = _reduced_reduce_all((dy * x) * gamma), _reduced_reduce_all(dy * gamma)
    a = rstd
    b = (((_fma(db, mean, -ds) * a) * a) * a) * scale
    c = _fma(-b, mean, -((db * a) * scale))
    weighted = (a[:, None] * dy) * (1 if gamma is None else gamma)
    return _fma(b[:, None], x, weighted) + c[:, None]
