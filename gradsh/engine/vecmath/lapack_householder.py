"""MKL's geqrf and orgqr as torch.geqrf and torch.linalg.householder_product call them
(aten/src/ATen/native/BatchLinearAlgebra.cpp: apply_geqrf, apply_orgqr): one matrix at a time
on aligned column-major copies, the workspace sized by the routine's own query. Callers check
`available` first (lapack.py); without MKL they fall back to NumPy (householder.py)."""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.lapack import _column_major_batch
from gradsh.engine.vecmath.lapack_decompositions import (
    _aligned,
    _call,
    _matrices,
    _prefix,
    _work_size,
)

__all__ = ["geqrf", "orgqr"]


def geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(factors, tau) of a (count, m, n) stack: the factors as a view with column-major
    strides, as ATen returns them."""
    count, m, n = a.shape
    k = min(m, n)
    p = _prefix(a.dtype)
    factors = _column_major_batch(a, a.dtype)
    tau = _aligned((count, k), a.dtype)
    query, info = np.zeros(1, a.dtype), np.zeros(1, np.int32)
    lda = max(1, m)
    if count and m and n:
        _call(p + "geqrf_", m, n, factors[0], lda, tau[0], query, -1, info)
        lwork = max(n, _work_size(query))
        work = _aligned((lwork,), a.dtype)
        for i in range(count):
            _call(p + "geqrf_", m, n, factors[i], lda, tau[i], work, lwork, info)
    return _matrices(factors), tau


def orgqr(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """The first n columns of the product of the k Householder reflectors stored below the
    diagonal of each (m, n) matrix of `a` with their scales `tau` (count, k)."""
    count, m, n = a.shape
    k = tau.shape[-1]
    p = _prefix(a.dtype)
    q = _column_major_batch(a, a.dtype)
    scales = np.ascontiguousarray(tau, a.dtype)
    query, info = np.zeros(1, a.dtype), np.zeros(1, np.int32)
    lda = max(1, m)
    if count and m and n:
        _call(p + "orgqr_", m, n, k, q[0], lda, scales[0], query, -1, info)
        work = _aligned((_work_size(query),), a.dtype)
        for i in range(count):
            _call(p + "orgqr_", m, n, k, q[i], lda, scales[i], work, work.size, info)
    return _matrices(q)
