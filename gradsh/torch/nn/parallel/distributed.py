"""nn.parallel.DistributedDataParallel: with no process group (gradsh runs one process)
PyTorch's constructor fails before it wraps anything, and so does gradsh's."""

from __future__ import annotations

from typing import Any

from gradsh.torch.distributed import _NO_GROUP
from gradsh.torch.nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    def __init__(self, module: Module, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        raise ValueError(_NO_GROUP)
