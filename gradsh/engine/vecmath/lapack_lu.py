"""MKL's getrf on (count, m, n) stacks of any shape, as ATen's linalg_lu_factor_ex runs it
(apply_lu_factor: getrf on each matrix of a column-major copy). Callers check
lapack.available first; the NumPy getrf is functions/linalg_lu.py's."""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.lapack import _column_major_batch
from gradsh.engine.vecmath.lapack_decompositions import _call, _matrices, _prefix

__all__ = ["getrf"]


def getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(LU with column-major strides, 1-based int32 pivots (count, min(m, n)), int32 info)."""
    count, m, n = a.shape
    k = min(m, n)
    pivots = np.zeros((count, k), np.int32)
    info = np.zeros(count, np.int32)
    work = _column_major_batch(a, a.dtype)
    status = np.zeros(1, np.int32)
    if m and n:
        for i in range(count):
            _call(_prefix(a.dtype) + "getrf_", m, n, work[i], max(1, m), pivots[i], status)
            info[i] = status[0]
    return _matrices(work), pivots, info
