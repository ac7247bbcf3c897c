"""torch.nn.parallel: DataParallel, which on a machine without accelerators only wraps."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn.parallel.data_parallel import DataParallel

__getattr__ = module_getattr("torch.nn.parallel")

__all__ = ["DataParallel"]
