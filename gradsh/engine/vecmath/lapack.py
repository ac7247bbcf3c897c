"""MKL's LAPACK getrf / getrs, the LU routines behind PyTorch's inv, solve, det and lu_factor.

PyTorch 2.13's CPU wheel factors with MKL 2024.2's `sgetrf_`/`dgetrf_` (apply_lu_factor, one
matrix at a time, column-major) and solves with `sgetrs_`/`dgetrs_` (apply_lu_solve). Where the
`mkl` package of that version is loaded (vecmath/mkl.py) gradsh calls the same routines on the
same column-major memory, so LU factors, pivots and solutions are torch's bits; the callers
(functions/linalg_lu.py) already follow ATen's composition (which matrix is factored, A or its
transpose, and whether getrs solves with it transposed). Without MKL they keep their NumPy
version of the same algorithms.
"""

from __future__ import annotations

import ctypes

import numpy as np

from gradsh.engine.vecmath import mkl

_ROUTINES: dict[str, object] = {}


def _routine(name: str) -> object | None:
    if name not in _ROUTINES:
        lib = mkl.library()
        found = None
        if lib is not None:
            found = getattr(lib, name)
            found.restype = None
        _ROUTINES[name] = found
    return _ROUTINES[name]


def available(dtype: np.dtype) -> bool:
    return dtype.char in "fd" and _routine("sgetrf_") is not None


def _column_major_batch(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A (count, cols, rows) C-contiguous buffer holding each (rows, cols) matrix of `a` in
    column-major order, 64-byte aligned like PyTorch's allocations: ATen's
    cloneBatchedColumnMajor. (The alignment is PyTorch's in case MKL's kernels branch on it;
    the 17 x 17 LUs that once differed were the threading layer's doing, see mkl.py.)"""
    count, rows, cols = a.shape
    size = count * rows * cols
    raw = np.empty(size + 64 // dtype.itemsize, dtype)
    offset = (-raw.ctypes.data % 64) // dtype.itemsize
    buffer = raw[offset:offset + size].reshape(count, cols, rows)
    buffer[...] = np.swapaxes(a, -1, -2)
    return buffer


def getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LU of each (n, n) matrix of a float32/float64 (count, n, n) stack, as getrf leaves it
    (row-major arrays of the factors), 1-based int32 pivots, int32 info."""
    count, n, _ = a.shape
    routine = _routine(("s" if a.dtype.char == "f" else "d") + "getrf_")
    work = _column_major_batch(a, a.dtype)
    pivots = np.empty((count, n), np.int32)
    info = np.zeros(count, np.int32)
    size, status = ctypes.c_int(n), ctypes.c_int(0)
    byref, base, step = ctypes.byref, work.ctypes.data, n * n * a.itemsize
    for i in range(count):
        routine(byref(size), byref(size), ctypes.c_void_p(base + i * step),  # type: ignore[operator]
                byref(size), pivots[i].ctypes.data_as(ctypes.c_void_p), byref(status))
        info[i] = status.value
    return np.ascontiguousarray(np.swapaxes(work, -1, -2)), pivots, info


def getrs(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray, transpose: bool) -> np.ndarray:
    """X with A X = B (transpose: A^T X = B) for (count, n, n) LU factors from getrf, their
    pivots and a (count, n, k) right side; LU and B in aligned column-major batches, as
    ATen's lu_solve passes them. X is a view with ATen's column-major strides."""
    count, n, _ = lu.shape
    k = b.shape[-1]
    routine = _routine(("s" if lu.dtype.char == "f" else "d") + "getrs_")
    factors = _column_major_batch(lu, lu.dtype)
    right = _column_major_batch(b, lu.dtype)
    piv = np.ascontiguousarray(pivots, np.int32)
    size, rhs, status = ctypes.c_int(n), ctypes.c_int(k), ctypes.c_int(0)
    trans = ctypes.c_char(b"T" if transpose else b"N")
    byref = ctypes.byref
    f_base, r_base, p_base = factors.ctypes.data, right.ctypes.data, piv.ctypes.data
    item = lu.itemsize
    for i in range(count):
        routine(byref(trans), byref(size), byref(rhs),  # type: ignore[operator]
                ctypes.c_void_p(f_base + i * n * n * item), byref(size),
                ctypes.c_void_p(p_base + i * n * 4), ctypes.c_void_p(r_base + i * n * k * item),
                byref(size), byref(status))
    return np.swapaxes(right, -1, -2)  # F-contiguous, as ATen's solutions
