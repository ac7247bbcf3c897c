"""torch.utils: data loading and activation checkpointing."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.utils import checkpoint, data

__getattr__ = module_getattr("torch.utils")

__all__ = ["checkpoint", "data"]
