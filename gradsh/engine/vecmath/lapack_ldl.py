"""MKL's sytrf and sytrs as torch.linalg.ldl_factor_ex and ldl_solve call them (apply_ldl_factor,
apply_ldl_solve: the lower triangle, one matrix at a time on aligned column-major copies, the
workspace from sytrf's own query)."""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.lapack import _column_major_batch
from gradsh.engine.vecmath.lapack_decompositions import _aligned, _call, _matrices, _prefix

__all__ = ["sytrf", "sytrs"]


def sytrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(LD with column-major strides, its lower triangle only; Bunch-Kaufman pivots, 1-based
    int32, negative for 2 x 2 blocks; int32 info) of a (count, n, n) stack."""
    count, n, _ = a.shape
    p = _prefix(a.dtype)
    factors = _column_major_batch(np.tril(a), a.dtype)
    pivots = np.zeros((count, n), np.int32)
    info = np.zeros(count, np.int32)
    status = np.zeros(1, np.int32)
    if count and n:
        query = np.zeros(1, a.dtype)
        _call(p + "sytrf_", b"L", n, factors[0], max(1, n), pivots[0], query, -1, status)
        work = _aligned((max(1, int(query[0])),), a.dtype)
        for i in range(count):
            _call(p + "sytrf_", b"L", n, factors[i], max(1, n), pivots[i], work, work.size,
                  status)
            info[i] = status[0]
    return _matrices(factors), pivots, info


def sytrs(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """X with A X = B from sytrf's factors of A (count, n, n) and B (count, n, k); X with
    column-major strides."""
    count, n, _ = ld.shape
    k = b.shape[-1]
    p = _prefix(ld.dtype)
    factors = _column_major_batch(ld, ld.dtype)
    right = _column_major_batch(b, ld.dtype)
    piv = np.ascontiguousarray(pivots, np.int32)
    status = np.zeros(1, np.int32)
    if n and k:
        for i in range(count):
            _call(p + "sytrs_", b"L", n, k, factors[i], max(1, n), piv[i], right[i], max(1, n),
                  status)
    return _matrices(right)
