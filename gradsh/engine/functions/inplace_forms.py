"""Nodes of the in-place forms whose out-of-place op has none: a comparison written into its
input (EqBackward0 ..., zero gradients) and the non-differentiable ones (NotImplemented)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["ComparisonInplace", "NotImplementedInplace", "comparison_node"]


class _Precomputed(Function):
    """The value is computed before the node runs (the op's out-of-place form, cast to the
    target's dtype); the node only records the graph PyTorch records."""

    def forward(self, *inputs: Tensor, value: Array, op: str = "") -> Array:
        self.shapes = tuple(t.shape for t in inputs)
        self.op = op
        return value


class ComparisonInplace(_Precomputed):
    """`x.eq_(y)` on a float x that requires grad: a zero gradient for each operand."""

    node_name = "EqBackward0"

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return tuple(F.zeros(shape, grad) for shape in self.shapes)


def comparison_node(name: str) -> type[ComparisonInplace]:
    """The node class PyTorch names for the comparison `name` (EqBackward0 for eq_ ...)."""
    return _COMPARISON_NODES[name]


_COMPARISON_NODES = {
    op: type(f"{op.capitalize()}Backward0", (ComparisonInplace,),
             {"node_name": f"{op.capitalize()}Backward0"})
    for op in ("eq", "ne", "lt", "le", "gt", "ge")
}


class NotImplementedInplace(_Precomputed):
    """floor_divide_, heaviside_ ...: a node that raises when backward reaches it."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError(f"derivative for aten::{self.op} is not implemented")
