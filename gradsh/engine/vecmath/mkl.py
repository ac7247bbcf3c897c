"""MKL's VML, the library PyTorch's CPU wheel hands its element-wise math to, called for real.

ATen runs float32 and float64 exp, log, log2, log10, sin, cos, tan, tanh, asin, acos, atan,
erf, erfc, erfinv and sqrt through MKL's VML (aten/src/ATen/cpu/vml.h: `vms*`/`vmd*` with
VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE), statically linked from oneMKL 2024.2. VML's
results are not correctly rounded (torch.sin on uniform(-10, 10): 5% of float32 results differ
from the correctly rounded value) and its algorithms are not published, so no emulation gets
them all. The `mkl` package on PyPI ships the same library as shared objects: pinned to 2024.2.0
(gradsh's dependency on Linux x86-64), its VML gives torch's bits, checked on millions of random
inputs per function in both dtypes (tests/test_mkl_vml.py). VML picks its code path by CPU
(AVX-512, AVX2, ...) as torch's copy does, so the bits follow torch on each machine.

Loaded the first time a float op needs it; without the package (another platform, another
version, GRADSH_MKL=0) `function` returns None and the callers keep their emulations (correctly
rounded values, docs/float32.md).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable

import numpy as np

from gradsh.engine import buffers

VERSION = "2024.2.0"  # oneMKL in PyTorch 2.13's CPU wheels (torch.__config__.show())
_HA, _FTZDAZ_OFF, _ERRMODE_IGNORE = 0x2, 0x140000, 0x100
MODE = _HA | _FTZDAZ_OFF | _ERRMODE_IGNORE
_INTEL, _SEQUENTIAL, _GNU = 0, 1, 3  # MKL_THREADING_INTEL, _SEQUENTIAL, _GNU
_MAX_INT = 2**31 - 1  # MKL_INT (LP64): ATen calls VML in pieces of at most this many

# NumPy's spelling -> VML's
NAMES = {
    "exp": "Exp", "log": "Ln", "log2": "Log2", "log10": "Log10", "sin": "Sin", "cos": "Cos",
    "tan": "Tan", "tanh": "Tanh", "arcsin": "Asin", "arccos": "Acos", "arctan": "Atan",
    "erf": "Erf", "erfc": "Erfc", "erfinv": "ErfInv", "sqrt": "Sqrt",
}

Unary = Callable[[np.ndarray], np.ndarray]
_state: dict[str, object] = {}
_functions: dict[tuple[str, str], Unary] = {}


def _library_path() -> str | None:
    """libmkl_rt of the installed `mkl` distribution, if it is the version torch links."""
    from importlib import metadata  # (its import costs milliseconds: only when first needed)

    try:
        dist = metadata.distribution("mkl")
    except metadata.PackageNotFoundError:
        return None
    if dist.version != VERSION:
        return None
    for file in dist.files or ():
        if file.name.startswith("libmkl_rt.so"):
            return str(dist.locate_file(file))
    return None


def _load() -> ctypes.CDLL | None:
    if "lib" in _state:
        return _state["lib"]  # type: ignore[return-value]
    lib = None
    path = None if os.environ.get("GRADSH_MKL", "1") == "0" else _library_path()
    if path is not None:
        try:
            lib = ctypes.CDLL(path)
            lib.MKL_Set_Threading_Layer.argtypes = [ctypes.c_int]
            lib.MKL_Set_Num_Threads.argtypes = [ctypes.c_int]
            # PyTorch's MKL runs on GNU OpenMP at torch.get_num_threads() threads: with GNU's
            # layer at that count sgemm splits k as torch's does (at two threads a (64, 784) @
            # (784, 128) product differs from one thread's in 7,000 of 8,192 elements; with
            # Intel's layer at two, in as many). Without libgomp, Intel's layer (the mkl
            # package's intel-openmp) gives one thread's bits; the sequential layer's getrf
            # takes other paths (a 17 x 17 LU differed in an element) and is the last resort.
            layer = _GNU if _load_gomp() else _INTEL
            if lib.MKL_Set_Threading_Layer(layer) != layer and layer == _GNU:
                layer = _INTEL if lib.MKL_Set_Threading_Layer(_INTEL) == _INTEL else -1
            if layer == -1:
                lib.MKL_Set_Threading_Layer(_SEQUENTIAL)
            _state["layer"] = layer
            _follow_threads(lib, layer)
        except (OSError, AttributeError) as exc:
            _state["error"] = str(exc)
            lib = None
    _state["lib"] = lib
    return lib


def _load_gomp() -> bool:
    """GNU OpenMP's runtime, loaded for MKL's GNU threading layer to find; False without it."""
    import ctypes.util

    for name in (ctypes.util.find_library("gomp"), "libgomp.so.1"):
        if name:
            try:
                ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
                return True
            except OSError:
                continue
    return False


def _follow_threads(lib: ctypes.CDLL, layer: int) -> None:
    """MKL at torch.get_num_threads() threads on GNU's layer (the bits follow the count), at
    one on Intel's (whose splits are not torch's at any other count)."""
    from gradsh.engine import threads

    def apply(count: int) -> None:
        lib.MKL_Set_Num_Threads(count if layer == _GNU else 1)

    apply(threads.torch_threads())
    threads.on_torch_threads(apply)


def threading_layer() -> str:
    """Which threading layer MKL was loaded with ("gnu", "intel", "sequential"), or "none"."""
    if _load() is None:
        return "none"
    return {_GNU: "gnu", _INTEL: "intel"}.get(_state.get("layer"), "sequential")  # type: ignore[arg-type]


def _fast_call() -> Callable[..., None] | None:
    """_blas.vml (routine address, n, x, y, mode), where the optional extension was built."""
    try:
        from gradsh.engine.vecmath import _blas  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _blas.vml


def library() -> ctypes.CDLL | None:
    """libmkl_rt 2024.2, loaded (sequential threading), or None (vecmath/blas.py uses it)."""
    return _load()


def available() -> bool:
    """Whether MKL 2024.2's VML is loaded (loading it on first call)."""
    return _load() is not None


def reason() -> str:
    """Why VML is not used, for tests' skip messages."""
    if os.environ.get("GRADSH_MKL", "1") == "0":
        return "GRADSH_MKL=0"
    if available():
        return ""
    return _state.get("error") or f"the package mkl=={VERSION} is not installed"  # type: ignore


def routine_address(name: str, dtype: np.dtype) -> int | None:
    """The address of VML's routine `name` (NumPy's spelling) for float32 or float64, called
    as (n, x, y, mode) with MODE, for compiled kernels to call on their own blocks; or None."""
    if name not in NAMES or dtype.char not in "fd" or _load() is None:
        return None
    routine = getattr(_state["lib"], ("vms" if dtype.char == "f" else "vmd") + NAMES[name])
    return ctypes.cast(routine, ctypes.c_void_p).value


def function(name: str, dtype: np.dtype) -> Unary | None:
    """VML's `name` (NumPy's spelling) for float32 or float64 host arrays, or None."""
    key = (name, dtype.char)
    found = _functions.get(key)
    if found is not None:
        return found
    if name not in NAMES or dtype.char not in "fd" or _load() is None:
        return None
    routine = getattr(_state["lib"], ("vms" if dtype.char == "f" else "vmd") + NAMES[name])
    routine.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]
    routine.restype = None
    address = ctypes.cast(routine, ctypes.c_void_p).value
    fast = _fast_call()

    def run(x: np.ndarray) -> np.ndarray:
        """VML on x's elements; the result has x's layout where x is dense (as ATen's)."""
        # (a contiguous result from the pool of large arrays, gradsh.engine.buffers)
        out = buffers.empty(x.shape, x.dtype) if x.flags.c_contiguous else np.empty_like(x)
        if out.strides != x.strides or any(s < 0 for s in x.strides):
            x = np.ascontiguousarray(x)
            out = np.empty_like(x)
        n = x.size
        if n <= _MAX_INT and fast is not None:  # the _blas extension: no ctypes marshalling
            fast(address, n, x, out, MODE)  # dense: n elements from the first in memory
            return out
        src, dst = x.ctypes.data, out.ctypes.data
        for start in range(0, n, _MAX_INT):
            offset = start * dtype.itemsize
            routine(min(_MAX_INT, n - start), src + offset, dst + offset, MODE)
        return out

    _functions[key] = run
    return run
