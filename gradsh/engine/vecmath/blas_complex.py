"""MKL's cgemm_ / zgemm_, ATen's complex64 / complex128 products (cpublas::gemm for
c10::complex), bound for blas.py's callers: only gemm (mv, dot and batched products of complex
operands stay NumPy's; bmm runs one gemm per matrix)."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine.vecmath import mkl

__all__ = ["routines"]


class _Calls:
    gemm: Callable[..., None] | None = None
    gemv: Callable[..., None] | None = None
    dot: Callable[..., Any] | None = None
    gemm_batch: Callable[..., None] | None = None


_BOUND: dict[str, type[_Calls] | None] = {}


def routines(dtype: np.dtype) -> type[_Calls] | None:
    """The calls for a complex dtype, or None (MKL not loaded, or another dtype)."""
    if dtype.char not in "FD":
        return None
    if dtype.char not in _BOUND:
        _BOUND[dtype.char] = _bind(dtype)
    return _BOUND[dtype.char]


def _bind(dtype: np.dtype) -> type[_Calls] | None:
    lib = mkl.library()
    if lib is None:
        return None
    xgemm = getattr(lib, ("c" if dtype.char == "F" else "z") + "gemm_")
    xgemm.restype = None
    c_int = ctypes.c_int

    def gemm(ta: bool, tb: bool, m: int, n: int, k: int, alpha: float, a: np.ndarray, lda: int,
             b: np.ndarray, ldb: int, beta: float, c: np.ndarray, ldc: int) -> None:
        scalars = np.array([alpha, beta], dtype)
        xgemm(b"T" if ta else b"N", b"T" if tb else b"N", ctypes.byref(c_int(m)),
              ctypes.byref(c_int(n)), ctypes.byref(c_int(k)),
              ctypes.c_void_p(scalars.ctypes.data), ctypes.c_void_p(a.ctypes.data),
              ctypes.byref(c_int(lda)), ctypes.c_void_p(b.ctypes.data),
              ctypes.byref(c_int(ldb)), ctypes.c_void_p(scalars.ctypes.data + dtype.itemsize),
              ctypes.c_void_p(c.ctypes.data), ctypes.byref(c_int(ldc)))

    calls = type("ComplexCalls", (_Calls,), {})
    calls.gemm = staticmethod(gemm)  # type: ignore[assignment]
    return calls
