"""Nodes of sorting and order statistics: sort, topk, median, kthvalue, mode, unique."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.dtypes import is_float_array_dtype
from gradsh.engine.exceptions import TorchNotImplementedError
from gradsh.engine.functions.common import same_layout, xp_of
from gradsh.engine.functions.reductions import _DimExtremum, _FullExtremum
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.vecmath import stdsort

__all__ = [
    "MedianBackward0", "NanmedianBackward0", "MedianBackward1", "KthvalueBackward0",
    "ModeBackward0", "SortBackward0", "TopkBackward0", "Unique2Backward0", "UniqueDimBackward0",
]


def _kth_smallest(data: Array, axis: int, k: Array | int) -> Array:
    """The index of the k-th smallest along axis in the stable order (NaN sorted last); k is
    an int or an array over the reduced shape."""
    xp = xp_of(data)
    order = xp.argsort(data, axis=axis, kind="stable")
    reduced = order.shape[:axis] + order.shape[axis + 1:]
    kth = xp.broadcast_to(xp.asarray(k, dtype=xp.int64), reduced)
    picked = xp.take_along_axis(order, xp.expand_dims(kth, axis), axis=axis)
    return picked.squeeze(axis).astype(xp.int64)


class MedianBackward0(_FullExtremum):
    """median() over all elements (the lower median; NaN if any): ties share the gradient
    evenly, as for max()."""

    node_name = "MedianBackward0"
    reduce = "median"
    skip_nan = False

    def forward(self, a: Tensor) -> Array:
        if a.numel() == 0:
            return xp_of(a._data).asarray(xp_of(a._data).nan, dtype=a._data.dtype)
        self.save("self", a)
        self.save("result", RESULT)
        flat = a._data.reshape(-1)
        xp = xp_of(flat)
        nan = xp.isnan(flat) if is_float_array_dtype(flat.dtype) else None
        if nan is not None and bool(nan.any()):
            if not self.skip_nan:
                return flat[xp.argmax(nan)].copy()
            flat = flat[~nan]
            if flat.size == 0:
                return xp.asarray(xp.nan, dtype=a._data.dtype)
        value = xp.sort(flat)[(flat.size - 1) // 2].copy()
        if value == 0 and nan is not None and flat.__class__ is np.ndarray and \
                flat.size == a._data.size and bool(np.signbit(flat[flat == 0]).any()):
            # -0.0 and 0.0 tie (no NaN): the one ATen's nth_element leaves in the middle
            memory = np.ravel(a._data, order="K").astype(np.float64).tolist()
            value = np.asarray(stdsort.median_value(memory), a._data.dtype)
        return value


class NanmedianBackward0(MedianBackward0):
    node_name = "NanmedianBackward0"
    skip_nan = True


class MedianBackward1(_DimExtremum):
    node_name = "MedianBackward1"
    reduce = "median"


class NanmedianBackward1(_DimExtremum):
    node_name = "NanmedianBackward1"
    reduce = "nanmedian"


class KthvalueBackward0(_DimExtremum):
    node_name = "KthvalueBackward0"
    reduce = "kthvalue"


class ModeBackward0(_DimExtremum):
    node_name = "ModeBackward0"
    reduce = "mode"


class SortBackward0(Function):
    """sort's values (the indices are computed alongside, no grad); the gradient goes back
    to where each value came from."""

    node_name = "SortBackward0"

    def forward(self, a: Tensor, dim: int, indices: Array) -> Array:
        self.dim, self.self_sizes = dim, a.shape
        self.save("indices", Tensor._make(indices, a.device))
        if a.ndim == 0:
            return a._data.copy()
        return same_layout(xp_of(a._data).take_along_axis(a._data, indices, axis=dim), indices)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if not self.self_sizes:
            return (grad,)
        return (F.value_selecting_backward(grad, self.dim, self.saved("indices", F),
                                           self.self_sizes, True),)


class TopkBackward0(SortBackward0):
    node_name = "TopkBackward0"


class Unique2Backward0(Function):
    """torch.unique's values (computed by the caller): recorded in the graph, as PyTorch does,
    though PyTorch defines no derivative for _unique2."""

    node_name = "Unique2Backward0"
    op_name = "_unique2"

    def forward(self, a: Tensor, values: Array) -> Array:
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchNotImplementedError(f"the derivative for '{self.op_name}' is not implemented.")


class UniqueDimBackward0(Unique2Backward0):
    """torch.unique(x, dim=d)'s values."""

    node_name = "UniqueDimBackward0"
    op_name = "unique_dim"
