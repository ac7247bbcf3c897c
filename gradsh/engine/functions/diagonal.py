"""Nodes of torch.diagonal(x, offset, dim1, dim2): a strided view (DiagonalBackward0) whose
gradient scatters back onto a zero tensor's diagonal, and that scatter under create_graph."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Shape, Tensor

__all__ = ["DiagonalBackward0", "DiagonalViewBackwardBackward0", "diagonal_view"]


def diagonal_view(x: Array, offset: int, dim1: int, dim2: int) -> Array:
    """The diagonal as a view: dim1 and dim2 removed, the diagonal appended last."""
    n1, n2 = x.shape[dim1], x.shape[dim2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    keep = [d for d in range(x.ndim) if d not in (dim1, dim2)]
    shape = tuple(x.shape[d] for d in keep) + (length,)
    strides = tuple(x.strides[d] for d in keep) + (x.strides[dim1] + x.strides[dim2],)
    start = [slice(None)] * x.ndim  # the first diagonal element, through x's own strides
    if length:
        start[dim2 if offset >= 0 else dim1] = slice(abs(offset), None)
    base = x[tuple(start)]
    if not isinstance(x, np.ndarray):
        return xp_of(x).lib.stride_tricks.as_strided(base, shape, strides)
    return np.lib.stride_tricks.as_strided(base, shape, strides,
                                           writeable=bool(x.flags.writeable))


def diagonal_scatter_array(grad: Array, shape: Shape, offset: int, dim1: int,
                           dim2: int) -> Array:
    out = xp_of(grad).zeros(shape, dtype=grad.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = grad
    return out


class DiagonalBackward0(Function):
    node_name = "DiagonalBackward0"
    is_view = True

    def forward(self, a: Tensor, offset: int, dim1: int, dim2: int) -> Array:
        self.self_sizes, self.params = a.shape, (offset, dim1, dim2)
        return diagonal_view(a._data, offset, dim1, dim2)

    def view_fn(self, array: Array) -> Array:
        return diagonal_view(array, *self.params)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (DiagonalViewBackwardBackward0.apply(grad, shape=self.self_sizes,
                                                        params=self.params),)
        return (diagonal_scatter_array(grad, self.self_sizes, *self.params),)


class DiagonalViewBackwardBackward0(Function):
    """diagonal_backward recorded under create_graph: its gradient takes the diagonal again."""

    node_name = "DiagonalBackwardBackward0"

    def forward(self, grad: Tensor, shape: Shape, params: tuple[int, int, int]) -> Array:
        self.params = params
        return diagonal_scatter_array(grad._data, shape, *params)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (DiagonalBackward0.apply(g, offset=self.params[0], dim1=self.params[1],
                                            dim2=self.params[2]),)
        return (diagonal_view(g, *self.params).copy(),)
