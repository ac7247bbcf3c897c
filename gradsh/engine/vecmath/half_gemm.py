"""addmm and mm of float16 matrices as ATen's CPU gemm computes them (cpu/BlasKernel.cpp's
reduced-float loops), by layout: both operands row-major (or both column-major): every dot
product in float32 through `sum()`, four running partial sums (element l into sum l % 4 over
the whole groups of four, the rest into sum 0, then added up 0 + 1, + 2, + 3); a column-major
mat1 with a row-major mat2: each dot in order; a row-major mat1 with a column-major mat2
(F.linear's input @ weight.t()): fp16_dot_with_fp32_arith's vector blocks (dot_fp32_arith).
beta * c + alpha * dot is rounded to float16 once.

Measured against torch 2.13 (AMD EPYC): mm and addmm in all four layouts on 60 random shapes
up to 40, and F.linear's layout on 80 shapes with k up to 300, equal in every element.
Before, the product and the bias were rounded to float16 apart (nearly every F.linear output
had an element off by one unit in the last place), then F.linear's layout summed with four
partial sums (about 1 element in 2,600 off) and mm used NumPy's loop in every layout.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32


def ilp4_product(m1: np.ndarray, m2: np.ndarray) -> np.ndarray:
    """m1 @ m2 (float32 copies of float16 matrices) summed as ATen's `sum()` with four
    partial sums."""
    a, b = m1.astype(F32), m2.astype(F32)
    k = a.shape[1]
    parts = [np.zeros((a.shape[0], b.shape[1]), F32) for _ in range(4)]
    whole = k - k % 4
    for l in range(k):
        parts[l % 4 if l < whole else 0] += a[:, l:l + 1] * b[l]
    for i in range(1, 4):
        parts[0] += parts[i]
    return parts[0]


def ordered_product(m1: np.ndarray, m2: np.ndarray, start: np.ndarray | None = None,
                    alpha: float = 1) -> np.ndarray:
    """start + m1 @ (alpha * m2) (float32 copies of float16 matrices) as ATen's reduced-float
    gemm_transb_ (a column-major m1 with a row-major m2) computes it: a float32 accumulator
    starting at `start` (beta * c; zeros for mm) takes the products one k at a time, in order."""
    a, b = m1.astype(F32), m2.astype(F32)
    if alpha != 1:
        b = b * F32(alpha)
    out = np.zeros((a.shape[0], b.shape[1]), F32) if start is None else start.astype(F32)
    for l in range(a.shape[1]):
        out += a[:, l:l + 1] * b[l]
    return out


_LANES = 8  # Vectorized<float>::size() of the kernel torch dispatches to: AVX2's, measured
_PARTNERS = [np.arange(_LANES) ^ step for step in (4, 2)]


def _lane_sum(v: np.ndarray) -> np.ndarray:
    """vec_reduce_all(+) of 8 float32 lanes (the last axis) as AVX2's shuffles add them: lane
    i with lane i^4, then i^2, and lanes 0 and 1 last."""
    for partner in _PARTNERS:
        v = v + v[..., partner]
    return v[..., 0] + v[..., 1]


def dot_fp32_arith(m1: np.ndarray, m2: np.ndarray) -> np.ndarray:
    """m1 @ m2 (float32 copies of float16 matrices) with each dot as ATen's
    fp16_dot_with_fp32_arith sums it (ReducedPrecisionFloatGemvFastPathKernel.cpp, behind
    gemm_transa_: a row-major input times weight.t(), F.linear's layout): 64-element blocks
    into 8 registers of 8 lanes (element e of a block to register e // 8, lane e % 8), the
    registers added as a tree (i + 4, i + 2, i + 1) and the lanes by _lane_sum; then 16-element
    blocks fused into one 8-lane register (low half, then high half), its lane sum added; the
    last k % 16 products added one by one. Measured against torch 2.13 on 80 random shapes (k
    up to 300): equal in all 238,651 elements (16 lanes, AVX-512's width, differed in 121)."""
    a, b = m1.astype(F32), m2.astype(F32)
    m, k = a.shape
    n = b.shape[1]
    block, half = 8 * _LANES, 2 * _LANES
    aligned, aligned_vec = k - k % block, k - k % half
    out = np.empty((m, n), F32)
    rows = max(1, (1 << 22) // max(1, n * k))  # products of a few rows at a time
    for start in range(0, m, rows):
        prod = a[start:start + rows, None, :] * b.T[None, :, :]  # exact: float16 * float16
        total = np.zeros(prod.shape[:2], F32)
        if aligned:
            regs = np.zeros(prod.shape[:2] + (8, _LANES), F32)
            for j in range(0, aligned, block):
                regs += prod[..., j:j + block].reshape(prod.shape[:2] + (8, _LANES))
            for offset in (4, 2, 1):
                regs[..., :offset, :] += regs[..., offset:2 * offset, :]
            total = _lane_sum(regs[..., 0, :])
        tail = np.zeros(prod.shape[:2] + (_LANES,), F32)
        for j in range(aligned, aligned_vec, half):
            tail += prod[..., j:j + _LANES]
            tail += prod[..., j + _LANES:j + half]
        total = total + _lane_sum(tail)
        for j in range(aligned_vec, k):
            total = total + prod[..., j]
        out[start:start + rows] = total
    return out


def _column_major(m: np.ndarray) -> bool:
    return m.ndim == 2 and m.strides[0] == m.itemsize and m.strides[1] == m.itemsize * m.shape[0]


def addmm_half(bias: np.ndarray, m1: np.ndarray, m2: np.ndarray, beta: float,
               alpha: float) -> np.ndarray:
    """beta * bias + alpha * (m1 @ m2) for float16 arrays, rounded once to float16, each
    layout through its ATen loop (the module's docstring)."""
    if _column_major(m1) and not _column_major(m2):
        start = None
        if beta != 0:
            c = np.broadcast_to(bias, (m1.shape[0], m2.shape[1])).astype(F32)
            start = c if beta == 1 else c * F32(beta)
        return ordered_product(m1, m2, start, alpha).astype(np.float16)
    if _column_major(m2) and not _column_major(m1):
        wide = dot_fp32_arith(m1, m2)
    else:
        wide = ilp4_product(m1, m2)
    if alpha != 1:
        wide = wide * F32(alpha)
    if beta != 0:
        c = np.broadcast_to(bias, wide.shape).astype(F32)
        wide = wide + (c if beta == 1 else c * F32(beta))
    return wide.astype(np.float16)
