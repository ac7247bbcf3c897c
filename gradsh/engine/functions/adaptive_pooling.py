"""The node of adaptive max pooling (AdaptiveMaxPool2DBackward0): each output the maximum of
its bin, the gradient to where it came from (max pooling's backward)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.pooling import MaxPool2DWithIndicesBackward0, Pair
from gradsh.engine.tensor import Array, Tensor

__all__ = ["AdaptiveMaxPool2DBackward0"]


def _bin(index: int, out: int, size: int) -> tuple[int, int]:
    """ATen's start_index and end_index: floor(i * n / out) to ceil((i + 1) * n / out)."""
    return (index * size) // out, -(-((index + 1) * size) // out)


class AdaptiveMaxPool2DBackward0(MaxPool2DWithIndicesBackward0):
    node_name = "AdaptiveMaxPool2DBackward0"

    def forward(self, a: Tensor, output_size: Pair) -> Array:  # type: ignore[override]
        x = a._data if a.ndim == 4 else a._data[None]
        xp = xp_of(x)
        n, c, h, w = x.shape
        oh, ow = output_size
        values = xp.empty((n, c, oh, ow), dtype=x.dtype)
        indices = np.empty((n, c, oh, ow), dtype=np.int64)
        floating = x.dtype.kind in "fc" or x.dtype.name == "bfloat16"
        for i in range(oh if x.size else 0):  # (an empty batch: nothing to reduce)
            h0, h1 = _bin(i, oh, h)
            for j in range(ow):
                w0, w1 = _bin(j, ow, w)
                flat = x[:, :, h0:h1, w0:w1].reshape(n, c, -1)
                local = flat.argmax(axis=-1)
                if floating:
                    # ATen keeps the last NaN of a bin (`val > max || isnan(val)`)
                    nan = xp.isnan(flat)
                    last_nan = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
                    local = xp.where(nan.any(axis=-1), last_nan, local)
                values[:, :, i, j] = xp.take_along_axis(flat, local[..., None], axis=-1)[..., 0]
                width = w1 - w0
                indices[:, :, i, j] = (h0 + local // width) * w + w0 + local % width
        if a.ndim == 3:
            values, indices = values[0], indices[0]
        self.indices = indices
        self.input_shape = tuple(a.shape)
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:  # (AdaptiveMaxPool2DBackwardBackward0)
            from gradsh.engine.functions.pooling_double import recorded_pool_backward

            return (recorded_pool_backward(self, grad, adaptive=True),)
        if xp_of(grad) is not np or grad.size == 0:
            return super().backward(F, grad)
        # ATen adds each output's gradient in the input's dtype, outputs in order (bins overlap)
        shape = self.input_shape
        plane = shape[-1] * shape[-2]
        planes = grad.size // max(grad.shape[-1] * grad.shape[-2], 1)
        result = np.zeros((planes, plane), dtype=grad.dtype)
        rows = np.repeat(np.arange(planes), grad.size // max(planes, 1))
        np.add.at(result, (rows, self.indices.reshape(-1)), grad.reshape(-1))
        return (result.reshape(shape),)
