"""float32 products through MKL's own sgemm / sdot, called exactly as ATen calls them.

PyTorch 2.13's CPU wheel computes float32 mm, addmm, linear, bmm (from 400 multiply-adds a
matrix) and dot in Intel MKL 2024.2, linked statically. Where the `mkl` package of that version
is loaded (vecmath/mkl.py), gradsh calls the same routines with the same arguments ATen passes,
so the results are torch's bits for every size and layout, at MKL's speed; sgemm.py's emulation
of MKL's chains (bounded in time, bigger products through NumPy) is what runs without it.

The arguments follow aten/src/ATen/native/LinearAlgebra.cpp's addmm_impl_cpu_ (which operand
becomes BLAS's a, the transposes, a contiguous copy of an operand BLAS cannot read, the leading
dimensions) and CPUBlas.cpp's cpublas::gemm (normalize_last_dims, then sgemm_), and BlasKernel's
dot_impl (sdot_).
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator

import numpy as np

from gradsh.engine.vecmath import mkl

_INT_MAX = 2**31 - 1
_CBLAS_COL_MAJOR, _CBLAS_NO_TRANS, _CBLAS_TRANS = 102, 111, 112
_F32 = np.dtype(np.float32)


class _Routines:
    """sgemm_ and sdot_ of libmkl_rt (Fortran interface: every argument by reference)."""

    loaded = False
    off = False  # set by tests of sgemm.py's emulation (`emulating`)
    sgemm: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]
    sdot: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]
    sgemv: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]
    sgemm_batch: ctypes._CFuncPtr | None = None  # type: ignore[name-defined]


def _routines() -> _Routines | None:
    if not _Routines.loaded:
        _Routines.loaded = True
        lib = mkl.library()
        if lib is not None:
            ptr, i, f = ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_float)
            _Routines.sgemm = lib.sgemm_
            _Routines.sgemm.argtypes = [ctypes.c_char_p, ctypes.c_char_p, i, i, i, f, ptr, i,
                                        ptr, i, f, ptr, i]
            _Routines.sgemm.restype = None
            _Routines.sdot = lib.sdot_
            _Routines.sdot.argtypes = [i, ptr, i, ptr, i]
            _Routines.sdot.restype = ctypes.c_float
            _Routines.sgemv = lib.sgemv_
            _Routines.sgemv.argtypes = [ctypes.c_char_p, i, i, f, ptr, i, ptr, i, f, ptr, i]
            _Routines.sgemv.restype = None
            _Routines.sgemm_batch = lib.cblas_sgemm_batch
            _Routines.sgemm_batch.argtypes = [ctypes.c_int] + [ptr] * 13 + [ctypes.c_int, ptr]
            _Routines.sgemm_batch.restype = None
    return _Routines if _Routines.sgemm is not None and not _Routines.off else None


def available() -> bool:
    return _routines() is not None


@contextlib.contextmanager
def emulating() -> Iterator[None]:
    """Within: the products take sgemm.py's emulation even where MKL is loaded (its tests)."""
    before, _Routines.off = _Routines.off, True
    try:
        yield
    finally:
        _Routines.off = before


def _strides(x: np.ndarray) -> tuple[int, ...] | None:
    """x's strides in elements, or None where they are not whole elements."""
    item = x.itemsize
    if any(s % item for s in x.strides):
        return None
    return tuple(s // item for s in x.strides)


def _operand(x: np.ndarray, strides: tuple[int, ...] | None, major: int, minor: int, rows: int,
             cols: int, transpose_c: bool) -> tuple[np.ndarray, bool, int]:
    """addmm_impl_cpu_'s "cast m1 as matrix a": (array, transposed, leading dimension).
    `major`/`minor` index the stride that must be 1 / at least max(1, rows) for the untransposed
    form; (cols) bounds the transposed one."""
    if strides is not None and strides[major] == 1 and strides[minor] >= max(1, rows):
        transposed = False
    elif strides is not None and strides[minor] == 1 and strides[major] >= max(1, cols):
        transposed = True
    else:
        x = np.ascontiguousarray(x)
        transposed = not transpose_c
        strides = _strides(x)
    assert strides is not None
    return x, transposed, strides[1 if transposed == transpose_c else 0]


def addmm(start: np.ndarray | None, m1: np.ndarray, m2: np.ndarray, beta: float,
          alpha: float) -> np.ndarray | None:
    """beta * start + alpha * (m1 @ m2) for 2-D float32 arrays as ATen's addmm computes it (a new
    row-major result, `start` broadcast to it and copied in first when beta != 0), or None
    where MKL is not loaded or the shapes have nothing to multiply."""
    routines = _routines()
    m, k = m1.shape
    n = m2.shape[1]
    if routines is None or m == 0 or n == 0 or k == 0:
        return None
    if m1.dtype != _F32 or m2.dtype != _F32:
        return None
    result = np.empty((m, n), _F32)
    if beta != 0:
        result[...] = start
    # "Cast result as matrix c": a row-major result is BLAS's transposed c (the operands swap),
    # but a single column (strides (1, 1)) is a column-major one
    transpose_c = not (n == 1)
    first, second = (m2, m1) if transpose_c else (m1, m2)
    big_m, big_n = (n, m) if transpose_c else (m, n)
    s_first, s_second = _strides(first), _strides(second)
    major, minor = (1, 0) if transpose_c else (0, 1)
    a, trans_a, lda = _operand(first, s_first, major, minor, big_m, k, transpose_c)
    b, trans_b, ldb = _operand(second, s_second, major, minor, k, big_n, transpose_c)
    ldc = n if transpose_c else 1
    # cpublas's normalize_last_dims
    if big_n == 1:
        ldc = big_m
    if trans_a:
        if big_m == 1:
            lda = k
    elif k == 1:
        lda = big_m
    if trans_b:
        if k == 1:
            ldb = big_n
    elif big_n == 1:
        ldb = k
    if (max(big_m, big_n, k, lda, ldb, ldc) > _INT_MAX or lda < max(1, k if trans_a else big_m)
            or ldb < max(1, big_n if trans_b else k) or ldc < max(1, big_m)):
        return None  # ATen's gemm_stub, not BLAS (sizes past int, unusual leading dimensions)
    c_int, c_float = ctypes.c_int, ctypes.c_float
    routines.sgemm(b"T" if trans_a else b"N", b"T" if trans_b else b"N", c_int(big_m),
                   c_int(big_n), c_int(k), c_float(alpha), a.ctypes.data, c_int(lda),
                   b.ctypes.data, c_int(ldb), c_float(beta), result.ctypes.data, c_int(ldc))
    return result


def mm(m1: np.ndarray, m2: np.ndarray) -> np.ndarray | None:
    """m1 @ m2 (ATen's mm: addmm_impl_cpu_ with beta 0, alpha 1), or None."""
    return addmm(None, m1, m2, 0.0, 1.0)


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """x . y for 1-D float32 arrays as dot_impl calls sdot_ (a 0-d array), or None."""
    routines = _routines()
    n = x.shape[0]
    sx, sy = _strides(x), _strides(y)
    if routines is None or sx is None or sy is None or x.dtype != _F32 or y.dtype != _F32:
        return None
    incx, incy = (1, 1) if n == 1 else (sx[0], sy[0])
    if n > _INT_MAX or not 0 < incx <= _INT_MAX or not 0 < incy <= _INT_MAX:
        return None
    c_int = ctypes.c_int
    value = routines.sdot(c_int(n), x.ctypes.data, c_int(incx), y.ctypes.data, c_int(incy))
    return np.asarray(value, _F32)


def mv(mat: np.ndarray, vec: np.ndarray) -> np.ndarray | None:
    """mat @ vec (ATen's mv: addmv_out_cpu with beta 0, then gemv<float> into sgemv_), or None."""
    routines = _routines()
    m, n = mat.shape
    s, sv = _strides(mat), _strides(vec)
    if (routines is None or m == 0 or n == 0 or s is None or sv is None
            or mat.dtype != _F32 or vec.dtype != _F32):
        return None

    def lda_cond(rows: int, cols: int, lda: int) -> bool:
        return cols == 1 or lda >= max(1, rows)

    if s[0] == 1 and lda_cond(m, n, s[1]):
        a, trans, rows, cols, lda = mat, b"N", m, n, s[1]
    elif s[1] == 1 and lda_cond(n, m, s[0]):
        a, trans, rows, cols, lda = mat, b"T", n, m, s[0]
    else:
        a = np.ascontiguousarray(mat)
        trans, rows, cols, lda = b"T", n, m, n
    if cols == 1:  # gemv<float>
        lda = rows
    incx = sv[0]
    if max(rows, cols, lda) > _INT_MAX or not 0 < incx <= _INT_MAX or lda < max(1, rows):
        return None  # gemv's fallbacks, not BLAS
    result = np.empty(m, _F32)
    c_int, c_float = ctypes.c_int, ctypes.c_float
    routines.sgemv(trans, c_int(rows), c_int(cols), c_float(1.0), a.ctypes.data, c_int(lda),
                   vec.ctypes.data, c_int(incx), c_float(0.0), result.ctypes.data, c_int(1))
    return result


def bmm(batch1: np.ndarray, batch2: np.ndarray) -> np.ndarray | None:
    """batch1 @ batch2 for 3-D float32 arrays from 400 multiply-adds a matrix (ATen's
    bmm_out_or_baddbmm_: MKL's batched gemm on items that are contiguous or transposed, else
    addmm_impl_cpu_ on each), or None."""
    routines = _routines()
    bs, rows, k = batch1.shape
    cols = batch2.shape[2]
    s1, s2 = _strides(batch1), _strides(batch2)
    if (routines is None or bs == 0 or rows == 0 or cols == 0 or k == 0 or s1 is None
            or s2 is None or batch1.dtype != _F32 or batch2.dtype != _F32):
        return None
    result = np.empty((bs, rows, cols), _F32)

    def plain(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
        return ((strides[2] == 1 and (sizes[1] == 1 or strides[1] >= sizes[2]))
                or (strides[1] == 1 and (sizes[2] == 1 or strides[2] >= sizes[1])))

    if not (plain(batch1.shape, s1) and plain(batch2.shape, s2)):
        for b in range(bs):
            product = mm(batch1[b], batch2[b])
            if product is None:
                return None
            result[b] = product
        return result
    # baddbmm_with_gemm_: the operands swap (BLAS is column-major), then cpublas's
    # gemm_batched_with_stride normalises the leading dimensions as gemm does
    trans_a = s2[1] == 1 and s2[2] >= batch2.shape[1]
    trans_b = s1[1] == 1 and s1[2] >= batch1.shape[1]
    m, n = cols, rows
    lda, ldb, ldc = s2[2 if trans_a else 1], s1[2 if trans_b else 1], cols
    if n == 1:
        ldc = m
    if trans_a:
        if m == 1:
            lda = k
    elif k == 1:
        lda = m
    if trans_b:
        if k == 1:
            ldb = n
    elif n == 1:
        ldb = k
    if (max(m, n, k, lda, ldb, ldc) > _INT_MAX or lda < max(1, k if trans_a else m)
            or ldb < max(1, n if trans_b else k) or ldc < max(1, m)):
        return None
    c_int, c_float, byref = ctypes.c_int, ctypes.c_float, ctypes.byref
    if bs == 1:  # gemm_batched_with_stride: one product is cpublas::gemm's
        routines.sgemm(b"T" if trans_a else b"N", b"T" if trans_b else b"N", c_int(m), c_int(n),
                       c_int(k), c_float(1.0), batch2.ctypes.data, c_int(lda),
                       batch1.ctypes.data, c_int(ldb), c_float(0.0), result.ctypes.data,
                       c_int(ldc))
        return result
    # mkl_gemm_batched: cblas_sgemm_batch, one group of bs column-major products
    pointers = ctypes.c_void_p * bs
    a_list = pointers(*(batch2.ctypes.data + b * batch2.strides[0] for b in range(bs)))
    b_list = pointers(*(batch1.ctypes.data + b * batch1.strides[0] for b in range(bs)))
    c_list = pointers(*(result.ctypes.data + b * rows * cols * 4 for b in range(bs)))
    ta, tb = c_int(_CBLAS_TRANS if trans_a else _CBLAS_NO_TRANS), c_int(
        _CBLAS_TRANS if trans_b else _CBLAS_NO_TRANS)
    routines.sgemm_batch(_CBLAS_COL_MAJOR, byref(ta), byref(tb), byref(c_int(m)),
                         byref(c_int(n)), byref(c_int(k)), byref(c_float(1.0)), a_list,
                         byref(c_int(lda)), b_list, byref(c_int(ldb)), byref(c_float(0.0)),
                         c_list, byref(c_int(ldc)), 1, byref(c_int(bs)))
    return result
