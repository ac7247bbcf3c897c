"""FractionalMaxPool2DBackward0 and FractionalMaxPool3DBackward0: fractional max pooling as
ATen's CPU kernels (FractionalMaxPool2d.cpp, FractionalMaxPool3d.cpp) compute it. Each plane's
windows start at generate_intervals' pseudo-random offsets, int((i + u) * alpha) - int(u *
alpha) with alpha = (in - k) / (out - 1) in the input's dtype, u the plane's sample for that
dimension (2-D: u[0] for the width, u[1] for the height; 3-D: time, height, width); the last
window ends at the input's end. The maximum is the first largest (a NaN wins, the last one);
the gradient adds each output's back at its index."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["FractionalMaxPool2DBackward0", "FractionalMaxPool3DBackward0", "intervals"]


def intervals(sample: Any, size: int, out: int, pool: int) -> np.ndarray:
    """ATen's generate_intervals: the start of each of `out` windows of `pool` in `size`."""
    dtype = np.asarray(sample).dtype.type
    starts = np.zeros(out, dtype=np.int64)
    if out > 1:
        alpha = dtype(size - pool) / dtype(out - 1)
        base = int(dtype(sample) * alpha)
        for i in range(out - 1):
            starts[i] = int((dtype(i) + dtype(sample)) * alpha) - base
    if out > 0:
        starts[out - 1] = size - pool
    return starts


class _FractionalMaxPool(Function):
    # which sample of a plane each spatial dimension (in order) takes
    sample_order: tuple[int, ...] = ()

    def forward(self, x: Tensor, kernel: tuple[int, ...], output_size: tuple[int, ...],
                samples: Array) -> Array:
        dims = len(kernel)
        data = np.asarray(x._data)
        planes_in = data.reshape((-1,) + data.shape[-dims:])
        spatial = data.shape[-dims:]
        samples = np.asarray(samples).reshape(-1, dims)
        count = planes_in.shape[0]
        values = np.empty((count,) + tuple(output_size), data.dtype)
        indices = np.empty((count,) + tuple(output_size), np.int64)
        strides = [int(np.prod(spatial[d + 1:], dtype=np.int64)) for d in range(dims)]
        window = int(np.prod(kernel))
        for p in range(count):
            grids = []
            for d in range(dims):
                starts = intervals(samples[p, self.sample_order[d]], spatial[d],
                                   output_size[d], kernel[d])
                grids.append(starts[:, None] + np.arange(kernel[d])[None, :])  # (out, k)
            # flat input index of every (output position, window position)
            flat = np.zeros(tuple(output_size) + tuple(kernel), np.int64)
            for d in range(dims):
                shape = [1] * (2 * dims)
                shape[d], shape[dims + d] = output_size[d], kernel[d]
                flat = flat + grids[d].reshape(shape) * strides[d]
            flat = flat.reshape(tuple(output_size) + (window,))
            patch = planes_in[p].reshape(-1)[flat]
            local = patch.argmax(axis=-1)
            nan = np.isnan(patch)
            last_nan = window - 1 - nan[..., ::-1].argmax(axis=-1)
            local = np.where(nan.any(axis=-1), last_nan, local)
            values[p] = np.take_along_axis(patch, local[..., None], axis=-1)[..., 0]
            indices[p] = np.take_along_axis(flat, local[..., None], axis=-1)[..., 0]
        lead = data.shape[:-dims]
        self.indices = indices.reshape(lead + tuple(output_size))
        self.input_shape = tuple(data.shape)
        return values.reshape(lead + tuple(output_size))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError(f"gradsh does not implement the double backward of "
                                    f"{self.node_name} yet")
        dims = len(self.sample_order)
        volume = int(np.prod(self.input_shape[-dims:]))
        grad = np.asarray(grad)
        planes = self.indices.reshape(-1, int(np.prod(self.indices.shape[-dims:])))
        result = np.zeros((planes.shape[0], volume), grad.dtype)
        rows = np.repeat(np.arange(planes.shape[0]), planes.shape[1])
        np.add.at(result, (rows, planes.reshape(-1)), grad.reshape(-1))
        return (result.reshape(self.input_shape),)


class FractionalMaxPool2DBackward0(_FractionalMaxPool):
    node_name = "FractionalMaxPool2DBackward0"
    sample_order = (1, 0)  # height takes u[1], width u[0]


class FractionalMaxPool3DBackward0(_FractionalMaxPool):
    node_name = "FractionalMaxPool3DBackward0"
    sample_order = (0, 1, 2)
