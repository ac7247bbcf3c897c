"""torch.accelerator: the current accelerator, cuda:0 where torch.cuda has it, else none."""

from __future__ import annotations

from typing import Any

from gradsh.engine.pytypes import Device
from gradsh.torch import cuda
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.accelerator")


def is_available() -> bool:
    return cuda.is_available()


def current_accelerator(check_available: bool = False) -> Device | None:
    return Device("cuda") if cuda.is_available() else None


def device_count() -> int:
    return cuda.device_count()


def synchronize(device: Any = None) -> None:
    cuda.synchronize()
