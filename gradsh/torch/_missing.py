"""What a program gets when it reaches for a part of PyTorch gradsh does not have."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class NotImplementedInGradsh(AttributeError):
    """`torch.fft.rfft` and the like: PyTorch has it, gradsh does not (yet). An AttributeError,
    so `hasattr(torch, "compile")` answers False as code that probes for features expects."""


def missing(namespace: str, name: str) -> AttributeError:
    """The error for `namespace.name`: "not implemented yet" where PyTorch has the name, else
    the AttributeError Python (and PyTorch) would raise."""
    from gradsh.torch._names import TORCH_NAMES

    if name in TORCH_NAMES.get(namespace, ()):
        return NotImplementedInGradsh(f"gradsh does not implement {namespace}.{name} yet")
    if namespace == "torch.Tensor":
        return AttributeError(f"'Tensor' object has no attribute '{name}'")
    return AttributeError(f"module '{namespace}' has no attribute '{name}'")


def module_getattr(namespace: str) -> Callable[[str], Any]:
    """A module-level `__getattr__` for a gradsh.torch module serving `namespace`."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module '{namespace}' has no attribute '{name}'")
        raise missing(namespace, name)

    return __getattr__
