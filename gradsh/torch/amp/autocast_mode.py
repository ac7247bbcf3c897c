"""torch.autocast / torch.amp.autocast (and the deprecated torch.cpu.amp / torch.cuda.amp
forms): a context manager and decorator that turns gradsh's CPU autocast on for a region.
PyTorch's CPU build has no CUDA: a "cuda" region warns and does nothing, as PyTorch's does."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.autocast import Autocast
from gradsh.engine.dtypes import DType

# torch.get_autocast_dtype per device type (set_autocast_dtype changes them)
DEFAULT_DTYPES: dict[str, DType] = {"cpu": dtypes.bfloat16, "cuda": dtypes.float16}
_CPU_DTYPES = (dtypes.bfloat16, dtypes.float16)


def is_autocast_available(device_type: str) -> bool:
    return device_type in ("cpu", "cuda", "xpu", "mps", "xla", "hpu", "mtia", "maia", "ipu")


class autocast:  # noqa: N801  (PyTorch's name)
    """`with torch.autocast("cpu"):` runs the region's products in bfloat16 (or `dtype`)."""

    def __init__(self, device_type: str, dtype: DType | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = DEFAULT_DTYPES.get(device_type, dtypes.float16) if dtype is None \
            else dtype
        self._enabled = enabled
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        if device_type == "cuda" and enabled:
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          stacklevel=2)
            self._enabled = False
        elif device_type == "cpu" and enabled and self.fast_dtype not in _CPU_DTYPES:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", stacklevel=2)
            self._enabled = False
        self._saved: list[tuple[Any, ...]] = []

    def __enter__(self) -> None:
        # (PyTorch sets the device's autocast dtype for the region, enabled or not:
        # torch.get_autocast_dtype reads the region's)
        self._saved.append((Autocast.dtype, Autocast.cache_enabled,
                            DEFAULT_DTYPES.get(self.device)))
        if self.device in DEFAULT_DTYPES:
            DEFAULT_DTYPES[self.device] = self.fast_dtype
        if self.device == "cpu":
            Autocast.dtype = self.fast_dtype if self._enabled else None
            Autocast.cache_enabled = self._cache_enabled
        Autocast.nesting += 1

    def __exit__(self, *args: Any) -> None:
        Autocast.nesting -= 1
        if Autocast.nesting == 0:
            Autocast.cache.clear()
        Autocast.dtype, Autocast.cache_enabled, previous = self._saved.pop()
        if previous is not None:
            DEFAULT_DTYPES[self.device] = previous

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)
        return decorated


def _deprecated(device: str) -> type:
    """torch.cpu.amp.autocast / torch.cuda.amp.autocast: PyTorch's FutureWarning, then the
    device's autocast."""

    class deprecated_autocast(autocast):  # noqa: N801
        def __init__(self, enabled: bool = True, dtype: DType | None = None,
                     cache_enabled: bool = True) -> None:
            warnings.warn(f"`torch.{device}.amp.autocast(args...)` is deprecated. Please use "
                          f"`torch.amp.autocast('{device}', args...)` instead.", FutureWarning,
                          stacklevel=2)
            super().__init__(device, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    deprecated_autocast.__name__ = deprecated_autocast.__qualname__ = "autocast"
    return deprecated_autocast


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Without a device type, PyTorch asks about CUDA (never on a CPU build)."""
    return device_type == "cpu" and Autocast.dtype is not None


def get_autocast_dtype(device_type: str) -> DType:
    return DEFAULT_DTYPES.get(device_type, dtypes.float16)


def set_autocast_dtype(device_type: str, dtype: DType) -> None:
    DEFAULT_DTYPES[device_type] = dtype


def is_autocast_cpu_enabled() -> bool:
    warnings.warn("torch.is_autocast_cpu_enabled() is deprecated. Please use "
                  "torch.is_autocast_enabled('cpu') instead.", DeprecationWarning, stacklevel=2)
    return Autocast.dtype is not None


def get_autocast_cpu_dtype() -> DType:
    warnings.warn("torch.get_autocast_cpu_dtype() is deprecated. Please use "
                  "torch.get_autocast_dtype('cpu') instead.", DeprecationWarning, stacklevel=2)
    return DEFAULT_DTYPES["cpu"]


def clear_autocast_cache() -> None:
    Autocast.cache.clear()


def is_autocast_cache_enabled() -> bool:
    return Autocast.cache_enabled
