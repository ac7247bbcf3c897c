"""The capturable and differentiable options on the CPU, as PyTorch's single-tensor updates
meet them: capturable=True is an AssertionError (CUDA-graph capture needs a device), and
differentiable=True runs the in-place update with grad mode on, which a leaf parameter that
requires grad refuses."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchAssertionError, TorchRuntimeError
from gradsh.engine.tensor import Tensor, _GradMode

__all__ = ["check"]

_DEVICES = "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']"


def check(param: Tensor, group: dict[str, Any], tensors: str = "params and state_steps",
          devices: str = _DEVICES) -> None:
    """Raise what PyTorch's update raises for these options on a CPU parameter."""
    if group.get("capturable"):
        raise TorchAssertionError(f"If capturable=True, {tensors} must be on supported devices: "
                                  f"{devices}.")
    if group.get("differentiable") and _GradMode.enabled and param.requires_grad and \
            param.is_leaf:
        raise TorchRuntimeError("a leaf Variable that requires grad is being used in an "
                                "in-place operation.")
