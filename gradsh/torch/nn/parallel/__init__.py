"""torch.nn.parallel: DataParallel, which on a machine without accelerators only wraps, and
DistributedDataParallel, which needs a process group gradsh never has."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn.parallel.data_parallel import DataParallel
from gradsh.torch.nn.parallel.distributed import DistributedDataParallel

__getattr__ = module_getattr("torch.nn.parallel")

__all__ = ["DataParallel", "DistributedDataParallel"]
