"""torch.nn.attention: SDPBackend and the sdpa_kernel context manager, which switch the backends
F.scaled_dot_product_attention may pick (engine/ops/attention.py's SDP_ENABLED: on the CPU the
flash kernel or the math composition)."""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterable, Iterator
from typing import Any

from gradsh.engine.ops.attention import SDP_ENABLED
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.attention")

__all__ = ["SDPBackend", "WARN_FOR_UNFUSED_KERNELS", "sdpa_kernel"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    """PyTorch's pybind11 enum: `SDPBackend.MATH` prints as such, repr `<SDPBackend.MATH: 0>`,
    and converts with int()."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._name_

    @property
    def value(self) -> int:  # type: ignore[override]
        return int(self._value_)


SDPBackend.__module__ = "torch._C"

_BACKEND_NAMES = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                  "mem_efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH,
                  "overrideable": SDPBackend.OVERRIDEABLE}


def _cur_sdpa_kernel_backends() -> list[SDPBackend]:
    return [backend for name, backend in _BACKEND_NAMES.items() if SDP_ENABLED[name]]


def _sdpa_kernel(backends: Iterable[SDPBackend]) -> None:
    chosen = set(backends)
    for name, backend in _BACKEND_NAMES.items():
        SDP_ENABLED[name] = backend in chosen


@contextlib.contextmanager
def sdpa_kernel(backends: Any, set_priority: bool = False) -> Iterator[dict[str, Any]]:
    """Enable only `backends` (an SDPBackend or a list of them) inside the block; the previous
    switches come back on exit. (`set_priority` orders them: the CPU has one choice.)"""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    previous = _cur_sdpa_kernel_backends()
    try:
        _sdpa_kernel(backends)
        yield {}
    finally:
        _sdpa_kernel(previous)
