"""torch.distributed as a single process sees it before any process group exists: training
scripts import it (and DistributedDataParallel) at the top and only use it under torchrun."""

from __future__ import annotations

import os
from typing import Any

from gradsh.torch._missing import NotImplementedInGradsh, module_getattr

__getattr__ = module_getattr("torch.distributed")

__all__ = [
    "ReduceOp", "all_reduce", "barrier", "broadcast", "destroy_process_group", "get_rank",
    "get_world_size", "init_process_group", "is_available", "is_initialized",
]

_NO_GROUP = ("Default process group has not been initialized, please make sure to call "
             "init_process_group.")


class ReduceOp:
    """The reduction names all_reduce takes (dist.ReduceOp.SUM ...)."""

    SUM = "sum"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    AVG = "avg"


def is_available() -> bool:
    return True  # PyTorch's CPU wheel is built with the gloo backend


def is_initialized() -> bool:
    return False  # gradsh runs one process: no group is ever made


def init_process_group(backend: Any = None, init_method: Any = None, **kwargs: Any) -> None:
    """PyTorch's env:// rendezvous fails first on the variables torchrun sets; with them set,
    gradsh cannot join the other processes."""
    if init_method in (None, "env://"):
        for name in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
            if name not in os.environ:
                raise ValueError("Error initializing torch.distributed using env:// rendezvous: "
                                 f"environment variable {name} expected, but not set")
    raise NotImplementedInGradsh("gradsh does not implement torch.distributed process groups")


def _no_group(*args: Any, **kwargs: Any) -> Any:
    raise ValueError(_NO_GROUP)


get_rank = get_world_size = barrier = all_reduce = broadcast = _no_group


def destroy_process_group(group: Any = None) -> None:
    raise AssertionError("Process group cannot be None")
