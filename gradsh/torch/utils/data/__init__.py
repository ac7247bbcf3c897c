"""torch.utils.data: datasets and the DataLoader."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.utils.data")
