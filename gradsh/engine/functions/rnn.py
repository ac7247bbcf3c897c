"""Nodes the recurrent layers build besides the common ops: UnsafeSplitBackward0 (the gates'
unsafe_chunk) and TransposeBackward1 (transpose_ of a batch_first output)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["UnsafeSplitBackward0", "TransposeBackward1"]


class UnsafeSplitBackward0(Function):
    """One chunk of unsafe_chunk: a copy, not a view (the cells update it in place)."""

    node_name = "UnsafeSplitBackward0"

    def forward(self, a: Tensor, dim: int, start: int, length: int) -> Array:
        self.dim, self.start, self.length = dim, start, length
        self.full = a.shape[dim]
        index = [slice(None)] * a.ndim
        index[dim] = slice(start, start + length)
        return a._data[tuple(index)].copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        after = self.full - self.start - self.length
        # F.pad's order: (before, after) pairs from the last dimension backwards
        pad = [0, 0] * (grad.ndim - 1 - self.dim) + [self.start, after]
        return (F.constant_pad(grad, pad, None),)


class TransposeBackward1(Function):
    """transpose_ of a result nobody else holds (the batch_first output of an RNN)."""

    node_name = "TransposeBackward1"

    def forward(self, a: Tensor, dim0: int, dim1: int) -> Array:
        self.dim0, self.dim1 = dim0, dim1
        return xp_of(a._data).swapaxes(a._data, dim0, dim1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.transpose(grad, self.dim0, self.dim1),)
