"""Nodes that write a tensor into (or copy one out of) a view of another: SelectScatter-,
SliceScatter- and DiagonalScatterBackward0, NarrowCopyBackward0, PutBackward0. The view is an
index key on the input's array."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import laid_out, xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["DiagonalScatterBackward0", "NarrowCopyBackward0", "PutBackward0",
           "SelectScatterBackward0", "SliceScatterBackward0", "diagonal_key"]


def diagonal_key(shape: tuple[int, ...], offset: int, dim1: int,
                 dim2: int) -> tuple[Any, ...]:
    """The advanced index of diagonal(offset, dim1, dim2): its elements in torch.diagonal's
    layout (the other dimensions first, the diagonal last)."""
    rows = np.arange(max(0, min(shape[dim1] + min(offset, 0), shape[dim2] - max(offset, 0))))
    first, second = rows - min(offset, 0), rows + max(offset, 0)
    others = [d for d in range(len(shape)) if d not in (dim1, dim2)]
    key: list[Any] = [None] * len(shape)
    for position, d in enumerate(others):
        index_shape = [1] * (len(others) + 1)
        index_shape[position] = shape[d]
        key[d] = np.arange(shape[d]).reshape(index_shape)
    key[dim1] = first.reshape([1] * len(others) + [-1])
    key[dim2] = second.reshape([1] * len(others) + [-1])
    return tuple(key)


def _no_double_backward(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


class _ScatterView(Function):
    """input with `src` written into input[key]; the gradient splits the same way."""

    def forward(self, a: Tensor, src: Tensor, key: tuple[Any, ...]) -> Array:
        self.key = key
        out = a._data.copy()
        out[key] = src._data.astype(out.dtype, copy=False)
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, self.node_name)
        rest = grad.copy()
        rest[self.key] = 0
        return rest, xp_of(grad).ascontiguousarray(grad[self.key])


class SelectScatterBackward0(_ScatterView):
    node_name = "SelectScatterBackward0"


class SliceScatterBackward0(_ScatterView):
    node_name = "SliceScatterBackward0"


class DiagonalScatterBackward0(_ScatterView):
    node_name = "DiagonalScatterBackward0"


class NarrowCopyBackward0(Function):
    node_name = "NarrowCopyBackward0"

    def forward(self, a: Tensor, key: tuple[Any, ...]) -> Array:
        self.key, self.shape = key, tuple(a.shape)
        return xp_of(a._data).ascontiguousarray(a._data[key])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "narrow_copy")
        result = xp_of(grad).zeros(self.shape, dtype=grad.dtype)
        result[self.key] = grad
        return (result,)


class PutBackward0(Function):
    """put(index, source, accumulate): the flattened input's entries at index replaced by (or,
    accumulating, added to) source's."""

    node_name = "PutBackward0"

    def forward(self, a: Tensor, source: Tensor, index: Array, accumulate: bool) -> Array:
        self.index, self.accumulate, self.source_shape = index, accumulate, tuple(source.shape)
        flat = a._data.copy().reshape(-1)
        values = source._data.reshape(-1).astype(flat.dtype, copy=False)
        if accumulate:
            np.add.at(flat, index, values)
        else:
            flat[index] = values
        return flat.reshape(a.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "put")
        flat = grad.reshape(-1)
        rest = grad
        if not self.accumulate:
            rest = flat.copy()
            rest[self.index] = 0
            rest = rest.reshape(grad.shape)
        return rest, flat[self.index].reshape(self.source_shape)


laid_out("preserve")(PutBackward0)  # (put writes into self.clone(preserve_format))
