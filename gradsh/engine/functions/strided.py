"""The node of as_strided: a view with any sizes and strides over its input's memory
(AsStridedBackward0), whose gradient adds each element's gradient back to the storage place
it reads (overlapping views add up)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AsStridedViewBackward0", "AsStridedStorageBackward0", "storage_root"]


class AsStridedViewBackward0(Function):
    node_name = "AsStridedBackward0"
    is_view = True

    def forward(self, a: Tensor, size: tuple[int, ...], stride: tuple[int, ...],
                offset: int) -> Array:
        self.size, self.stride, self.offset = size, stride, offset
        self.input_shape = tuple(a.shape)
        return self.view_fn(a._data)

    def view_fn(self, array: Array) -> Array:
        flat = array.reshape(-1)[self.offset:]
        return np.lib.stride_tricks.as_strided(
            flat, self.size, tuple(s * array.itemsize for s in self.stride))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "as_strided yet")
        numel = int(np.prod(self.input_shape))
        places = self.view_fn(np.arange(numel).reshape(self.input_shape))
        result = np.zeros(numel, dtype=grad.dtype)
        np.add.at(result, places.reshape(-1), np.asarray(grad).reshape(-1))
        return (result.reshape(self.input_shape),)


def storage_root(array: Any) -> Any:
    """The NumPy array owning `array`'s memory when it holds `array`'s dtype (so a view may
    start before `array` does), else None."""
    root = array
    while hasattr(getattr(root, "base", None), "__array_interface__"):  # (as_strided's too)
        root = root.base
    return root if isinstance(root, np.ndarray) and root.dtype == array.dtype else None


def _places(shape: tuple[int, ...], strides: tuple[int, ...], start: int) -> np.ndarray:
    """Each element's place in the storage (in elements), row-major order."""
    out = np.full(shape, start, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        out = out + (np.arange(n, dtype=np.int64) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return out.reshape(-1)


class AsStridedStorageBackward0(AsStridedViewBackward0):
    """as_strided of a non-contiguous input, or reaching outside the input's own elements: a
    view of its storage (offset in elements from the input's first element, negative too);
    the gradient reaches the input's elements the view reads, as as_strided_backward's
    scatter into the storage and gather in the input's geometry (positions outside the input
    get none)."""

    def forward(self, a: Tensor, size: tuple[int, ...], stride: tuple[int, ...],
                offset: int) -> Array:
        self.input_strides = tuple(s // a._data.itemsize for s in a._data.strides)
        return super().forward(a, size, stride, offset)

    def view_fn(self, array: Array) -> Array:
        item = array.itemsize
        origin, offset = array, self.offset
        if offset < 0:  # from the storage's start
            origin = storage_root(array)
            offset += (array.__array_interface__["data"][0]
                       - origin.__array_interface__["data"][0]) // item
        if offset:
            origin = as_strided(origin, shape=(offset + 1,), strides=(item,))[offset:]
        return as_strided(origin, self.size, tuple(s * item for s in self.stride))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "as_strided yet")
        inside = _places(self.input_shape, self.input_strides, 0)
        read = _places(self.size, self.stride, self.offset)
        order = np.argsort(inside, kind="stable")
        found = np.searchsorted(inside[order], read).clip(0, max(inside.size - 1, 0))
        hit = inside[order][found] == read if inside.size else np.zeros(read.size, bool)
        result = np.zeros(inside.size, dtype=grad.dtype)
        np.add.at(result, order[found[hit]], np.asarray(grad).reshape(-1)[hit])
        return (result.reshape(self.input_shape),)
