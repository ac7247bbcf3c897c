"""The process-wide knobs programs set and read (threads, determinism, matmul precision, the
legacy default tensor type), torch.finfo / torch.iinfo, and the layout and memory-format
constants. gradsh computes one way whatever they say: they are kept and reported as PyTorch
reports them."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.variable import Tensor

__all__ = [
    "finfo", "iinfo", "layout", "strided", "sparse_coo", "memory_format", "contiguous_format",
    "preserve_format", "channels_last", "channels_last_3d", "set_num_threads",
    "get_num_threads", "set_num_interop_threads", "get_num_interop_threads",
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
    "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
    "get_deterministic_debug_mode", "set_float32_matmul_precision",
    "get_float32_matmul_precision", "set_warn_always", "is_warn_always_enabled",
    "set_flush_denormal", "set_default_tensor_type", "typename", "is_same_size",
]


def _short(value: float) -> str:
    return f"{value:g}"


class finfo:  # noqa: N801  (PyTorch's name)
    """torch.finfo(dtype): the limits of a floating-point dtype."""

    def __init__(self, type: DType | None = None) -> None:  # noqa: A002
        d = dtypes.default_float() if type is None else type
        if isinstance(d, DType) and d.is_complex:  # its parts' dtype
            d = dtypes.TO_REAL[d]
        if not isinstance(d, DType) or not d.is_floating_point:
            raise TorchTypeError("torch.finfo() requires a floating point input type. Use "
                                 "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(d.np)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = d.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={_short(self.resolution)}, min={_short(self.min)}, "
                f"max={_short(self.max)}, eps={_short(self.eps)}, smallest_normal="
                f"{_short(self.smallest_normal)}, tiny={_short(self.tiny)}, dtype={self.dtype})")


class iinfo:  # noqa: N801
    """torch.iinfo(dtype): the limits of an integer dtype."""

    def __init__(self, type: DType) -> None:  # noqa: A002
        if not isinstance(type, DType) or type.category != 1:
            raise TorchTypeError(f"{type} is not supported by torch.iinfo")
        info = np.iinfo(type.np)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={_short(self.min)}, max={_short(self.max)}, dtype={self.dtype})"


class _Named:
    """A constant that prints as torch.NAME (torch.strided, torch.contiguous_format)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


class layout(_Named):  # noqa: N801
    pass


class memory_format(_Named):  # noqa: N801
    pass


for _kind in (finfo, iinfo, layout, memory_format):
    _kind.__module__ = "torch"  # type(torch.strided) is <class 'torch.layout'>

strided = layout("strided")
sparse_coo = layout("sparse_coo")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


class _Settings:
    threads: int | None = None
    interop_threads: int | None = None
    deterministic = False
    warn_only = False
    debug_mode = 0
    matmul_precision = "highest"
    warn_always = False
    warned_tensor_type = False


def _check_threads(n: Any, fname: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TorchTypeError(f"{fname}(): argument 'int' (position 1) must be int, not "
                             f"{type(n).__name__}")
    if n <= 0:
        raise TorchRuntimeError("Number of threads must be positive")
    return n


def set_num_threads(n: int) -> None:
    _Settings.threads = _check_threads(n, "set_num_threads")


def get_num_threads() -> int:
    """What PyTorch reports: the number set, else OMP_NUM_THREADS, else the CPUs."""
    if _Settings.threads is not None:
        return _Settings.threads
    env = os.environ.get("OMP_NUM_THREADS", "")
    return int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)


def set_num_interop_threads(n: int) -> None:
    _Settings.interop_threads = _check_threads(n, "set_num_interop_threads")


def get_num_interop_threads() -> int:
    return _Settings.interop_threads or (os.cpu_count() or 1)


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    _Settings.deterministic = bool(mode)
    _Settings.warn_only = bool(warn_only) and bool(mode)
    _Settings.debug_mode = (1 if _Settings.warn_only else 2) if mode else 0


def are_deterministic_algorithms_enabled() -> bool:
    return _Settings.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _Settings.warn_only


def set_deterministic_debug_mode(debug_mode: int | str) -> None:
    modes = {"default": 0, "warn": 1, "error": 2}
    mode = modes[debug_mode] if isinstance(debug_mode, str) else int(debug_mode)
    use_deterministic_algorithms(mode > 0, warn_only=mode == 1)


def get_deterministic_debug_mode() -> int:
    return _Settings.debug_mode


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        raise TorchRuntimeError(f"Invalid precision {precision!r}")
    _Settings.matmul_precision = precision


def get_float32_matmul_precision() -> str:
    return _Settings.matmul_precision


def set_warn_always(b: bool) -> None:
    _Settings.warn_always = bool(b)


def is_warn_always_enabled() -> bool:
    return _Settings.warn_always


def set_flush_denormal(mode: bool) -> bool:
    """Whether the CPU supports flushing denormals: gradsh keeps them, as if it did not."""
    return False


_LEGACY_TYPES = {f"torch.{d.legacy}": d for d in dtypes.ALL}


def set_default_tensor_type(t: Any) -> None:
    """torch.set_default_tensor_type (deprecated): the default dtype of the type named."""
    if not _Settings.warned_tensor_type:  # TORCH_WARN_ONCE
        _Settings.warned_tensor_type = True
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                      "use torch.set_default_dtype() and torch.set_default_device() as "
                      "alternatives.", UserWarning, stacklevel=2)
    name = t if isinstance(t, str) else f"{getattr(t, '__module__', '')}.{t.__name__}"
    dtype = _LEGACY_TYPES.get(name)
    if dtype is None:
        raise TorchTypeError(f"invalid type: '{name}'")
    if not dtype.is_floating_point:
        raise TorchTypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(dtype)


def typename(obj: Any) -> str:
    """PyTorch's typename: a tensor's type(); else the object's own module and qualified name
    (a class's, a function's), or its class's."""
    if isinstance(obj, Tensor):
        return obj.type()  # type: ignore[attr-defined,no-any-return]
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    module = module.removeprefix("gradsh.")
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def is_same_size(a: Tensor, b: Tensor) -> bool:
    return a.shape == b.shape
