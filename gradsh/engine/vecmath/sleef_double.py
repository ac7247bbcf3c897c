"""SLEEF's float64 routines as ATen's AVX-512 `Vectorized<double>` calls them (Sleef_expd8_u10,
Sleef_log1pd8_u10, ...), and the C library's, over float64 arrays: bit for bit.

The routines are ported to C (_native_sleef64.h: SLEEF's double-double arithmetic needs a fused
multiply-add per step, which NumPy cannot do cheaply in float64); the C library's are the ones
ATen's scalar loops call (std::exp ...), from the same library torch uses. Where the compiled
kernels are missing every function here answers None and the callers keep their NumPy formulas
(within an ulp or two of torch's, not its bits).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import native

F64 = np.float64

# The entry point's routine numbers (the enum of _native_sleef64.h)
_SLEEF = ("exp", "log", "log1p", "expm1", "sinh", "cosh", "tanh", "exp2", "erf", "lgamma",
          "atanh")
_UNARY = {name: i for i, name in enumerate(_SLEEF)}
_LIBM = {name: len(_SLEEF) + i for i, name in enumerate(_SLEEF)}
_BINARY = {"atan2": 0, "pow": 1, "hypot": 2}
_LIBM_BINARY = {"atan2": 3, "pow": 4, "hypot": 5}


def available() -> bool:
    """Whether the compiled routines are there (else every function below returns None)."""
    return native.kernels is not None


def _run(which: int, x: np.ndarray) -> np.ndarray:
    d = np.ascontiguousarray(x, F64)
    out = np.empty(d.shape, F64)
    native.kernels.sleef64(which, out, d, d.size)  # type: ignore[union-attr]
    return out


def _run2(which: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.broadcast_arrays(np.asarray(a, F64), np.asarray(b, F64))
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    out = np.empty(a.shape, F64)
    native.kernels.sleef64_binary(which, out, a, b, a.size)  # type: ignore[union-attr]
    return out


def sleef(name: str, x: np.ndarray) -> np.ndarray:
    """Sleef_<name>d8_u10 element-wise (exp, log, log1p, expm1, sinh, cosh, tanh, exp2, erf,
    lgamma, atanh); needs available()."""
    return _run(_UNARY[name], x)


def libm(name: str, x: np.ndarray) -> np.ndarray:
    """The C library's double `name` element-wise (the same names as `sleef`)."""
    return _run(_LIBM[name], x)


def sleef2(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sleef_atan2d8_u10(a, b), Sleef_powd8_u10(a, b) or Sleef_hypotd8_u05(a, b), broadcast."""
    return _run2(_BINARY[name], a, b)


def libm2(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The C library's atan2(a, b), pow(a, b) or hypot(a, b), broadcast."""
    return _run2(_LIBM_BINARY[name], a, b)


def fma(a: object, b: object, c: object) -> np.ndarray:
    """a * b + c rounded once, element-wise on float64 arrays (broadcast)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, F64) for v in (a, b, c)))
    a, b, c = (np.ascontiguousarray(v) for v in (a, b, c))
    out = np.empty(a.shape, F64)
    native.kernels.fma64(out, a, b, c, a.size)  # type: ignore[union-attr]
    return out
