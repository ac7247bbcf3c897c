"""MKL's gemm called as ATen's kernels call cpublas::gemm on their own buffers: a 64-byte
aligned buffer (PyTorch's allocator's alignment: MKL takes another path for a misaligned
output, peeling its first columns, so the buffer's address is part of the bits), the
column-major call with normalize_last_dims' leading dimensions, and MKL on one thread while
ATen's parallel_for would run the calls inside an OpenMP region."""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator

import numpy as np

from gradsh.engine import threads
from gradsh.engine.vecmath import blas, mkl

__all__ = ["aligned", "elements", "Gemm", "sequential_in_region"]


@contextlib.contextmanager
def sequential_in_region(items: int) -> Iterator[None]:
    """MKL on one thread while PyTorch's parallel_for would run the items in an OpenMP region
    (more than one item and thread: MKL inside a parallel region runs sequentially)."""
    lib = mkl.library()
    if lib is None or threads.torch_threads() <= 1 or items <= 1:
        yield
        return
    local = lib.MKL_Set_Num_Threads_Local
    local.argtypes, local.restype = [ctypes.c_int], ctypes.c_int
    before = local(1)
    try:
        yield
    finally:
        local(before)


def aligned(shape: tuple[int, ...], dtype: np.dtype, zero: bool = False) -> np.ndarray:
    """An array on a 64-byte boundary, as PyTorch's allocator places its buffers."""
    count = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(count + 64, np.uint8)
    start = (-raw.ctypes.data) % 64
    out = raw[start:start + count].view(dtype).reshape(shape)
    if zero:
        out[...] = 0
    return out


def elements(a: np.ndarray) -> tuple[int, ...]:
    """An array's strides in elements."""
    return tuple(s // a.itemsize for s in a.strides)


class Gemm:
    """cpublas::gemm (column-major, normalize_last_dims) for one dtype through MKL."""

    def __init__(self, dtype: np.dtype) -> None:
        self.call = blas._calls(np.empty(0, dtype)).gemm
        self.dtype = dtype

    def __call__(self, ta: bool, tb: bool, m: int, n: int, k: int, alpha: float,
                 a: np.ndarray, lda: int, b: np.ndarray, ldb: int, beta: float,
                 c: np.ndarray, ldc: int) -> None:
        lds = blas._normalized(ta, tb, m, n, k, lda, ldb, ldc)
        if lds is None:
            raise RuntimeError("gemm: leading dimensions BLAS does not take")
        self.call(ta, tb, m, n, k, alpha, a, lds[0], b, lds[1], beta, c, lds[2])
