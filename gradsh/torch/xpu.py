"""torch.xpu: Intel GPUs, which gradsh never has (as PyTorch's CPU wheel: no XPU device)."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.xpu")


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0
