"""MKL's geev, the routine behind PyTorch's linalg.eig and linalg.eigvals on the CPU.

ATen's apply_linalg_eig calls `?geev` with jobvl 'N' one matrix at a time on a column-major copy,
its workspace sized by the routine's own query; a real matrix's eigenvalues come back as (wr,
wi) and its eigenvectors in LAPACK's packed real form, which linalg_eig_make_complex_eigenvectors
turns into complex columns (a conjugate pair j, j+1 shares vr[:, j] +- i vr[:, j+1]). Without
MKL, NumPy's LAPACK geev (numpy.linalg.eig, the same routine and normalisation) stands in.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.lapack import _column_major_batch, _routine
from gradsh.engine.vecmath.lapack_decompositions import _aligned, _call, _matrices, _work_size

__all__ = ["geev"]

_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}
_COMPLEX = {"f": np.complex64, "d": np.complex128, "F": np.complex64, "D": np.complex128}


def geev(a: np.ndarray, vectors: bool) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """(eigenvalues, eigenvectors or None, info) of each matrix of a (count, n, n) stack of
    float32/float64/complex64/complex128: complex results of the matching precision."""
    if _routine("sgeev_") is None:
        return _numpy_geev(a, vectors)
    count, n, _ = a.shape
    char = a.dtype.char
    name = _PREFIX[char] + "geev_"
    cdtype = np.dtype(_COMPLEX[char])
    work_a = _column_major_batch(a, a.dtype)
    jobvr = b"V" if vectors else b"N"
    ldvr = max(1, n)
    info = np.zeros(count, np.int32)
    query = np.zeros(1, a.dtype)
    real_input = char in "fd"
    if real_input:
        values = _aligned((count, 2 * n), a.dtype)  # wr then wi, as ATen's real_imag_values
        vr = _aligned((count, n, n), a.dtype) if vectors else None

        def call(i: int, work: np.ndarray, lwork: int) -> None:
            row = values[i]
            _call(name, b"N", jobvr, n, work_a[i], max(1, n), row[:n], row[n:], None, 1,
                  None if vr is None else vr[i], ldvr, work, lwork, info[i:])
    else:
        values = _aligned((count, n), a.dtype)
        vr = _aligned((count, n, n), a.dtype) if vectors else None
        rwork = _aligned((2 * max(1, n),), np.dtype(a.real.dtype))

        def call(i: int, work: np.ndarray, lwork: int) -> None:
            _call(name, b"N", jobvr, n, work_a[i], max(1, n), values[i], None, 1,
                  None if vr is None else vr[i], ldvr, work, lwork, rwork, info[i:])
    call(0, query, -1)
    lwork = _work_size(query if real_input else np.ascontiguousarray(query.real))
    work = _aligned((lwork,), a.dtype)
    for i in range(count):
        call(i, work, lwork)
    if not real_input:
        return values, None if vr is None else _matrices(vr), info
    eigenvalues = np.empty((count, n), cdtype)
    eigenvalues.real, eigenvalues.imag = values[:, :n], values[:, n:]
    if vr is None:
        return eigenvalues, None, info
    return eigenvalues, _complex_vectors(eigenvalues, _matrices(vr), cdtype), info


def _complex_vectors(values: np.ndarray, packed: np.ndarray, cdtype: np.dtype) -> np.ndarray:
    """linalg_eig_make_complex_eigenvectors: LAPACK's packed real eigenvectors as complex
    columns (column-major, as ATen's result)."""
    out = np.zeros(packed.shape, cdtype)
    count, n, _ = packed.shape
    for b in range(count):
        j = 0
        while j < n:
            if values[b, j].imag == 0 or j == n - 1:
                out[b, :, j] = packed[b, :, j]
                j += 1
            else:
                out[b, :, j].real = packed[b, :, j]
                out[b, :, j].imag = packed[b, :, j + 1]
                out[b, :, j + 1] = np.conj(out[b, :, j])
                j += 2
    return np.ascontiguousarray(out.transpose(0, 2, 1)).transpose(0, 2, 1)


def _numpy_geev(a: np.ndarray, vectors: bool
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    cdtype = np.dtype(_COMPLEX[a.dtype.char])
    info = np.zeros(a.shape[0], np.int32)
    if vectors:
        w, v = np.linalg.eig(a)
        return w.astype(cdtype), v.astype(cdtype), info
    return np.linalg.eigvals(a).astype(cdtype), None, info
