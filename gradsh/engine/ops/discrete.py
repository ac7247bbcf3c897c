"""Step functions with no derivative: torch.heaviside."""

from __future__ import annotations

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.discrete import HeavisideNotImplemented
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["heaviside"]


@guarded
def heaviside(input: Tensor, values: Tensor) -> Tensor:  # noqa: A002
    """The step: 0 below 0, 1 above, `values` at 0 (same dtype as input, broadcast)."""
    x = _check_tensor(input, "heaviside")
    v = _check_tensor(values, "heaviside", "values", 2)
    if x.dtype is not v.dtype:
        raise TorchRuntimeError("heaviside is not yet implemented for tensors with different "
                                "dtypes.")
    inputs = [t for t in (x, v) if t.requires_grad] or [x]
    return HeavisideNotImplemented.apply(*inputs, x=x, values=v)
