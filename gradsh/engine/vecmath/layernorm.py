"""ATen's float32 layer norm on the CPU (layer_norm_kernel.cpp, moments_utils.h), bit for bit,
for a contiguous input seen as M rows of N.

Each row's mean and variance come from RowwiseMoments: Welford's update on 8-float vectors (the
AVX2 build the wheel runs this kernel in) over chunks of 16 vectors, the chunks merged by a
cascade (a binary counter of partial moments), the elements past the last whole vector by
scalar Welford steps, and finally the 8 lanes merged into that scalar state one by one.
rstd = 1 / sqrt(var + eps) in float; y = fma((x - mean) * rstd, gamma, beta). Which
multiply-adds GCC fused was found by probing torch (each choice below was the only one that
matched on every row tested).
"""

from __future__ import annotations

import math

import numpy as np

from gradsh.engine.vecmath.batchnorm import _dot_all as _dot_rows
from gradsh.engine.vecmath.batchnorm import _reduce_all as _sum_rows
from gradsh.engine.vecmath.fp import F32, fma32

LANES = 8
CHUNK = 16
_RECIPROCALS = [F32(1) / F32(i + 1) for i in range(CHUNK)]


def _merge_vectors(m0_add: int, m1_add: np.ndarray, m2_add: np.ndarray, m0: int,
                   m1: np.ndarray, m2: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """AddMomentsVec: the (count, mean, M2) of a block merged into the running one."""
    n = m0 + m0_add
    c = F32(0) if n == 0 else F32(m0_add) / F32(n)
    delta = m1_add - m1
    m1 = m1 + c * delta
    m2 = fma32(delta, (delta * c) * F32(m0), m2 + m2_add)
    return n, m1, m2


def _merge_scalar(m0_add: int, m1_add: np.ndarray, m2_add: np.ndarray, m0: int,
                  m1: np.ndarray, m2: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """AddMoments (one lane into the scalar state)."""
    n = m0 + m0_add
    c = F32(0) if n == 0 else F32(m0_add) / F32(n)
    delta = m1_add - m1
    m1 = fma32(np.full_like(delta, c), delta, m1)
    term = (delta * delta) * c
    m2 = m2 + fma32(term, np.full_like(term, F32(m0)), m2_add)
    return n, m1, m2


def moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """RowwiseMoments of each row of float32 (M, N): (mean, biased variance)."""
    rows, size = x.shape
    vectors = size // LANES
    chunks = -(-vectors // CHUNK)
    depth = math.ceil(math.log2(chunks)) if chunks > 1 else 0
    zero = np.zeros((rows, LANES), F32)
    stack = [(0, zero, zero) for _ in range(max(depth, 1))]
    for i in range(chunks):
        count = min(CHUNK, vectors - i * CHUNK)
        m1, m2 = zero, zero
        for j in range(count):
            start = (i * CHUNK + j) * LANES
            v = x[:, start:start + LANES]
            delta = v - m1
            m1 = fma32(delta, np.full_like(delta, _RECIPROCALS[j]), m1)
            m2 = fma32(delta, v - m1, m2)
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
    m1 = np.zeros(rows, F32)
    m2 = np.zeros(rows, F32)
    for k in range(vectors * LANES, size):
        column = x[:, k]
        delta = column - m1
        m0 += 1
        m1 = m1 + delta / F32(m0)
        m2 = m2 + delta * (column - m1)
    for lane in range(LANES):
        m0, m1, m2 = _merge_scalar(vectors, lane_m1[:, lane], lane_m2[:, lane], m0, m1, m2)
    return m1, m2 / F32(size)


def forward(x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LayerNormKernelImplInternal on float32 (M, N): (y, mean, rstd)."""
    mean, var = moments(x)
    rstd = F32(1) / np.sqrt(var + F32(eps))
    g = np.ones(x.shape[1], F32) if gamma is None else gamma
    b = np.zeros(x.shape[1], F32) if beta is None else beta
    y = fma32((x - mean[:, None]) * rstd[:, None], np.broadcast_to(g, x.shape),
              np.broadcast_to(b, x.shape))
    return y, mean, rstd


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
             gamma: np.ndarray | None, threads: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LayerNormBackwardKernelImplInternal on float32 (M, N): (dx, dgamma, dbeta)."""
    rows, size = x.shape
    scale = F32(1) / F32(size)
    if gamma is None:
        ds, db = _dot_rows(dy, x), _sum_rows(dy)
    else:
        g = np.broadcast_to(gamma, x.shape)
        ds, db = _dot_rows(dy * x, g), _dot_rows(dy, g)
    a = rstd
    b = (((fma32(db, mean, -ds) * a) * a) * a) * scale
    c = fma32(-b, mean, -((db * a) * scale))
    weighted = (a[:, None] * dy) * (1 if gamma is None else gamma)
    dx = fma32(np.broadcast_to(b[:, None], x.shape), x, weighted) + c[:, None]
    # dgamma and dbeta: a float buffer per thread, its rows added in order, then the buffers
    dgamma = np.zeros(size, F32)
    dbeta = np.zeros(size, F32)
    used = max(1, min(threads, rows))
    chunk = -(-rows // used)
    for start in range(0, rows, chunk):
        g_buffer = np.zeros(size, F32)
        b_buffer = np.zeros(size, F32)
        for i in range(start, min(start + chunk, rows)):
            shifted = fma32(np.full(size, a[i], F32), x[i], np.full(size, -a[i] * mean[i], F32))
            g_buffer = fma32(dy[i], shifted, g_buffer)
            b_buffer += dy[i]
        dgamma += g_buffer
        dbeta += b_buffer
    return dx, dgamma, dbeta
