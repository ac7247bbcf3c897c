"""Nodes of F.interpolate: nearest, nearest-exact and (bi)linear upsampling over the last one
or two dimensions, with ATen's CPU source indices and weights (computed in float for float32,
as its kernels do) and its backward's accumulation order; pixel_shuffle and its inverse;
max_unpool2d (the scatter back to pooled positions)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, fma64, laid_out, xp_of
from gradsh.engine.functions.joining import _channels_last
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = [
    "UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0",
    "UpsampleNearestExact1DBackward0", "UpsampleNearestExact2DBackward0",
    "UpsampleLinear1DBackward0", "UpsampleBilinear2DBackward0", "PixelShuffleBackward0",
    "PixelUnshuffleBackward0", "MaxUnpool2DBackward0", "ChannelShuffleBackward0",
]


def _scale(input_size: int, output_size: int, scale: float | None, dtype: Any) -> Any:
    """compute_scales_value: 1/scale_factor when one was given, else in/out, in opmath."""
    if scale is not None and scale > 0:
        return dtype.type(1.0 / scale)
    return dtype.type(input_size) / dtype.type(output_size)


def nearest_indices(input_size: int, output_size: int, scale: float | None,
                    exact: bool) -> np.ndarray:
    """The input index each output index copies (ATen's nearest_idx, or the exact variant)."""
    out = np.arange(output_size)
    if not exact:
        if output_size == input_size:
            return out
        if output_size == 2 * input_size:
            return out >> 1
    s = _scale(input_size, output_size, scale, np.dtype(np.float32))
    position = out.astype(np.float32)
    if exact:
        position = position + np.float32(0.5)
    with _quiet():
        source = np.floor(position * s).astype(np.int64)
    return np.minimum(source, input_size - 1)


def _fma(a: Any, b: Any, c: Any) -> Any:
    """a * b + c rounded once, in a's dtype: the kernels' contracted multiply-adds (float32's
    product is exact in float64; float64's goes through the exact fma64)."""
    a = np.asarray(a)
    if a.dtype == np.float64:
        return fma64(a, b, c).reshape(np.broadcast_shapes(a.shape, np.shape(b), np.shape(c)))
    wide = a.astype(np.float64) * np.asarray(b, dtype=np.float64) + np.asarray(c, np.float64)
    return wide.astype(a.dtype)


def source_index(ratio: Any, out: np.ndarray) -> np.ndarray:
    """area_pixel_compute_source_index without align_corners, before any clamping: scale *
    (i + 0.5) - 0.5 as one fused multiply-add."""
    half = out.dtype.type(0.5)
    return _fma(np.full_like(out, ratio), out + half, -half)


def floor_index(real: np.ndarray, input_size: int) -> np.ndarray:
    """guard_index_and_lambda's index: min(floorf(real), size - 1). floorf takes a float, so a
    double index is rounded to float first (a 17 -> 31 resize puts output 15 at
    7.999999999999999, which floorf sees as 8)."""
    return np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), input_size - 1)


def linear_weights(input_size: int, output_size: int, align_corners: bool,
                   scale: float | None, dtype: Any) -> tuple[np.ndarray, np.ndarray, Array,
                                                             Array]:
    """(index0, index1, weight0, weight1) of each output index: ATen's
    area_pixel_compute_source_index (its scale * (i + 0.5) - 0.5 one fused multiply-add) and
    guard_index_and_lambda, in the kernel's opmath."""
    op = np.dtype(np.float64 if dtype == np.float64 else np.float32)
    out = np.arange(output_size).astype(op)
    if align_corners:
        ratio = (op.type(input_size - 1) / op.type(output_size - 1)) if output_size > 1 \
            else op.type(0)
        real = ratio * out
    else:
        real = np.maximum(source_index(_scale(input_size, output_size, scale, op), out),
                          op.type(0))
    index0 = floor_index(real, input_size)
    lam = np.clip(real - index0.astype(op), op.type(0), op.type(1)).astype(op)
    index1 = index0 + (index0 < input_size - 1)
    return index0, index1, (op.type(1) - lam).astype(op), lam


def _array_only(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


def _accumulate(grad: Array, shape: tuple[int, ...], flat_index: np.ndarray,
                values: Array) -> Array:
    """grad_input[..., flat_index[k]] += values[..., k] in k's order (the kernel's loop)."""
    xp = xp_of(grad)
    lead = grad.shape[:-len(shape)] if len(shape) else grad.shape
    plane = int(np.prod(shape))
    result = xp.zeros(lead + (plane,), dtype=grad.dtype)
    flat = result.reshape(-1, plane)
    xp.add.at(flat, (slice(None), flat_index), values.reshape(flat.shape[0], -1))
    return result.reshape(lead + shape)


def _fused_accumulate(grad: Array, shape: tuple[int, ...], targets: np.ndarray,
                      weights: Array, sources: np.ndarray) -> Array:
    """grad_input[t] = fma(w, grad_output[s], grad_input[t]) for each (t, w, s) in order, as
    the kernel's loop over the outputs does; vectorised in rounds, the r-th contribution to
    every target in round r (so each target still sums in the loop's order)."""
    xp = xp_of(grad)
    lead = grad.shape[:-len(shape)]
    plane = int(np.prod(shape))
    flat_grad = grad.reshape(-1, grad.size // max(int(np.prod(lead)), 1) if grad.size else 0)
    result = xp.zeros((flat_grad.shape[0], plane), dtype=grad.dtype)
    order = np.argsort(targets, kind="stable")
    sorted_targets = targets[order]
    first = np.searchsorted(sorted_targets, sorted_targets, side="left")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size) - first
    for r in range(int(rank.max()) + 1 if rank.size else 0):
        pick = np.nonzero(rank == r)[0]
        t, w = targets[pick], weights[pick]
        result[:, t] = _fma(flat_grad[:, sources[pick]], w, result[:, t])
    return result.reshape(lead + shape)


class _Nearest(Function):
    exact = False

    def forward(self, x: Tensor, output_size: tuple[int, ...],
                scales: tuple[float | None, ...]) -> Array:
        data = x._data
        dims = len(output_size)
        self.input_shape = tuple(data.shape)
        self.indices = [nearest_indices(n, m, s, self.exact) for n, m, s in
                        zip(data.shape[-dims:], output_size, scales, strict=True)]
        xp = xp_of(data)
        if dims == 1:
            return xp.ascontiguousarray(data[..., self.indices[0]])
        return xp.ascontiguousarray(data[..., self.indices[0][:, None],
                                         self.indices[1][None, :]])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        dims = len(self.indices)
        spatial = self.input_shape[-dims:]
        if dims == 1:
            flat = self.indices[0]
        else:
            flat = (self.indices[0][:, None] * spatial[1] + self.indices[1][None, :]).reshape(-1)
        return (_accumulate(grad, spatial, flat, grad),)


class UpsampleNearest1DBackward0(_Nearest):
    node_name = "UpsampleNearest1DBackward0"


class UpsampleNearest2DBackward0(_Nearest):
    node_name = "UpsampleNearest2DBackward0"


class UpsampleNearestExact1DBackward0(_Nearest):
    node_name = "UpsampleNearestExact1DBackward0"
    exact = True


class UpsampleNearestExact2DBackward0(_Nearest):
    node_name = "UpsampleNearestExact2DBackward0"
    exact = True


def _bilinear(data: Array, weights: list[Any]) -> Array:
    """upsample_bilinear2d's float kernels. The channels-last one (channels-last input with more
    than 3 channels, an output of height + width <= 128, or 3 channels at one thread) weighs
    the four corners by products of the lambdas: vectors of channels as x10 w10, then x11,
    x01, x00 fused in; the channels past the last multiple of 8 floats or 4 doubles (the part
    of the scalar tail GCC did not vectorise) as x01 w01, then x00, x10, x11 fused in
    (measured). The generic kernel interpolates along the width, then the
    height: t0 w0 + t1 w1 at each level, the second product fused."""
    (h0, h1, a0, a1), (v0, v1, b0, b1) = weights
    dtype = data.dtype.type
    channels = data.shape[-3]
    if not (channels > 3 and _channels_last(data) or h0.size + v0.size <= 128
            or threads.torch_threads() == 1 and channels == 3):
        rows = []
        for h in (h0, h1):
            left, right = data[..., h[:, None], v0[None, :]], data[..., h[:, None], v1[None, :]]
            rows.append(_fma(left, b0.astype(dtype), right * b1.astype(dtype)))
        return _fma(rows[0], a0.astype(dtype)[:, None], rows[1] * a1.astype(dtype)[:, None])

    def corners(order: tuple[int, ...]) -> Array:
        picks = ((h0, v0, a0, b0), (h0, v1, a0, b1), (h1, v0, a1, b0), (h1, v1, a1, b1))
        total = None
        for k in order:
            h, v, a, b = picks[k]
            corner = data[..., h[:, None], v[None, :]]
            weight = (a[:, None] * b[None, :]).astype(dtype)
            total = corner * weight if total is None else _fma(corner, weight, total)
        return total

    vector = corners((2, 3, 1, 0))
    full = channels - channels % (8 if data.dtype == np.float32 else 4)
    if full == channels:
        return vector
    tail = corners((1, 0, 2, 3))
    if full == 0:
        return tail
    return xp_of(data).concatenate([vector[..., :full, :, :], tail[..., full:, :, :]], axis=-3)


class _Linear(Function):
    """Each output is a weighted sum of the 2 (1-D) or 4 (2-D) nearest inputs, each 2-D weight
    the product of its row's and column's."""

    def forward(self, x: Tensor, output_size: tuple[int, ...], align_corners: bool,
                scales: tuple[float | None, ...]) -> Array:
        data = x._data
        dims = len(output_size)
        self.input_shape = tuple(data.shape)
        self.weights = [linear_weights(n, m, align_corners, s, data.dtype) for n, m, s in
                        zip(data.shape[-dims:], output_size, scales, strict=True)]
        dtype = data.dtype.type
        with _quiet():
            if dims == 1:
                i0, i1, w0, w1 = self.weights[0]
                return xp_of(data).ascontiguousarray(
                    _fma(data[..., i0], w0.astype(dtype), data[..., i1] * w1.astype(dtype)))
            return xp_of(data).ascontiguousarray(_bilinear(data, self.weights))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        dims = len(self.weights)
        spatial = self.input_shape[-dims:]
        dtype = grad.dtype.type
        if dims == 1:
            i0, i1, w0, w1 = self.weights[0]
            targets = np.stack([i0, i1], axis=-1).reshape(-1)
            weights = np.stack([w0, w1], axis=-1).reshape(-1).astype(dtype)
            sources = np.repeat(np.arange(i0.size), 2)
        else:
            (h0, h1, a0, a1), (v0, v1, b0, b1) = self.weights
            corners = [(h0, v0, a0, b0), (h0, v1, a0, b1), (h1, v0, a1, b0), (h1, v1, a1, b1)]
            targets = np.stack([h[:, None] * spatial[1] + v[None, :] for h, v, _, _ in corners],
                               axis=-1).reshape(-1)
            weights = np.stack([(a[:, None] * b[None, :]).astype(dtype)
                                for _, _, a, b in corners], axis=-1).reshape(-1)
            sources = np.repeat(np.arange(h0.size * v0.size), 4)
        return (_fused_accumulate(grad, spatial, targets, weights, sources),)


class UpsampleLinear1DBackward0(_Linear):
    node_name = "UpsampleLinear1DBackward0"


class UpsampleBilinear2DBackward0(_Linear):
    node_name = "UpsampleBilinear2DBackward0"


def shuffle_pixels(x: Array, factor: int) -> Array:
    """(..., C*r*r, H, W) -> (..., C, H*r, W*r), a copy in C order."""
    *lead, c, h, w = x.shape
    out_c = c // (factor * factor)
    n = len(lead)
    view = x.reshape(*lead, out_c, factor, factor, h, w)
    order = [*range(n), n, n + 3, n + 1, n + 4, n + 2]
    return xp_of(x).ascontiguousarray(view.transpose(order)).reshape(
        *lead, out_c, h * factor, w * factor)


def unshuffle_pixels(x: Array, factor: int) -> Array:
    """(..., C, H*r, W*r) -> (..., C*r*r, H, W), the inverse of shuffle_pixels."""
    *lead, c, h, w = x.shape
    oh, ow = h // factor, w // factor
    n = len(lead)
    view = x.reshape(*lead, c, oh, factor, ow, factor)
    order = [*range(n), n, n + 2, n + 4, n + 1, n + 3]
    return xp_of(x).ascontiguousarray(view.transpose(order)).reshape(
        *lead, c * factor * factor, oh, ow)


class PixelShuffleBackward0(Function):
    node_name = "PixelShuffleBackward0"

    def forward(self, x: Tensor, factor: int) -> Array:
        self.factor = factor
        return shuffle_pixels(x._data, factor)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        return (unshuffle_pixels(grad, self.factor),)


class PixelUnshuffleBackward0(Function):
    node_name = "PixelUnshuffleBackward0"

    def forward(self, x: Tensor, factor: int) -> Array:
        self.factor = factor
        return unshuffle_pixels(x._data, factor)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        return (shuffle_pixels(grad, self.factor),)


def _shuffle_channels(data: Array, groups: int) -> Array:
    """(b, c, *) with c = groups * k: channel g * k + i moves to i * groups + g (ATen's
    math_channel_shuffle: a (b, groups, k, -1) view permuted to (b, k, groups, -1))."""
    b, c = data.shape[:2]
    moved = data.reshape(b, groups, c // groups, -1).transpose(0, 2, 1, 3)
    return xp_of(data).ascontiguousarray(moved).reshape(data.shape)


class ChannelShuffleBackward0(Function):
    node_name = "ChannelShuffleBackward0"

    def forward(self, x: Tensor, groups: int) -> Array:
        self.groups = groups
        return _shuffle_channels(x._data, groups)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        # the inverse permutation is the shuffle with c / groups groups
        return (_shuffle_channels(grad, grad.shape[1] // self.groups),)


class MaxUnpool2DBackward0(Function):
    """max_unpool2d: zeros with each input value at its flat index in its (N, C) plane (the
    later of two writes to one place wins, as the CPU loop's); the gradient gathers back."""

    node_name = "MaxUnpool2DBackward0"

    def forward(self, x: Tensor, indices: Array, output_size: tuple[int, int]) -> Array:
        data = x._data
        xp = xp_of(data)
        lead = data.shape[:-2]
        plane = output_size[0] * output_size[1]
        flat_in = data.reshape(-1, data.shape[-2] * data.shape[-1])
        flat_index = indices.reshape(flat_in.shape)
        out = xp.zeros((flat_in.shape[0], plane), dtype=data.dtype)
        rows = xp.arange(flat_in.shape[0])[:, None]
        out[rows, flat_index] = flat_in
        self.indices, self.input_shape = flat_index, tuple(data.shape)
        return out.reshape(lead + tuple(output_size))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        flat = grad.reshape(self.indices.shape[0], -1)
        gathered = xp_of(grad).take_along_axis(flat, self.indices, axis=1)
        return (gathered.reshape(self.input_shape),)


# (channels-last in, channels-last out)
for _cls in (UpsampleNearest2DBackward0, UpsampleNearestExact2DBackward0,
             UpsampleBilinear2DBackward0):
    laid_out("suggested")(_cls)
