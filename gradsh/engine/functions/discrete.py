"""Nodes of step functions PyTorch gives no derivative: heaviside."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import broadcast_shapes, xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["HeavisideNotImplemented"]


class HeavisideNotImplemented(Function):
    """heaviside(x, values): values where x == 0, else x > 0 (NaN gives 0). PyTorch records a
    NotImplemented node with an edge per operand that requires grad, which raises when reached;
    the inputs are those operands, `x` and `values` the operands themselves."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, *inputs: Tensor, x: Tensor, values: Tensor) -> Array:
        broadcast_shapes(x, values)
        a, v = x._data, values._data
        xp = xp_of(a)
        return xp.where(a == 0, v, a > 0).astype(a.dtype, copy=False)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::heaviside is not implemented")
