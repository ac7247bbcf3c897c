"""Nodes of functions PyTorch gives no derivative: heaviside, histogram."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import broadcast_shapes, xp_of
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["HeavisideNotImplemented", "HistogramNotImplemented"]


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


class HistogramNotImplemented(MultiOutputFunction):
    """torch.histogram of an input, bins tensor or weight that requires grad: PyTorch records
    one NotImplemented node for both outputs (hist and bin_edges), with an edge per operand
    that requires grad, which raises when reached. The arrays are computed by the caller."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, *inputs: Tensor, hist: Array, edges: Array) -> tuple[Array, Array]:
        return hist, edges

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::histogram is not implemented")
