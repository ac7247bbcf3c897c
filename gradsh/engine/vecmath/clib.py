"""The platform C library's scalar math (glibc's asinhf, acosh, atanhf ...) over arrays.

ATen computes some element-wise functions with `std::asinh` and friends, i.e. the C library
PyTorch itself is linked against (`Vectorized<float>::asinh` maps the scalar function over the
vector; the scalar tail of a `cpu_kernel_vec` loop calls it too). gradsh calls the same
functions through ctypes, one element at a time (about half a microsecond each), so the results
are PyTorch's on the same machine. Without a loadable C library `function` answers None and the
callers keep NumPy's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable

import numpy as np

Unary = Callable[[np.ndarray], np.ndarray]
_LIBRARY: dict[str, ctypes.CDLL | None] = {}
_FUNCTIONS: dict[tuple[str, str], Unary | None] = {}


def _library() -> ctypes.CDLL | None:
    if "m" not in _LIBRARY:
        try:
            _LIBRARY["m"] = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        except OSError:
            _LIBRARY["m"] = None
    return _LIBRARY["m"]


def function(name: str, dtype: np.dtype) -> Unary | None:
    """The C library's `name` (its float version, `name` + "f", for float32) over a float32 or
    float64 array, or None."""
    key = (name, dtype.char)
    if key in _FUNCTIONS:
        return _FUNCTIONS[key]
    lib = _library()
    found: Unary | None = None
    if lib is not None and dtype.char in "fd":
        ctype = ctypes.c_float if dtype.char == "f" else ctypes.c_double
        try:
            routine = getattr(lib, name + ("f" if dtype.char == "f" else ""))
        except AttributeError:
            routine = None
        if routine is not None:
            routine.restype, routine.argtypes = ctype, [ctype]
            kind = dtype.type

            def run(x: np.ndarray) -> np.ndarray:
                x = np.asarray(x, kind)
                values = np.fromiter(map(routine, x.ravel().tolist()), kind, x.size)
                return values.reshape(x.shape)

            found = run
    _FUNCTIONS[key] = found
    return found
