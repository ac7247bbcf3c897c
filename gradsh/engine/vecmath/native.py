"""The optional compiled kernels (_native.c) behind vecmath's exact float32 emulations, same bits.

`kernels` is the extension module, or None where it was not built (no C compiler at install)
or GRADSH_NATIVE=0 is set; the callers (sgemm.py, fp.fma32, sleef.py, cascade_sum.py,
kernels.py's log_softmax, nll_sum.py) then run their NumPy emulation. Each function here takes
and returns what the emulated function of the same name does (sgemm's `chain_parts`, `_dot_rows`,
...); `blocked` is sgemm's general kernel with its blocks, start and scaling in one call.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType

import numpy as np

F32 = np.float32


def _load() -> ModuleType | None:
    if os.environ.get("GRADSH_NATIVE", "").strip() == "0":
        return None
    try:
        from gradsh.engine.vecmath import _native
    except ImportError:
        return None
    return _native


kernels = _load()
# The cost of a product through the kernels (microseconds), measured on the reference machine:
# a call's overhead and the multiply-adds (0.014-0.06 ns each in the AVX-512 packed general
# kernel, 0.1-0.3 ns in the dot kernels; 0.1 ns is kept as a safe figure); the portable copy
# calls libm's fmaf for each (about 1 ns with a hardware fma, several without).
CALL_US = 10.0
MULTIPLY_ADD_US = 0.0001
PORTABLE_MULTIPLY_ADD_US = 0.003


def cost(multiply_adds: int) -> float:
    """The estimated time of a product of `multiply_adds` through the kernels, microseconds."""
    assert kernels is not None
    each = PORTABLE_MULTIPLY_ADD_US if kernels.level() == "portable" else MULTIPLY_ADD_US
    return CALL_US + multiply_adds * each


# A gathered operand of `chain`: (base, rows, columns), element (r, c) at
# base.flat[rows[r] + columns[c]] (base C-contiguous float32, the offsets int64).
Gathered = tuple[np.ndarray, np.ndarray, np.ndarray]


def chain(a: np.ndarray | Gathered, b: np.ndarray | Gathered, blocks: list[tuple[int, int]],
          start: np.ndarray | None = None) -> np.ndarray:
    """One fused chain per output and k block, from 0 (or `start`): (len(blocks), m, n). An
    operand may be gathered (a convolution's windows, read where they lie)."""
    assert kernels is not None
    a, b = _f32_view(a), _f32_view(b)
    m = a[1].size if isinstance(a, tuple) else a.shape[0]
    n = b[2].size if isinstance(b, tuple) else b.shape[1]
    parts = np.zeros((len(blocks), m, n), F32)
    if start is not None:
        parts[0] = start
    for i, block in enumerate(blocks):
        kernels.gemm(parts[i], a, b, tuple(block), None, 1.0, 1.0, True)
    return parts


def blocked_into(out: np.ndarray | Gathered, a: np.ndarray | Gathered,
                 b: np.ndarray | Gathered, blocks: list[tuple[int, int]],
                 start: np.ndarray | None = None) -> None:
    """The general kernel's k blocks written into `out` (an array or gathered, its elements
    each named once): each block's chains from 0, the first fused with `start` (fma(1, start,
    it): their sum, rounded once), the others added in turn."""
    assert kernels is not None
    flat = tuple(bound for block in blocks for bound in block)
    kernels.gemm(out, _f32_view(a), _f32_view(b), flat, start, 1.0, 1.0, False)


def blocked(a: np.ndarray, b: np.ndarray, blocks: tuple[int, ...],
            start: np.ndarray | None = None, beta: float = 1.0, alpha: float = 1.0) -> np.ndarray:
    """MKL's general kernel in one call, as sgemm.addmm composes it: each k block's chains
    (`blocks`: k0, k1, k0, k1, ...) times alpha, the first fused with beta * start (None: no
    start), the others added in turn; a new row-major (m, n) array."""
    assert kernels is not None
    out = np.empty((a.shape[0], b.shape[1]), F32)
    if start is not None and start.dtype != _F32:
        start = start.astype(F32)
    kernels.gemm(out, _f32_view(a), _f32_view(b), blocks, start, beta, alpha, False)
    return out


def _f32_view(x: np.ndarray | Gathered) -> np.ndarray | Gathered:
    """x as float32 for the general kernel, which reads any strides: a copy only of another
    dtype (a gathered operand as it is)."""
    return x if isinstance(x, tuple) or x.dtype == _F32 else x.astype(F32)


def _f32(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, F32)


def dot_rows(a: np.ndarray, b: np.ndarray, peel: bool) -> np.ndarray:
    """MKL's 16-lane dot kernel, two accumulators on even rows: (m, n)."""
    assert kernels is not None
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), F32)
    kernels.dot_rows(out, _f32(a), _f32(b.T), m, n, k, peel)
    return out


def gemv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's sgemv dot form on rows of a (and the columns of b): (m, n)."""
    assert kernels is not None
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), F32)
    kernels.gemv(out, _f32(a), _f32(b.T), m, n, k)
    return out


def sdot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MKL's sdot, a 0-d float32 array."""
    assert kernels is not None
    return np.asarray(kernels.sdot(_f32(x), _f32(y), x.shape[0]), F32).reshape(())


def axpy(x: np.ndarray, rows: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """MKL's sgemv axpy form: sum_k x[k] * rows[k] from `start` (or 0), (n,)."""
    assert kernels is not None
    k, n = rows.shape
    y = np.zeros(n, F32) if start is None else np.array(start, F32)
    kernels.axpy(y, _f32(x), _f32(rows), k, n)
    return y


def unfused_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ATen's small bmm loop on (batch, m, k) @ (batch, k, n)."""
    assert kernels is not None
    batch, m, k = a.shape
    n = b.shape[2]
    out = np.empty((batch, m, n), F32)
    kernels.unfused(out, _f32(a), _f32(b), batch, m, n, k)
    return out


_F32 = np.dtype(F32)
_F64 = np.dtype(np.float64)
_NUMBERS = (float, int, np.floating)


def fma32(a: object, b: object, c: object) -> np.ndarray | None:
    """fp.fma32 (a * b + c, one rounding) through fmaf: the same bits; None where an operand is
    not a float32 or float64 array (of float32 values, as fp.fma32 takes them) or a number."""
    assert kernels is not None
    if _scaled_form(a, b, c):
        # x + alpha * y (add's and the optimizers' scaled form), without the general checks
        out = np.empty(a.shape, F32)  # type: ignore[attr-defined]
        kernels.fma(out, a, b, c, out.size)
        return out
    operands = []
    shape: tuple[int, ...] | None = ()
    for x in (a, b, c):
        if x.__class__ is np.ndarray:
            kind = x.dtype  # type: ignore[attr-defined]
            if kind != _F32:
                if kind != _F64:
                    return None
                x = x.astype(F32)  # type: ignore[attr-defined]
            if x.ndim and shape is not None:  # type: ignore[attr-defined]
                shape = x.shape if not shape or shape == x.shape else None  # type: ignore
        elif isinstance(x, _NUMBERS):
            x = np.asarray(F32(x))  # type: ignore[arg-type]
        else:
            return None
        operands.append(x)
    if shape is None:  # operands of different shapes: broadcast (a one-element one is not)
        shape = np.broadcast(*operands).shape
        operands = [x if x.size == 1 or x.shape == shape else np.broadcast_to(x, shape)
                    for x in operands]
    out = np.empty(shape, F32)
    kernels.fma(out, *[x if x.flags.c_contiguous else np.ascontiguousarray(x)
                       for x in operands], out.size)
    return out if out.ndim else out[()]


def fma_rows_into(acc: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """acc = fma(a[i], b[i], acc) for each row i in turn, in place: a float32 (fmaf) or float64
    (fma) accumulator and C-contiguous rows of its dtype (a reduction's row-after-row buffer)."""
    assert kernels is not None
    fma = kernels.fma if acc.dtype == F32 else kernels.fma64
    for i in range(a.shape[0]):
        fma(acc, a[i], b[i], acc, acc.size)  # (in place: each element read, then written)


def fma32_into(a: object, b: object, c: np.ndarray) -> bool:
    """c = fma32(a, b, c), written into c's own storage (an optimizer's in-place update: no
    result array, no copy into the parameter), when the operands are fma32's scaled form, c is
    writeable and a is not part of c (the kernel writes c a block at a time); False, and
    nothing done, otherwise."""
    assert kernels is not None
    if _scaled_form(a, b, c) and c.flags.writeable and (a is c or not np.may_share_memory(a, c)):
        kernels.fma(c, a, b, c, c.size)
        return True
    return False


def _scaled_form(a: object, b: object, c: object) -> bool:
    """Whether a * b + c is x + alpha * y: contiguous float32 arrays of one shape (not 0-d) and
    a float32 scalar."""
    return (a.__class__ is np.ndarray and c.__class__ is np.ndarray and b.__class__ is F32
            and a.dtype is _F32 and c.dtype is _F32  # type: ignore[attr-defined]
            and a.shape == c.shape and a.ndim  # type: ignore[attr-defined]
            and a.flags.c_contiguous and c.flags.c_contiguous)  # type: ignore[attr-defined]


def log_softmax_rows(rows: np.ndarray) -> np.ndarray | None:
    """kernels._log_softmax_rows on a (rows, n) float32 array, n >= 1: the same bits, or None
    where a result is NaN (the emulation then decides which NaN)."""
    assert kernels is not None
    x = _f32(rows)
    out = np.empty(x.shape, F32)
    return out if kernels.log_softmax_rows(out, x, x.shape[0], x.shape[1]) else None


def log_softmax_backward_rows(grad: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """kernels.log_softmax_backward's rows (grad - exp(y) * sum(grad), one fused step) on
    (rows, n) float32 arrays of one shape: the same bits, or None where a result is NaN."""
    assert kernels is not None
    g, yy = _f32(grad), _f32(y)
    out = np.empty(yy.shape, F32)
    ok = kernels.log_softmax_backward_rows(out, g, yy, yy.shape[0], yy.shape[1])
    return out if ok else None


def elementwise(kernel: Callable[[np.ndarray, np.ndarray, int], None], x: object,
                emulated: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """A float32 routine of the kernels (SLEEF's expf, logf) on x; the elements it leaves NaN
    from `emulated`, whose NaN (sign and payload) it does not reproduce."""
    d = np.ascontiguousarray(x, F32)
    out = np.empty(d.shape, F32)
    kernel(out, d, d.size)
    nan = np.isnan(out)
    if nan.any():
        out[nan] = emulated(d[nan])
    return out if out.ndim else out[()]
