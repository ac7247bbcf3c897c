"""torch.cpu: the CPU device module (its amp submodule holds the deprecated autocast)."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.cpu import amp

__getattr__ = module_getattr("torch.cpu")


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device: object = None) -> None:
    """Nothing to wait for on the CPU."""


__all__ = ["amp", "current_device", "device_count", "is_available", "synchronize"]
