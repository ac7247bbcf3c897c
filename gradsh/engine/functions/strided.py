"""The node of as_strided: a view with any sizes and strides over its input's memory
(AsStridedBackward0), whose gradient adds each element's gradient back to the storage place
it reads (overlapping views add up)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AsStridedViewBackward0"]


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
