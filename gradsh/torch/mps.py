"""torch.mps: Apple's Metal devices, which gradsh never has (PyTorch's Linux CPU wheel: none;
its availability switch is torch.backends.mps.is_available())."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.mps")


def device_count() -> int:
    return 0
