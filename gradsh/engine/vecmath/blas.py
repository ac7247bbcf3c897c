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
import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from gradsh.engine.vecmath import blas_complex, mkl

_INT_MAX = 2**31 - 1
_CBLAS_COL_MAJOR, _CBLAS_NO_TRANS, _CBLAS_TRANS = 102, 111, 112
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


class _Routines:
    """MKL's sgemm_, sgemv_, sdot_ (Fortran interface) through the _blas extension, or ctypes
    where it was not built; cblas_sgemm_batch through ctypes."""

    loaded = False
    off = False  # set by tests of sgemm.py's emulation (`emulating`)
    gemm: Callable[..., None] | None = None
    gemv: Callable[..., None] | None = None
    dot: Callable[..., float] | None = None
    gemm_batch: Callable[..., None] | None = None


def _ctypes_calls(lib: ctypes.CDLL, prefix: str, scalar: Any) -> tuple[Any, Any, Any, Any]:
    """(gemm, gemv, dot, gemm_batch) of one precision through ctypes: prefix "s" with c_float,
    "d" with c_double (the Fortran routines take every argument by reference)."""
    ptr, i, f = ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(scalar)
    xgemm, xgemv, xdot = (getattr(lib, prefix + name) for name in ("gemm_", "gemv_", "dot_"))
    batch = getattr(lib, f"cblas_{prefix}gemm_batch")
    xgemm.argtypes = [ctypes.c_char_p, ctypes.c_char_p, i, i, i, f, ptr, i, ptr, i, f, ptr, i]
    xgemv.argtypes = [ctypes.c_char_p, i, i, f, ptr, i, ptr, i, f, ptr, i]
    xdot.argtypes = [i, ptr, i, ptr, i]
    batch.argtypes = [ctypes.c_int] + [ptr] * 13 + [ctypes.c_int, ptr]
    xgemm.restype = xgemv.restype = batch.restype = None
    xdot.restype = scalar
    c_int = ctypes.c_int

    def gemm(ta: bool, tb: bool, m: int, n: int, k: int, alpha: float, a: np.ndarray, lda: int,
             b: np.ndarray, ldb: int, beta: float, c: np.ndarray, ldc: int) -> None:
        xgemm(b"T" if ta else b"N", b"T" if tb else b"N", c_int(m), c_int(n), c_int(k),
              scalar(alpha), a.ctypes.data, c_int(lda), b.ctypes.data, c_int(ldb),
              scalar(beta), c.ctypes.data, c_int(ldc))

    def gemv(t: bool, m: int, n: int, alpha: float, a: np.ndarray, lda: int, x: np.ndarray,
             incx: int, beta: float, y: np.ndarray, incy: int) -> None:
        xgemv(b"T" if t else b"N", c_int(m), c_int(n), scalar(alpha), a.ctypes.data,
              c_int(lda), x.ctypes.data, c_int(incx), scalar(beta), y.ctypes.data, c_int(incy))

    def dot(n: int, x: np.ndarray, incx: int, y: np.ndarray, incy: int) -> float:
        return xdot(c_int(n), x.ctypes.data, c_int(incx), y.ctypes.data, c_int(incy))

    return gemm, gemv, dot, batch


def _bind(lib: ctypes.CDLL) -> None:
    """float32 through the _blas extension where it was built (its gemm, gemv and dot; the
    batched gemm always through ctypes), else ctypes; float64 through ctypes."""
    gemm, gemv, dot, _Routines.gemm_batch = _ctypes_calls(lib, "s", ctypes.c_float)
    try:
        from gradsh.engine.vecmath import _blas  # type: ignore[attr-defined]
    except ImportError:
        _blas = None
    if _blas is not None:
        _blas.bind(*(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
                     for name in ("sgemm_", "sgemv_", "sdot_")))
        gemm, gemv, dot = _blas.gemm, _blas.gemv, _blas.dot
    _Routines.gemm, _Routines.gemv, _Routines.dot = gemm, gemv, dot
    _Double.gemm, _Double.gemv, _Double.dot, _Double.gemm_batch = _ctypes_calls(
        lib, "d", ctypes.c_double)


def _routines() -> type[_Routines] | None:
    if not _Routines.loaded:
        _Routines.loaded = True
        lib = mkl.library()
        if lib is not None:
            _bind(lib)
    return _Routines if _Routines.gemm is not None and not _Routines.off else None


class _Double:
    """dgemm_, dgemv_, ddot_ and cblas_dgemm_batch (float64; through ctypes)."""

    gemm: Callable[..., None] | None = None
    gemv: Callable[..., None] | None = None
    dot: Callable[..., float] | None = None
    gemm_batch: Callable[..., None] | None = None


def _calls(*arrays: np.ndarray) -> Any:
    """The routines for the arrays' common dtype (float32: _Routines, float64: _Double), or
    None where MKL is not loaded or the dtype is another."""
    dtype = arrays[0].dtype
    for a in arrays:  # (a loop, not any(): every product's path)
        if a.dtype != dtype:
            return None
    if _routines() is None:
        return None
    if dtype == _F32:
        return _Routines
    if dtype == _F64 and _Double.gemm is not None:
        return _Double
    if dtype.kind == "c":  # cgemm_ / zgemm_ (gemm only)
        return blas_complex.routines(dtype)
    return None


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


@functools.cache
def genuine_intel() -> bool:
    """Whether this CPU is Intel's. MKL picks its kernels by vendor as well as by instruction
    set: on Intel's AVX-512 CPUs its sgemm gives the bits of oneDNN's own JIT sgemm (which
    PyTorch's LSTM runs), on AMD's AVX-512 CPUs it takes other kernels while oneDNN's JIT code
    stays the same (measured on an AMD EPYC: 483,428 of 560,000 elements of a (700, 200) @
    (200, 800) product differ). False where the vendor cannot be read."""
    return cpu_vendor() == "GenuineIntel"


def cpu_vendor() -> str | None:
    """/proc/cpuinfo's vendor_id ("GenuineIntel", "AuthenticAMD" ...), or None."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _strides(x: np.ndarray) -> tuple[int, ...] | None:
    """x's strides in elements, or None where they are not whole elements."""
    item = x.itemsize
    if any(s % item for s in x.strides):
        return None
    return tuple(s // item for s in x.strides)


def _normalized(trans_a: bool, trans_b: bool, m: int, n: int, k: int, lda: int, ldb: int,
                ldc: int) -> tuple[int, int, int] | None:
    """cpublas's normalize_last_dims, then use_blas_gemm's check: the leading dimensions, or
    None where ATen does not call BLAS."""
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
    return lda, ldb, ldc


def _operand(shape: tuple[int, ...], strides: tuple[int, ...], major: int, minor: int,
             rows: int, cols: int, transpose_c: bool) -> tuple[bool, bool, int]:
    """addmm_impl_cpu_'s "cast m1 as matrix a": (copied to row-major first, transposed, leading
    dimension). `major`/`minor` index the stride that must be 1 / at least max(1, rows) for the
    untransposed form; `cols` bounds the transposed one."""
    if strides[major] == 1 and strides[minor] >= max(1, rows):
        return False, False, strides[0 if transpose_c else 1]
    if strides[minor] == 1 and strides[major] >= max(1, cols):
        return False, True, strides[1 if transpose_c else 0]
    transposed = not transpose_c  # the contiguous copy's strides: (shape[1], 1)
    return True, transposed, (shape[1], 1)[1 if transposed == transpose_c else 0]


Plan = tuple[bool, bool, bool, int, int, int, int, int, int, bool, bool]
_PLANS: dict[tuple[tuple[int, ...], ...], Plan | None] = {}


def _plan(shape1: tuple[int, ...], strides1: tuple[int, ...], shape2: tuple[int, ...],
          strides2: tuple[int, ...], item: int) -> Plan | None:
    """addmm_impl_cpu_'s arguments for a new row-major (m, n) result: (swap the operands, trans_a,
    trans_b, m, n, k, lda, ldb, ldc, copy the first, copy the second); None: not BLAS."""
    if any(s % item for s in strides1 + strides2):
        return None
    s1, s2 = tuple(s // item for s in strides1), tuple(s // item for s in strides2)
    m, k = shape1
    n = shape2[1]
    # "Cast result as matrix c": a row-major result is BLAS's transposed c (the operands swap),
    # but a single column (strides (1, 1)) is a column-major one
    transpose_c = n != 1
    (first, s_first), (second, s_second) = (((shape2, s2), (shape1, s1)) if transpose_c
                                            else ((shape1, s1), (shape2, s2)))
    big_m, big_n = (n, m) if transpose_c else (m, n)
    major, minor = (1, 0) if transpose_c else (0, 1)
    copy_a, trans_a, lda = _operand(first, s_first, major, minor, big_m, k, transpose_c)
    copy_b, trans_b, ldb = _operand(second, s_second, major, minor, k, big_n, transpose_c)
    lds = _normalized(trans_a, trans_b, big_m, big_n, k, lda, ldb, n if transpose_c else 1)
    if lds is None:
        return None  # ATen's gemm_stub, not BLAS (sizes past int, unusual leading dimensions)
    return (transpose_c, trans_a, trans_b, big_m, big_n, k, *lds, copy_a, copy_b)


def addmm(start: np.ndarray | None, m1: np.ndarray, m2: np.ndarray, beta: float,
          alpha: float) -> np.ndarray | None:
    """beta * start + alpha * (m1 @ m2) for 2-D float32 arrays as ATen's addmm computes it (a new
    row-major result, `start` broadcast to it and copied in first when beta != 0), or None
    where MKL is not loaded or the shapes have nothing to multiply."""
    routines = _calls(m1, m2)
    if routines is None:
        return None
    m, k = m1.shape
    n = m2.shape[1]
    if m == 0 or n == 0 or k == 0:
        return None
    key = (m1.shape, m1.strides, m2.shape, m2.strides, m1.itemsize)
    try:
        plan = _PLANS[key]
    except KeyError:
        plan = _PLANS[key] = _plan(*key)
    if plan is None:
        return None
    swap, trans_a, trans_b, big_m, big_n, k, lda, ldb, ldc, copy_a, copy_b = plan
    result = np.empty((m, n), m1.dtype)
    if beta != 0:
        result[...] = start
    a, b = (m2, m1) if swap else (m1, m2)
    if copy_a:
        a = np.ascontiguousarray(a)
    if copy_b:
        b = np.ascontiguousarray(b)
    routines.gemm(trans_a, trans_b, big_m, big_n, k, alpha, a, lda, b, ldb, beta, result, ldc)
    return result


def mm(m1: np.ndarray, m2: np.ndarray) -> np.ndarray | None:
    """m1 @ m2 (ATen's mm: addmm_impl_cpu_ with beta 0, alpha 1), or None."""
    return addmm(None, m1, m2, 0.0, 1.0)


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """x . y for 1-D float32 arrays as dot_impl calls sdot_ (a 0-d array), or None."""
    routines = _calls(x, y)
    if routines is None or routines.dot is None:
        return None
    n = x.shape[0]
    sx, sy = _strides(x), _strides(y)
    if sx is None or sy is None:
        return None
    incx, incy = (1, 1) if n == 1 else (sx[0], sy[0])
    if n > _INT_MAX or not 0 < incx <= _INT_MAX or not 0 < incy <= _INT_MAX:
        return None
    return np.asarray(routines.dot(n, x, incx, y, incy), x.dtype)


def mv(mat: np.ndarray, vec: np.ndarray) -> np.ndarray | None:
    """mat @ vec (ATen's mv: addmv_out_cpu with beta 0, then gemv<float> into sgemv_), or None."""
    routines = _calls(mat, vec)
    m, n = mat.shape
    s, sv = _strides(mat), _strides(vec)
    if routines is None or m == 0 or n == 0 or s is None or sv is None or routines.gemv is None:
        return None

    def lda_cond(rows: int, cols: int, lda: int) -> bool:
        return cols == 1 or lda >= max(1, rows)

    if s[0] == 1 and lda_cond(m, n, s[1]):
        a, trans, rows, cols, lda = mat, False, m, n, s[1]
    elif s[1] == 1 and lda_cond(n, m, s[0]):
        a, trans, rows, cols, lda = mat, True, n, m, s[0]
    else:
        a = np.ascontiguousarray(mat)
        trans, rows, cols, lda = True, n, m, n
    if cols == 1:  # gemv<float>
        lda = rows
    incx = sv[0]
    if max(rows, cols, lda) > _INT_MAX or not 0 < incx <= _INT_MAX or lda < max(1, rows):
        return None  # gemv's fallbacks, not BLAS
    result = np.empty(m, mat.dtype)
    routines.gemv(trans, rows, cols, 1.0, a, lda, vec, incx, 0.0, result, 1)
    return result


def bmm(batch1: np.ndarray, batch2: np.ndarray) -> np.ndarray | None:
    """batch1 @ batch2 for 3-D float32 arrays from 400 multiply-adds a matrix (ATen's
    bmm_out_or_baddbmm_: MKL's batched gemm on items that are contiguous or transposed, else
    addmm_impl_cpu_ on each), or None."""
    routines = _calls(batch1, batch2)
    bs, rows, k = batch1.shape
    cols = batch2.shape[2]
    s1, s2 = _strides(batch1), _strides(batch2)
    if (routines is None or bs == 0 or rows == 0 or cols == 0 or k == 0 or s1 is None
            or s2 is None):
        return None
    result = np.empty((bs, rows, cols), batch1.dtype)

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
    lds = _normalized(trans_a, trans_b, cols, rows, k, s2[2 if trans_a else 1],
                      s1[2 if trans_b else 1], cols)
    if lds is None:
        return None
    lda, ldb, ldc = lds
    if bs == 1 or routines.gemm_batch is None:  # gemm_batched_with_stride: one product is
        # cpublas::gemm's (complex operands: one gemm per matrix)
        if bs > 1:
            for b in range(bs):
                routines.gemm(trans_a, trans_b, cols, rows, k, 1.0, batch2[b], lda, batch1[b],
                              ldb, 0.0, result[b], ldc)
            return result
        routines.gemm(trans_a, trans_b, cols, rows, k, 1.0, batch2[0], lda, batch1[0], ldb, 0.0,
                      result[0], ldc)
        return result
    c_int, byref = ctypes.c_int, ctypes.byref
    # mkl_gemm_batched: cblas_sgemm_batch, one group of bs column-major products
    pointers = ctypes.c_void_p * bs
    base_a, base_b, base_c = batch2.ctypes.data, batch1.ctypes.data, result.ctypes.data
    a_list = pointers(*(base_a + b * batch2.strides[0] for b in range(bs)))
    b_list = pointers(*(base_b + b * batch1.strides[0] for b in range(bs)))
    c_list = pointers(*(base_c + b * rows * cols * result.itemsize for b in range(bs)))
    ta, tb = c_int(_CBLAS_TRANS if trans_a else _CBLAS_NO_TRANS), c_int(
        _CBLAS_TRANS if trans_b else _CBLAS_NO_TRANS)
    scalar = ctypes.c_float if result.dtype == _F32 else ctypes.c_double
    routines.gemm_batch(_CBLAS_COL_MAJOR, byref(ta), byref(tb), byref(c_int(cols)),
                        byref(c_int(rows)), byref(c_int(k)), byref(scalar(1.0)), a_list,
                        byref(c_int(lda)), b_list, byref(c_int(ldb)), byref(scalar(0.0)),
                        c_list, byref(c_int(ldc)), 1, byref(c_int(bs)))
    return result
