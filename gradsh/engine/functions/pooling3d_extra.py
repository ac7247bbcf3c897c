"""3-D max pooling (MaxPool3DWithIndicesBackward0) and adaptive average pooling
(AdaptiveAvgPool3DBackward0), as ATen's CPU loops compute them: each output's window scanned
in depth, row, column order, sums and gradients added one term at a time in the dtype."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AdaptiveAvgPool3DBackward0", "MaxPool3DWithIndicesBackward0"]

Triple = tuple[int, int, int]


def _five(x: np.ndarray) -> np.ndarray:
    return x if x.ndim == 5 else x[None]


def _no_double_backward(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


class MaxPool3DWithIndicesBackward0(Function):
    node_name = "MaxPool3DWithIndicesBackward0"

    def forward(self, a: Tensor, kernel: Triple, stride: Triple, padding: Triple,
                dilation: Triple, out: Triple) -> Array:
        x = _five(a._data)
        n, c, d, h, w = x.shape
        floating = x.dtype.kind == "f" or x.dtype.name == "bfloat16"
        low = -np.inf if floating else np.iinfo(x.dtype).min
        padded = np.pad(x, [(0, 0), (0, 0)] + [(p, p + s * o) for p, s, o in
                                              zip(padding, stride, out, strict=True)],
                        constant_values=low)
        best = np.full((n, c) + out, low, dtype=x.dtype)
        where = np.full((n, c) + out, -1, dtype=np.int64)
        grids = np.meshgrid(*(np.arange(o) * s - p for o, s, p in
                              zip(out, stride, padding, strict=True)), indexing="ij")
        with _quiet():
            for offset in itertools.product(*(range(k) for k in kernel)):
                index = tuple(slice(k * dl, k * dl + s * (o - 1) + 1, s) for k, s, dl, o in
                              zip(offset, stride, dilation, out, strict=True))
                values = padded[(Ellipsis,) + index]
                pos = [g + k * dl for g, k, dl in zip(grids, offset, dilation, strict=True)]
                inside = ((pos[0] >= 0) & (pos[0] < d) & (pos[1] >= 0) & (pos[1] < h)
                          & (pos[2] >= 0) & (pos[2] < w))
                take = inside & ((values > best) | (np.isnan(values) if floating else False)
                                 | (where < 0))
                best = np.where(take, values, best)
                flat = (pos[0] * h + pos[1]) * w + pos[2]
                where = np.where(take, flat, where)
        self.indices = where if a.ndim == 5 else where[0]
        self.input_shape = tuple(a.shape)
        return best if a.ndim == 5 else best[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "max_pool3d")
        shape = self.input_shape
        plane = shape[-1] * shape[-2] * shape[-3]
        planes = int(np.prod(shape[:-3]))
        result = np.zeros((planes, plane), dtype=grad.dtype)
        per_plane = grad.size // max(planes, 1)
        rows = np.repeat(np.arange(planes), per_plane)
        np.add.at(result, (rows, self.indices.reshape(-1)), grad.reshape(-1))
        return (result.reshape(shape),)


def check_grad_not_empty(grad: Any, name: str) -> None:
    """adaptive_avg_pool{2,3}d_backward's check: no empty dimension after the first."""
    for i, n in enumerate(grad.shape):
        if i and not n:
            raise TorchRuntimeError(
                f"{name}(): Expected grad_output to have non-zero size for non-batch "
                f"dimensions, but grad_output has sizes {list(grad.shape)} with dimension {i} "
                "being empty")


def _bin(index: int, out: int, size: int) -> tuple[int, int]:
    return (index * size) // out, -(-((index + 1) * size) // out)


class AdaptiveAvgPool3DBackward0(Function):
    node_name = "AdaptiveAvgPool3DBackward0"

    def forward(self, a: Tensor, output_size: Triple) -> Array:
        x = _five(a._data)
        n, c = x.shape[:2]
        self.input_shape, self.output_size = tuple(a.shape), output_size
        result = np.empty((n, c) + output_size, dtype=x.dtype)
        with _quiet():
            for od, oh, ow in itertools.product(*(range(o) for o in output_size)):
                bins = [_bin(i, o, s) for i, o, s in
                        zip((od, oh, ow), output_size, x.shape[2:], strict=True)]
                total = np.zeros((n, c), dtype=x.dtype)
                for i, j, k in itertools.product(*(range(b0, b1) for b0, b1 in bins)):
                    total = total + x[:, :, i, j, k]
                for b0, b1 in bins:
                    total = total / x.dtype.type(b1 - b0)
                result[:, :, od, oh, ow] = total
        return result if a.ndim == 5 else result[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "adaptive_avg_pool3d")
        check_grad_not_empty(grad, "adaptive_avg_pool3d_backward")
        g = _five(grad)
        size = _five(np.empty(self.input_shape, dtype=np.int8)).shape
        result = np.zeros(size, dtype=grad.dtype)
        with _quiet():
            for od, oh, ow in itertools.product(*(range(o) for o in self.output_size)):
                bins = [_bin(i, o, s) for i, o, s in
                        zip((od, oh, ow), self.output_size, size[2:], strict=True)]
                delta = g[:, :, od, oh, ow]
                for b0, b1 in bins:
                    delta = delta / grad.dtype.type(b1 - b0)
                for i, j, k in itertools.product(*(range(b0, b1) for b0, b1 in bins)):
                    result[:, :, i, j, k] += delta
        return (result.reshape(self.input_shape),)
