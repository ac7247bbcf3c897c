"""MKL's LAPACK/BLAS routines behind PyTorch's qr, svd, eigh, cholesky and solve_triangular.

PyTorch 2.13's CPU kernels (aten/src/ATen/native/BatchLinearAlgebraKernel.cpp) call oneMKL's
geqrf + orgqr (linalg.qr), gesdd (linalg.svd / svdvals), syevd (linalg.eigh / eigvalsh), potrf
(linalg.cholesky), potrs / potri (cholesky_solve / cholesky_inverse) and trsm (solve_triangular)
one matrix at a time on column-major copies, each workspace sized by the routine's own query
(lapack_work_to_int: the float answer's next float up, rounded up). The functions here make the
same calls on the same layouts through the `mkl` package (vecmath/mkl.py), so their results are
torch's bits; `available` says whether MKL is loaded (without it the callers keep NumPy's
LAPACK). Arrays in and out are row-major (count, rows, cols) stacks of float32 or float64.
"""

from __future__ import annotations

import ctypes

import numpy as np

from gradsh.engine.vecmath.lapack import _column_major_batch, _routine, available

__all__ = ["available", "qr", "gesdd", "syevd", "potrf", "potrs", "potri", "trsm", "lstsq"]


def _aligned(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialised C-contiguous array at a 64-byte boundary, as ATen's allocator gives."""
    size = int(np.prod(shape))
    raw = np.empty(size + 64 // dtype.itemsize, dtype)
    offset = (-raw.ctypes.data % 64) // dtype.itemsize
    return raw[offset:offset + size].reshape(shape)


def _call(name: str, *args: object) -> None:
    """The Fortran routine `name` with every argument by reference: bytes as a char, int as an
    int32, an array (or None) as its address."""
    converted: list[object] = []
    for arg in args:
        if isinstance(arg, bytes):
            converted.append(ctypes.byref(ctypes.c_char(arg)))
        elif isinstance(arg, int):
            converted.append(ctypes.byref(ctypes.c_int(arg)))
        elif arg is None:
            converted.append(None)
        else:
            converted.append(ctypes.c_void_p(arg.ctypes.data))  # type: ignore[attr-defined]
    _routine(name)(*converted)  # type: ignore[operator]


def _work_size(query: np.ndarray) -> int:
    """ATen's lapack_work_to_int: max(1, ceil(nextafter(value, inf))) in the routine's type."""
    value = query[0]
    return max(1, int(np.ceil(np.nextafter(value, np.inf, dtype=query.dtype))))


def _prefix(dtype: np.dtype) -> str:
    return "s" if dtype.char == "f" else "d"


def _matrices(buffer: np.ndarray) -> np.ndarray:
    """A column-major batch (count, cols, rows) as its (count, rows, cols) matrices: a view
    with ATen's F-contiguous strides (later products see PyTorch's layouts)."""
    return np.swapaxes(buffer, -1, -2)


def qr(a: np.ndarray, compute_q: bool, reduced: bool) -> tuple[np.ndarray, np.ndarray]:
    """(Q, R) as linalg_qr_out: geqrf on A's column-major copy (workspace max(n, query)), R the
    upper triangle of its first rows, Q from orgqr on the first columns (all m when complete)."""
    count, m, n = a.shape
    k = min(m, n)
    p = _prefix(a.dtype)
    factors = _column_major_batch(a, a.dtype)
    tau = _aligned((count, k), a.dtype)
    query = np.zeros(1, a.dtype)
    info = np.zeros(1, np.int32)
    lda = max(1, m)
    _call(p + "geqrf_", m, n, factors[0], lda, tau[0], query, -1, info)
    lwork = max(n, _work_size(query))
    work = _aligned((lwork,), a.dtype)
    for i in range(count):
        _call(p + "geqrf_", m, n, factors[i], lda, tau[i], work, lwork, info)
    rows = k if reduced or not compute_q else m
    r = _matrices(np.tril(factors[:, :, :rows]))  # the upper triangle, F-contiguous
    if not compute_q:
        return np.empty((0,), a.dtype), r
    cols = k if reduced else m
    q = _aligned((count, cols, m), a.dtype)  # column-major Q
    shared = min(cols, n)
    q[:, :shared, :] = factors[:, :shared, :]
    _call(p + "orgqr_", m, cols, k, q[0], lda, tau[0], query, -1, info)
    lwork = _work_size(query)
    work = _aligned((lwork,), a.dtype)
    for i in range(count):
        _call(p + "orgqr_", m, cols, k, q[i], lda, tau[i], work, lwork, info)
    return _matrices(q), r


def gesdd(a: np.ndarray, full_matrices: bool, compute_uv: bool
          ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray | None, np.ndarray]:
    """(U, S, Vh, info) as apply_svd: gesdd with jobz 'A', 'S' or 'N' on A's column-major copy,
    U and Vh column-major (None without compute_uv)."""
    count, m, n = a.shape
    k = min(m, n)
    p = _prefix(a.dtype)
    jobz = (b"A" if full_matrices else b"S") if compute_uv else b"N"
    work_a = _column_major_batch(a, a.dtype)
    s = _aligned((count, k), a.dtype)
    u_cols, vh_rows = (m, n) if full_matrices else (k, k)
    u = _aligned((count, u_cols, m), a.dtype) if compute_uv else None
    vh = _aligned((count, n, vh_rows), a.dtype) if compute_uv else None
    ldu, ldvh = (max(1, m), max(1, vh_rows)) if compute_uv else (1, 1)
    iwork = np.empty(8 * k, np.int32)
    info = np.zeros(count, np.int32)
    query = np.zeros(1, a.dtype)
    lda = max(1, m)
    _call(p + "gesdd_", jobz, m, n, work_a[0], lda, s[0], None if u is None else u[0], ldu,
          None if vh is None else vh[0], ldvh, query, -1, iwork, info[:1])
    lwork = _work_size(query)
    work = _aligned((lwork,), a.dtype)
    for i in range(count):
        _call(p + "gesdd_", jobz, m, n, work_a[i], lda, s[i], None if u is None else u[i], ldu,
              None if vh is None else vh[i], ldvh, work, lwork, iwork, info[i:])
    return (None if u is None else _matrices(u), s,
            None if vh is None else _matrices(vh), info)


def syevd(a: np.ndarray, upper: bool, compute_v: bool
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(eigenvalues, eigenvectors, info) as apply_lapack_eigh: syevd with jobz 'V' or 'N' on
    A's column-major copy; it stops at the first matrix that fails, as ATen's loop."""
    count, n, _ = a.shape
    p = _prefix(a.dtype)
    jobz, uplo = (b"V" if compute_v else b"N"), (b"U" if upper else b"L")
    vectors = _column_major_batch(a, a.dtype)
    values = _aligned((count, n), a.dtype)
    info = np.zeros(count, np.int32)
    query, iquery = np.zeros(1, a.dtype), np.zeros(1, np.int32)
    lda = max(1, n)
    _call(p + "syevd_", jobz, uplo, n, vectors[0], lda, values[0], query, -1, iquery, -1, info)
    lwork, liwork = _work_size(query), max(1, int(iquery[0]))
    work, iwork = _aligned((lwork,), a.dtype), _aligned((liwork,), np.dtype(np.int32))
    for i in range(count):
        _call(p + "syevd_", jobz, uplo, n, vectors[i], lda, values[i], work, lwork, iwork,
              liwork, info[i:])
        if info[i]:
            break
    return values, _matrices(vectors), info


def potrf(a: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """(factor, info) as linalg_cholesky_ex: potrf on A's column-major copy, then its triangle
    (a failed matrix as potrf left it)."""
    count, n, _ = a.shape
    uplo = b"U" if upper else b"L"
    factor = _column_major_batch(a, a.dtype)
    info = np.zeros(count, np.int32)
    for i in range(count):
        _call(_prefix(a.dtype) + "potrf_", uplo, n, factor[i], max(1, n), info[i:])
    # the triangle, F-contiguous as ATen's L: the memory's other triangle is zeroed
    return _matrices(np.tril(factor) if upper else np.triu(factor)), info


def potrs(factor: np.ndarray, b: np.ndarray, upper: bool) -> np.ndarray:
    """X with A X = B from A's Cholesky factor (count, n, n) and B (count, n, k): potrs on
    column-major copies of both, as apply_cholesky_solve."""
    count, n, _ = factor.shape
    k = b.shape[-1]
    f, x = _column_major_batch(factor, factor.dtype), _column_major_batch(b, factor.dtype)
    info = np.zeros(1, np.int32)
    for i in range(count):
        _call(_prefix(factor.dtype) + "potrs_", b"U" if upper else b"L", n, k, f[i],
              max(1, n), x[i], max(1, n), info)
    return _matrices(x)


def potri(factor: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """(A^{-1}, info) from A's Cholesky factor: potri on a column-major copy, then the other
    triangle mirrored (apply_reflect_conj_tri_single); column-major like ATen's result."""
    count, n, _ = factor.shape
    x = _column_major_batch(factor, factor.dtype)
    info = np.zeros(count, np.int32)
    for i in range(count):
        _call(_prefix(factor.dtype) + "potri_", b"U" if upper else b"L", n, x[i], max(1, n),
              info[i:])
    # potri wrote the matrix's upper (lower) triangle: the memory's lower (upper) one
    rows, cols = np.indices((n, n))
    written = (cols <= rows) if upper else (cols >= rows)
    full = np.where(written, x, np.swapaxes(x, -1, -2))  # (a copy keeps potri's -0.0)
    return _matrices(full), info


def trsm(a: np.ndarray, b: np.ndarray, upper: bool, left: bool, unit: bool) -> np.ndarray:
    """X with A X = B (left) or X A = B, A's upper or lower triangle, as
    linalg_solve_triangular_out passes them to trsm. The batches broadcast. X is column-major
    (a one-row X is solved transposed, the side flipped, as its F-contiguous out has
    stride(-1) == 1); a contiguous A is passed in its own memory (row-major memory read as A^T:
    uplo flipped, trans 'T' unless X was transposed), any other A as a copy."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n = a.shape[-1]
    rows, cols = b.shape[-2:]
    dtype = b.dtype
    expanded = np.broadcast_to(a, batch + (n, n))
    contiguous = a.shape[:-2] == batch  # (an expanded A is a copy in ATen)
    row_major = contiguous and a.flags.c_contiguous
    col_major = contiguous and not row_major and np.swapaxes(a, -1, -2).flags.c_contiguous
    transpose_x = rows == 1
    if row_major or col_major:
        a_is_f = row_major == transpose_x
        memory_rows = row_major
    else:
        a_is_f, memory_rows = True, transpose_x
    square = expanded.reshape((-1, n, n))
    buffer = _aligned(square.shape, dtype)
    buffer[...] = square if memory_rows else np.swapaxes(square, -1, -2)
    flat = np.broadcast_to(b, batch + (rows, cols)).reshape((-1, rows, cols))
    if transpose_x:
        left = not left
        x, m_, n_ = _aligned((flat.shape[0], cols, 1), dtype), cols, 1
        x[:, :, 0] = flat[:, 0, :]
    else:
        x, m_, n_ = _column_major_batch(flat, dtype), rows, cols
    uplo = b"U" if upper != memory_rows else b"L"
    args = (b"L" if left else b"R", uplo, b"N" if a_is_f else b"T", b"U" if unit else b"N")
    alpha = np.ones(1, dtype)
    for i in range(x.shape[0]):
        _call(_prefix(dtype) + "trsm_", *args, m_, n_, alpha, buffer[i], max(1, n), x[i],
              max(1, m_))
    return _matrices(x).reshape(batch + (rows, cols))


def lstsq(a: np.ndarray, b: np.ndarray, rcond: float, driver: str
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the column-major (count, max(m, n), k) right sides as the driver leaves them, rank int32
    (count,), singular values (count, min(m, n))) as apply_lstsq: gels, gelsy, gelsd or gelss
    on A's column-major copy and B copied into the first m rows of a max(m, n)-row buffer,
    workspaces from one query; gelsy's jpvt is one array for the whole batch (ATen allocates it
    once, uninitialised: zero here, then each call's pivots for the next)."""
    count, m, n = a.shape
    k = b.shape[-1]
    p = _prefix(a.dtype)
    work_a = _column_major_batch(a, a.dtype)
    rows = max(m, n)
    work_b = _aligned((count, k, rows), a.dtype)
    work_b[...] = 0
    work_b[:, :, :m] = np.swapaxes(b, -1, -2)
    lda, ldb = max(1, m), max(1, rows)
    rank = np.zeros(count, np.int32)
    values = _aligned((count, min(m, n)), a.dtype)
    info = np.zeros(count, np.int32)
    r = np.array([rcond], a.dtype)
    jpvt = np.zeros(max(1, n), np.int32)
    rank_out = np.zeros(1, np.int32)
    query, iquery = np.zeros(1, a.dtype), np.zeros(1, np.int32)

    def call(i: int, work: np.ndarray, lwork: int, iwork: np.ndarray | None) -> None:
        args = (m, n, k, work_a[i], lda, work_b[i], ldb)
        if driver == "gels":
            _call(p + "gels_", b"N", *args, work, lwork, info[i:])
        elif driver == "gelsy":
            _call(p + "gelsy_", *args, jpvt, r, rank_out, work, lwork, info[i:])
        elif driver == "gelsd":
            _call(p + "gelsd_", *args, values[i], r, rank_out, work, lwork, iwork, info[i:])
        else:
            _call(p + "gelss_", *args, values[i], r, rank_out, work, lwork, info[i:])
        rank[i] = rank_out[0]

    call(0, query, -1, iquery)
    lwork = _work_size(query)
    work = _aligned((lwork,), a.dtype)
    iwork = np.empty(max(1, int(iquery[0])), np.int32)
    info[0] = 0
    for i in range(count):
        call(i, work, lwork, iwork)
    return work_b, rank, values
