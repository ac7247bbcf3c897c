"""torch.utils: data loading."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.utils import data

__getattr__ = module_getattr("torch.utils")

__all__ = ["data"]
