"""torch.utils: data loading, activation checkpointing and swap_tensors."""

from __future__ import annotations

from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr
from gradsh.torch.utils import checkpoint, data

__getattr__ = module_getattr("torch.utils")

__all__ = ["checkpoint", "data", "swap_tensors"]


def _slots(cls: type) -> list[str]:
    names = [name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ())]
    return [name for name in names if name not in ("__weakref__", "__dict__")]


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Exchange the contents of two tensors, each keeping its identity: t1 becomes what t2
    was (data, autograd state, class, Python attributes) and the other way round.

    PyTorch's also refuses tensors that other objects still reference (its use-count check);
    gradsh cannot count references the same way and does not refuse them."""
    if not isinstance(t1, Tensor) or not isinstance(t2, Tensor):
        raise TypeError("swap_tensors expects two tensors")
    if t1.__class__ is not t2.__class__:
        t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    if hasattr(t1, "__dict__") and hasattr(t2, "__dict__"):
        t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__
    missing = object()
    for name in _slots(type(t1)):
        a, b = getattr(t1, name, missing), getattr(t2, name, missing)
        for target, value in ((t1, b), (t2, a)):
            if value is missing:
                if hasattr(target, name):
                    delattr(target, name)
            else:
                setattr(target, name, value)
