"""Nodes of F.interpolate on 5-D inputs: upsample_nearest3d, _upsample_nearest_exact3d and
upsample_trilinear3d, with ATen's CPU indices and weights (functions/upsampling.py's) and its
kernels' orders of operations.

Trilinear has two forward kernels, chosen as upsample_trilinear3d_kernel_impl does: the
channels-last one (a channels-last input with more than 3 channels) weighs the eight corners by
the products (d * h) * w of their lambdas, summed in a vectorised order over whole vectors of
channels and in the scalar order over the rest; the generic one interpolates along the width,
then the height, then the depth, t0 w0 + t1 w1 at each level with the first product fused. The
backward adds each output's gradient into its eight corners with the product weights, fused,
corner after corner.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.upsampling import (
    _accumulate, _array_only, _fma, _fused_accumulate, linear_weights, nearest_indices,
)
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["UpsampleNearest3DBackward0", "UpsampleNearestExact3DBackward0",
           "UpsampleTrilinear3DBackward0"]


def _grid(indices: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Open-mesh index arrays selecting (depth, height, width) combinations."""
    d, h, w = indices
    return d[:, None, None], h[None, :, None], w[None, None, :]


def _flat(indices: list[np.ndarray], spatial: tuple[int, ...]) -> np.ndarray:
    d, h, w = _grid(indices)
    return ((d * spatial[1] + h) * spatial[2] + w).reshape(-1)


class _Nearest3D(Function):
    exact = False

    def forward(self, x: Tensor, output_size: tuple[int, ...],
                scales: tuple[float | None, ...]) -> Array:
        data = x._data
        self.input_shape = tuple(data.shape)
        self.indices = [nearest_indices(n, m, s, self.exact) for n, m, s in
                        zip(data.shape[-3:], output_size, scales, strict=True)]
        return xp_of(data).ascontiguousarray(data[(Ellipsis, *_grid(self.indices))])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        spatial = self.input_shape[-3:]
        return (_accumulate(grad, spatial, _flat(self.indices, spatial), grad),)


class UpsampleNearest3DBackward0(_Nearest3D):
    node_name = "UpsampleNearest3DBackward0"


class UpsampleNearestExact3DBackward0(_Nearest3D):
    node_name = "UpsampleNearestExact3DBackward0"
    exact = True


def _corners(weights: list[Any], dtype: Any) -> list[tuple[list[np.ndarray], np.ndarray]]:
    """The eight (indices, weight) corners in ATen's order 000, 001, ..., 111 (depth, height,
    width bits), each weight (d * h) * w in the kernel's opmath."""
    out = []
    for bits in range(8):
        picks = [weights[k][(bits >> (2 - k)) & 1] for k in range(3)]
        lams = [weights[k][2 + ((bits >> (2 - k)) & 1)] for k in range(3)]
        d, h, w = _grid(lams)
        out.append((picks, ((d * h) * w).astype(dtype)))
    return out


def _channels_last_kernel(data: Array, corners: list[Any]) -> Array:
    """upsample_linear_channels_last's loop3d: vectors of channels sum x110 w110, then x111,
    x101, x100, x011, x010, x001, x000 fused in; the channels past the last multiple of 8
    floats or 4 doubles x001 w001, then x000, x010, ..., x111 fused in (the 2-D kernel's
    measured orders, extended)."""
    def total(order: tuple[int, ...]) -> Array:
        result = None
        for k in order:
            picks, weight = corners[k]
            value = data[(Ellipsis, *_grid(picks))]
            result = value * weight if result is None else _fma(value, weight, result)
        return result

    channels = data.shape[-4]
    vector = total((6, 7, 5, 4, 3, 2, 1, 0))
    full = channels - channels % (8 if data.dtype == np.float32 else 4)
    if full == channels:
        return vector
    tail = total((1, 0, 2, 3, 4, 5, 6, 7))
    if full == 0:
        return tail
    return xp_of(data).concatenate([vector[:, :full], tail[:, full:]], axis=-4)


def _generic_kernel(data: Array, weights: list[Any]) -> Array:
    """The non-separable kernel: width, then height, then depth, fma(t0, w0, t1 * w1)."""
    (d0, d1, c0, c1), (h0, h1, a0, a1), (v0, v1, b0, b1) = weights
    dtype = data.dtype.type

    def row(d: np.ndarray, h: np.ndarray) -> Array:
        left = data[..., d[:, None, None], h[None, :, None], v0[None, None, :]]
        right = data[..., d[:, None, None], h[None, :, None], v1[None, None, :]]
        return _fma(left, b0.astype(dtype), right * b1.astype(dtype))

    def plane(d: np.ndarray) -> Array:
        return _fma(row(d, h0), a0.astype(dtype)[:, None],
                    row(d, h1) * a1.astype(dtype)[:, None])

    return _fma(plane(d0), c0.astype(dtype)[:, None, None],
                plane(d1) * c1.astype(dtype)[:, None, None])


class UpsampleTrilinear3DBackward0(Function):
    """Each output a weighted sum of the 8 nearest inputs."""

    node_name = "UpsampleTrilinear3DBackward0"

    def forward(self, x: Tensor, output_size: tuple[int, ...], align_corners: bool,
                scales: tuple[float | None, ...]) -> Array:
        data = x._data
        self.input_shape = tuple(data.shape)
        self.weights = [linear_weights(n, m, align_corners, s, data.dtype) for n, m, s in
                        zip(data.shape[-3:], output_size, scales, strict=True)]
        with _quiet():
            if data.shape[1] > 3 and _channels_last_3d(data):
                out = _channels_last_kernel(data, _corners(self.weights, data.dtype))
            else:
                out = _generic_kernel(data, self.weights)
        return xp_of(data).ascontiguousarray(out)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        spatial = self.input_shape[-3:]
        corners = _corners(self.weights, grad.dtype)
        targets = np.stack([_flat(picks, spatial) for picks, _ in corners], axis=-1).reshape(-1)
        weights = np.stack([np.broadcast_to(w, tuple(len(p) for p in corners[0][0])).reshape(-1)
                            for _, w in corners], axis=-1).reshape(-1)
        sources = np.repeat(np.arange(int(np.prod([len(p) for p in corners[0][0]]))), 8)
        return (_fused_accumulate(grad, spatial, targets, weights, sources),)


def _channels_last_3d(data: Array) -> bool:
    """Whether a 5-D array is laid out channels-last-3d (C the fastest-moving dimension)."""
    return data.ndim == 5 and data.transpose(0, 2, 3, 4, 1).flags.c_contiguous
