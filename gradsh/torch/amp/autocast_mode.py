"""torch.autocast as PyTorch's CPU wheel runs it without CUDA: 'cuda' regions warn and run in
full precision, disabled regions are plain; CPU mixed precision is not reproduced."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from gradsh.torch._missing import NotImplementedInGradsh

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]

_NO_CUDA = "CUDA is not available or torch_xla is imported. Disabling autocast."


def is_autocast_available(device_type: str) -> bool:
    return device_type in ("cpu", "cuda", "mps", "xpu", "hpu", "xla", "mtia", "maia", "ipu")


class autocast:  # noqa: N801  (PyTorch's name)
    """A context manager and decorator; gradsh has no lower-precision kernels for the regions
    PyTorch would run in mixed precision, so those raise."""

    def __init__(self, device_type: str, dtype: Any = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = bool(enabled)
        if self._enabled and device_type == "cuda":
            from gradsh.torch import cuda

            if not cuda.is_available():
                warnings.warn(_NO_CUDA, UserWarning, stacklevel=2)
                self._enabled = False
        if self._enabled:
            raise NotImplementedInGradsh(
                f"gradsh does not implement torch.autocast on '{device_type}' yet (it computes "
                "in each tensor's own dtype)")

    def __enter__(self) -> autocast:
        return self

    def __exit__(self, *exc: Any) -> bool:
        return False

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapped


def custom_fwd(fwd: Callable[..., Any] | None = None, *, device_type: str = "cuda",
               cast_inputs: Any = None) -> Any:
    """Autograd Function forward decorator: with autocast never on, the function itself."""
    if fwd is None:
        return lambda f: f
    return fwd


def custom_bwd(bwd: Callable[..., Any] | None = None, *, device_type: str = "cuda") -> Any:
    if bwd is None:
        return lambda f: f
    return bwd
