"""torch.multiprocessing: Python's multiprocessing under PyTorch's name, as scripts import it
(`import torch.multiprocessing as mp`); the tensor-sharing strategies are names only, since
gradsh's tensors are NumPy arrays that pickle by value."""

from __future__ import annotations

import multiprocessing
from multiprocessing import *  # noqa: F403  (PyTorch re-exports the whole module)

from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.multiprocessing")

__all__ = ["get_all_sharing_strategies", "get_sharing_strategy", "set_sharing_strategy",
           *multiprocessing.__all__]

_STRATEGIES = {"file_descriptor", "file_system"}
_strategy = ["file_descriptor"]


def get_all_sharing_strategies() -> set[str]:
    return set(_STRATEGIES)


def get_sharing_strategy() -> str:
    return _strategy[0]


def set_sharing_strategy(new_strategy: str) -> None:
    if new_strategy not in _STRATEGIES:
        raise AssertionError
    _strategy[0] = new_strategy
