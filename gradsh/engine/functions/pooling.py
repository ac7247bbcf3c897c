"""Nodes of pooling: max (MaxPool2DWithIndicesBackward0), average (AvgPool2DBackward0) and
adaptive average (AdaptiveAvgPool2DBackward0), all 2-D (the 1-D forms pool an unsqueezed input,
as in ATen). Windows come from strided views; the backward scatters (float32: np.add.at, in
ATen's order; else bincount) or one strided add per kernel position."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from gradsh.engine import limits
from gradsh.engine.dtypes import is_float_array_dtype
from gradsh.engine.functions.common import element_strides, laid_out, xp_of
from gradsh.engine.functions.pooling3d_extra import check_grad_not_empty
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import layout

__all__ = [
    "MaxPool2DWithIndicesBackward0", "AvgPool2DBackward0", "AvgPoolInputGrad",
    "AdaptiveAvgPool2DBackward0",
]

Pair = tuple[int, int]


class Window:
    """Where the windows of a 2-D pooling lie: kernel, stride, padding, dilation, ceil_mode."""

    def __init__(self, kernel: Pair, stride: Pair, padding: Pair, dilation: Pair,
                 ceil_mode: bool) -> None:
        self.kernel, self.stride, self.padding = kernel, stride, padding
        self.dilation, self.ceil_mode = dilation, ceil_mode

    def out_size(self, h: int, w: int) -> Pair:
        sizes = []
        for n, k, s, p, d in zip((h, w), self.kernel, self.stride, self.padding, self.dilation,
                                 strict=True):
            span = n + 2 * p - d * (k - 1) - 1
            out = (-(-span // s) if self.ceil_mode else span // s) + 1
            if self.ceil_mode and (out - 1) * s >= n + p:
                out -= 1  # the last window must start inside the input or its left padding
            sizes.append(out)
        return sizes[0], sizes[1]

    def windows(self, x: Array, fill: Any) -> tuple[Array, Pair]:
        """(N, C, OH, OW, kh, kw): the windows over x padded with `fill` (extra fill at the end
        for ceil_mode's partial windows)."""
        xp = xp_of(x)
        h, w = x.shape[-2:]
        oh, ow = self.out_size(h, w)
        (kh, kw), (sh, sw), (ph, pw), (dh, dw) = self.kernel, self.stride, self.padding, \
            self.dilation
        need_h = (oh - 1) * sh + dh * (kh - 1) + 1
        need_w = (ow - 1) * sw + dw * (kw - 1) + 1
        after_h = max(need_h - h - ph, 0)
        after_w = max(need_w - w - pw, 0)
        if ph or pw or after_h or after_w:
            x = xp.pad(x, ((0, 0), (0, 0), (ph, after_h), (pw, after_w)), constant_values=fill)
        extent = (dh * (kh - 1) + 1, dw * (kw - 1) + 1)
        view = sliding_window_view(x, extent, axis=(2, 3)) if xp is np else \
            xp.lib.stride_tricks.sliding_window_view(x, extent, axis=(2, 3))
        windows = view[:, :, :oh * sh:sh, :ow * sw:sw, ::dh, ::dw]
        limits.check(windows.shape, x.dtype.itemsize)  # what a reduction over them may copy
        return windows, (oh, ow)


def _batched(a: Array) -> Array:
    return a if a.ndim == 4 else a[None]


# ---------------------------------------------------------------------------------------------
# Max pooling
# ---------------------------------------------------------------------------------------------


class MaxPool2DWithIndicesBackward0(Function):
    """The maximum of each window; the gradient goes to the position it came from."""

    node_name = "MaxPool2DWithIndicesBackward0"

    def forward(self, a: Tensor, window: Window) -> Array:
        x = _batched(a._data)
        xp = xp_of(x)
        fill = -xp.inf if is_float_array_dtype(x.dtype) else xp.iinfo(x.dtype).min
        view, (oh, ow) = window.windows(x, fill)
        kh, kw = window.kernel
        flat = view.reshape(view.shape[:4] + (kh * kw,))
        local = flat.argmax(axis=-1)
        values = xp.take_along_axis(flat, local[..., None], axis=-1)[..., 0]
        (sh, sw), (ph, pw), (dh, dw) = window.stride, window.padding, window.dilation
        rows = xp.arange(oh)[:, None] * sh - ph + (local // kw) * dh
        cols = xp.arange(ow)[None, :] * sw - pw + (local % kw) * dw
        width = x.shape[-1]
        self.indices = (rows * width + cols).astype(np.int64)
        if a.ndim == 3:
            values, self.indices = values[0], self.indices[0]
        self.input_shape = tuple(a.shape)
        return xp.ascontiguousarray(values)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        shape = self.input_shape
        plane = shape[-1] * shape[-2]
        if F.as_tensor:  # (MaxPool2DWithIndicesBackwardBackward0)
            from gradsh.engine.functions.pooling_double import recorded_pool_backward

            return (recorded_pool_backward(self, grad, adaptive=False),)
        xp = xp_of(grad)
        if grad.size == 0:  # an empty batch
            return (xp.zeros(shape, grad.dtype),)
        planes = grad.size // max(grad.shape[-1] * grad.shape[-2], 1)
        offsets = xp.arange(planes).reshape(-1, 1) * plane
        where = (self.indices.reshape(planes, -1) + offsets).ravel()
        if xp is np and grad.dtype == np.float32:
            # ATen's kernel: grad_input[max index] += grad, in float32, in output order
            summed = np.zeros(planes * plane, np.float32)
            np.add.at(summed, where, grad.reshape(-1))
            return (summed.reshape(shape),)
        summed = xp.bincount(where, weights=grad.reshape(-1), minlength=planes * plane)
        return (summed.astype(grad.dtype, copy=False).reshape(shape),)


# ---------------------------------------------------------------------------------------------
# Average pooling
# ---------------------------------------------------------------------------------------------


def _divisors(window: Window, h: int, w: int, out: Pair, count_include_pad: bool,
              divisor_override: int | None) -> np.ndarray:
    """Each output position's divisor, (OH, OW), as ATen's avg_pool2d computes it."""
    if divisor_override:
        return np.full(out, float(divisor_override))
    sizes = []
    for n, o, k, s, p in zip((h, w), out, window.kernel, window.stride, window.padding,
                             strict=True):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        padded = end - start
        start, end = np.maximum(start, 0), np.minimum(end, n)
        sizes.append(padded if count_include_pad else end - start)
    return np.outer(sizes[0], sizes[1]).astype(np.float64)


class AvgPool2DBackward0(Function):
    node_name = "AvgPool2DBackward0"

    def forward(self, a: Tensor, window: Window, count_include_pad: bool,
                divisor_override: int | None) -> Array:
        x = _batched(a._data)
        xp = xp_of(x)
        view, out = window.windows(x, 0)
        h, w = x.shape[-2:]
        self.window, self.input_shape = window, tuple(a.shape)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        divisor = _divisors(window, h, w, out, count_include_pad, divisor_override)
        self.divisor = divisor
        if x.dtype in (np.float32, np.float64) and xp is np:
            sums = _window_sum(view)
        else:
            sums = view.sum(axis=(-2, -1), dtype=x.dtype)
        if is_float_array_dtype(x.dtype):
            result = (sums / xp.asarray(divisor, dtype=x.dtype)).astype(x.dtype, copy=False)
        else:
            result = (sums // xp.asarray(divisor.astype(np.int64))).astype(x.dtype)
        return xp.ascontiguousarray(result if a.ndim == 4 else result[0])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (AvgPoolInputGrad.apply(grad, node=self),)
        return (_avg_pool_input_grad(grad, self),)


def _window_sum(view: np.ndarray) -> np.ndarray:
    """Each window's float32 or float64 sum as ATen's cpu_avg_pool adds it: from 0, row by row,
    element by element (a padded position adds +0, which changes nothing)."""
    kh, kw = view.shape[-2:]
    total = np.zeros(view.shape[:-2], view.dtype)
    for i in range(kh):
        for j in range(kw):
            total += view[..., i, j]
    return total


def _avg_pool_input_grad(grad: Array, node: AvgPool2DBackward0) -> Array:
    xp = xp_of(grad)
    g = _batched(grad) / xp.asarray(node.divisor, dtype=grad.dtype)
    shape4 = (1,) * (4 - len(node.input_shape)) + node.input_shape
    h, w = shape4[-2:]
    (kh, kw), (sh, sw), (ph, pw) = node.window.kernel, node.window.stride, node.window.padding
    oh, ow = g.shape[-2:]
    padded = xp.zeros(shape4[:2] + (max(h + 2 * ph, (oh - 1) * sh + kh),
                                    max(w + 2 * pw, (ow - 1) * sw + kw)), dtype=grad.dtype)
    # ATen adds each output's share into its window, outputs in order: an input receives its
    # shares in output order when the kernel offsets run backwards
    for i in reversed(range(kh)):
        for j in reversed(range(kw)):
            padded[:, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw] += g
    return padded[:, :, ph:ph + h, pw:pw + w].reshape(node.input_shape)


class AvgPoolInputGrad(Function):
    """avg_pool2d's input gradient as a differentiable op (create_graph): linear in the output
    gradient, whose own gradient is the average pooling again."""

    node_name = "AvgPool2DBackwardBackward0"

    def forward(self, grad: Tensor, node: AvgPool2DBackward0) -> Array:
        self.node = node
        return _avg_pool_input_grad(grad._data, node)

    def backward(self, F: Any, h: Any) -> tuple[Any, ...]:
        node = self.node
        if F.as_tensor:
            return (AvgPool2DBackward0.apply(h, window=node.window,
                                             count_include_pad=node.count_include_pad,
                                             divisor_override=node.divisor_override),)
        return (_pooled_array(h, node),)


def _pooled_array(h: Array, node: AvgPool2DBackward0) -> Array:
    x = _batched(h)
    view, _ = node.window.windows(x, 0)
    out = view.sum(axis=(-2, -1)) / xp_of(h).asarray(node.divisor, dtype=h.dtype)
    return out.astype(h.dtype, copy=False) if h.ndim == 4 else out[0].astype(h.dtype)


# ---------------------------------------------------------------------------------------------
# Adaptive average pooling
# ---------------------------------------------------------------------------------------------


def _bin_matrix(n: int, out: int, dtype: Any) -> np.ndarray:
    """(out, n): row i averages input positions floor(i*n/out) .. ceil((i+1)*n/out)-1."""
    matrix = np.zeros((out, n), dtype=np.float64)
    for i in range(out):
        start, end = (i * n) // out, -(-((i + 1) * n) // out)
        matrix[i, start:end] = 1.0 / (end - start)
    return matrix.astype(dtype)


class AdaptiveAvgPool2DBackward0(Function):
    """Separable: y = A_h @ x @ A_w^T with the bin-averaging matrices of each axis."""

    node_name = "AdaptiveAvgPool2DBackward0"

    def forward(self, a: Tensor, output_size: Pair) -> Array:
        x = a._data
        xp = xp_of(x)
        h, w = x.shape[-2:]
        self.output_size = output_size
        self.rows = xp.asarray(_bin_matrix(h, output_size[0], x.dtype))
        self.cols = xp.asarray(_bin_matrix(w, output_size[1], x.dtype))
        # cpu_adaptive_avg_pool_channels_last divides each sum by kh * kw once
        self.channels_last = (xp is np and x.ndim == 4 and not x.flags.c_contiguous
                              and layout.is_channels_last(x.shape, element_strides(x)))
        if not (x.size and all(output_size)):  # (an empty result: no bins to average)
            return xp.zeros(x.shape[:-2] + tuple(output_size), dtype=x.dtype)
        if x.dtype in (np.float32, np.float64) and xp is np:
            return _adaptive_average(x, output_size, self.channels_last)
        return xp.ascontiguousarray(self.rows @ x @ self.cols.T)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        check_grad_not_empty(grad, "adaptive_avg_pool2d_backward")
        if not F.as_tensor and grad.__class__ is np.ndarray and grad.dtype in (np.float32,
                                                                                np.float64):
            return (_adaptive_average_grad(grad, self.rows.shape[1], self.cols.shape[1]),)
        if F.as_tensor:
            rows = Tensor._make(self.rows, grad.device)
            cols = Tensor._make(self.cols, grad.device)
            return (F.t(rows) @ grad @ cols,)
        return (self.rows.T @ grad @ self.cols,)


def _bins(n: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """ATen's adaptive pooling windows along one axis: (starts, sizes) of the `out` bins."""
    index = np.arange(out)
    starts = (index * n) // out
    ends = -(-((index + 1) * n) // out)
    return starts, ends - starts


def _adaptive_average(x: np.ndarray, output_size: Pair,
                      channels_last: bool = False) -> np.ndarray:
    """cpu_adaptive_avg_pool in float32 (or float64): each bin's sum from 0 in row-major
    order, then / kh / kw (two divisions; channels-last: / (kh * kw), one). All bins at once,
    one element offset of the window at a time (a bin shorter than the longest adds +0 there,
    which changes nothing)."""
    h, w = x.shape[-2:]
    kind = x.dtype.type
    (h0, kh), (w0, kw) = _bins(h, output_size[0]), _bins(w, output_size[1])
    total = np.zeros(x.shape[:-2] + (output_size[0], output_size[1]), kind)
    for i in range(int(kh.max())):
        rows = np.minimum(h0 + i, h - 1)
        row_ok = i < kh
        for j in range(int(kw.max())):
            cols = np.minimum(w0 + j, w - 1)
            part = x[..., rows[:, None], cols[None, :]]
            total += np.where(row_ok[:, None] & (j < kw)[None, :], part, kind(0))
    out = total / kh[:, None].astype(kind) / kw[None, :].astype(kind)
    if channels_last:  # the channels of whole vectors (8 floats, 4 doubles): one division
        full = x.shape[1] - x.shape[1] % (32 // x.itemsize)
        out[:, :full] = total[:, :full] / (kh[:, None] * kw[None, :]).astype(kind)
    return out


def _adaptive_average_grad(grad: np.ndarray, h: int, w: int) -> np.ndarray:
    """cpu_adaptive_avg_pool_backward: each output's gradient / kh / kw added into its window,
    outputs in row-major order."""
    oh, ow = grad.shape[-2:]
    (h0, kh), (w0, kw) = _bins(h, oh), _bins(w, ow)
    kind = grad.dtype.type
    delta = grad / kh[:, None].astype(kind) / kw[None, :].astype(kind)
    out = np.zeros(grad.shape[:-2] + (h, w), kind)
    for i in range(oh):
        for j in range(ow):
            out[..., h0[i]:h0[i] + kh[i], w0[j]:w0[j] + kw[j]] += delta[..., i, j, None, None]
    return out


# (channels-last in, channels-last out)
laid_out("suggested")(MaxPool2DWithIndicesBackward0)
laid_out("suggested")(AvgPool2DBackward0)
laid_out("suggested")(AdaptiveAvgPool2DBackward0)
