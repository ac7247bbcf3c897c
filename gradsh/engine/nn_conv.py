"""Convolutions: conv1d and conv2d (ConvolutionBackward0) by im2col, a strided window view of
the padded input copied into columns and multiplied with BLAS; the backward scatters columns
back with one strided add per kernel position, never a Python loop over pixels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from gradsh.engine import backend, ops
from gradsh.engine.exceptions import TorchRuntimeError, warn
from gradsh.engine.ops import arguments
from gradsh.engine.tensor import Array, Function, GradOps, Tensor

Pair = tuple[int, int]


@dataclass(frozen=True)
class ConvGeometry:
    """A 2-D convolution's hyper-parameters (a 1-D one has height 1)."""

    stride: Pair
    padding: Pair
    dilation: Pair
    groups: int

    def out_size(self, height: int, width: int, kernel: Pair) -> Pair:
        sizes = []
        for n, k, s, p, d in zip((height, width), kernel, self.stride, self.padding,
                                 self.dilation, strict=True):
            sizes.append((n + 2 * p - d * (k - 1) - 1) // s + 1)
        return sizes[0], sizes[1]


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)


def _columns(x: Array, kernel: Pair, geo: ConvGeometry) -> tuple[Array, Pair]:
    """im2col: (N, C*kh*kw, OH*OW), each kernel position's inputs in a row per sample, and
    (OH, OW). The copy reads the strided window view row by row (contiguous runs of OW)."""
    xp = _xp(x)
    (ph, pw), (sh, sw), (dh, dw) = geo.padding, geo.stride, geo.dilation
    if ph or pw:
        x = xp.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    kh, kw = kernel
    extent = (dh * (kh - 1) + 1, dw * (kw - 1) + 1)
    if xp is np:
        windows = sliding_window_view(x, extent, axis=(2, 3))
    else:
        windows = xp.lib.stride_tricks.sliding_window_view(x, extent, axis=(2, 3))
    windows = windows[:, :, ::sh, ::sw, ::dh, ::dw]  # (N, C, OH, OW, kh, kw)
    n, c, oh, ow = windows.shape[:4]
    cols = windows.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, oh * ow)
    return cols, (oh, ow)


def _grouped(weights: Array, groups: int) -> Array:
    """(O, K) weights as (groups, O/groups, K)."""
    return weights.reshape(groups, weights.shape[0] // groups, weights.shape[1])


def conv_forward(x: Array, w: Array, geo: ConvGeometry) -> Array:
    """y[n, o] = sum over the window of x * w[o], as an (N, O, OH, OW) C-ordered array: one
    (O x K) @ (K x OH*OW) product per sample (per group)."""
    xp = _xp(x)
    n, o, g = x.shape[0], w.shape[0], geo.groups
    cols, (oh, ow) = _columns(x, (w.shape[2], w.shape[3]), geo)
    weights = w.reshape(o, -1)
    if g == 1:
        out = xp.matmul(weights, cols)
    else:
        out = xp.matmul(_grouped(weights, g), cols.reshape(n, g, -1, cols.shape[2]))
    return out.reshape(n, o, oh, ow)


def conv_backward_input(grad: Array, w: Array, x_shape: tuple[int, ...],
                        geo: ConvGeometry) -> Array:
    """col2im of w^T @ grad: each kernel position's columns added back into the padded input
    with one strided add."""
    xp = _xp(grad)
    n, c, h, width = x_shape
    o, _, kh, kw = w.shape
    oh, ow = grad.shape[2], grad.shape[3]
    g = geo.groups
    rows = grad.reshape(n, o, oh * ow)
    weights = w.reshape(o, -1)
    if g == 1:
        cols = xp.matmul(weights.T, rows)
    else:
        grouped = _grouped(weights, g).transpose(0, 2, 1)
        cols = xp.matmul(grouped, rows.reshape(n, g, o // g, oh * ow))
    cols = cols.reshape(n, c, kh, kw, oh, ow)
    (ph, pw), (sh, sw), (dh, dw) = geo.padding, geo.stride, geo.dilation
    padded = xp.zeros((n, c, h + 2 * ph, width + 2 * pw), dtype=cols.dtype)
    for i in range(kh):
        for j in range(kw):
            top, left = i * dh, j * dw
            padded[:, :, top:top + sh * (oh - 1) + 1:sh,
                   left:left + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    return padded[:, :, ph:ph + h, pw:pw + width]


def conv_backward_weight(x: Array, grad: Array, w_shape: tuple[int, ...],
                         geo: ConvGeometry) -> Array:
    """sum over samples of grad @ columns^T: the weight gradient, (O, C/groups, kh, kw)."""
    xp = _xp(x)
    n, o, g = x.shape[0], w_shape[0], geo.groups
    cols, _ = _columns(x, (w_shape[2], w_shape[3]), geo)
    rows = grad.reshape(n, g, o // g, -1)
    cols = cols.reshape(n, g, -1, cols.shape[2])
    # one (O x P) @ (P x K) product per sample, summed: BLAS reads the transposed columns in
    # place (a tensordot would copy both operands first)
    flat = xp.matmul(rows, cols.swapaxes(-1, -2)).sum(axis=0)
    return flat.reshape(w_shape)


def _as_2d(array: Array, one_d: bool) -> Array:
    return array[:, :, None, :] if one_d else array


# ---------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------


class ConvolutionBackward0(Function):
    """convolution(input, weight, bias): one node, three edges (bias's None when absent)."""

    node_name = "ConvolutionBackward0"

    def forward(self, x: Tensor, w: Tensor, bias: Tensor, geo: ConvGeometry,
                has_bias: bool) -> Array:
        need_x, need_w, _ = self.needs_input_grad
        if need_w:
            self.save("input", x)
        if need_x:
            self.save("weight", w)
        self.geo, self.one_d = geo, x.ndim == 3
        self.x_shape, self.w_shape = tuple(x.shape), tuple(w.shape)
        y = conv_forward(_as_2d(x._data, self.one_d), _as_2d(w._data, self.one_d), geo)
        if has_bias:
            y += bias._data.reshape(1, -1, 1, 1)
        return y[:, :, 0, :] if self.one_d else y

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        gx = gw = gb = None
        if F.as_tensor:
            if need_x:
                gx = ConvInputGrad.apply(grad, self.saved("weight", F), geo=self.geo,
                                         x_shape=self.x_shape)
            if need_w:
                gw = ConvWeightGrad.apply(self.saved("input", F), grad, geo=self.geo,
                                          w_shape=self.w_shape)
            if need_b:
                gb = ops.sum(grad, dim=(0, 2) if self.one_d else (0, 2, 3))
            return gx, gw, gb
        g = _as_2d(grad, self.one_d)
        if need_x:
            w = _as_2d(self.saved("weight", F), self.one_d)
            gx = conv_backward_input(g, w, _shape_2d(self.x_shape), self.geo)
            gx = gx[:, :, 0, :] if self.one_d else gx
        if need_w:
            x = _as_2d(self.saved("input", F), self.one_d)
            gw = conv_backward_weight(x, g, _shape_2d(self.w_shape), self.geo)
            gw = gw[:, :, 0, :] if self.one_d else gw
        if need_b:
            gb = g.sum(axis=(0, 2, 3))
        return gx, gw, gb


def _shape_2d(shape: tuple[int, ...]) -> tuple[int, ...]:
    return shape if len(shape) == 4 else (shape[0], shape[1], 1, shape[2])


class ConvInputGrad(Function):
    """The input gradient of a convolution as a differentiable op (create_graph): linear in the
    output gradient (whose gradient is the convolution itself) and in the weight."""

    node_name = "ConvolutionBackwardBackward0"

    def forward(self, grad: Tensor, w: Tensor, geo: ConvGeometry,
                x_shape: tuple[int, ...]) -> Array:
        self.save("grad", grad)
        self.save("weight", w)
        self.geo, self.one_d = geo, len(x_shape) == 3
        gx = conv_backward_input(_as_2d(grad._data, self.one_d), _as_2d(w._data, self.one_d),
                                 _shape_2d(x_shape), geo)
        return gx[:, :, 0, :] if self.one_d else gx

    def backward(self, F: GradOps, h: Any) -> tuple[Any, ...]:
        need_g, need_w = self.needs_input_grad
        grad, w = self.saved("grad", F), self.saved("weight", F)
        zeros = ops.zeros(0, dtype=w.dtype, device=w.device) if F.as_tensor else None
        if F.as_tensor:
            gg = ConvolutionBackward0.apply(h, w, zeros, geo=self.geo,
                                            has_bias=False) if need_g else None
            gw = ConvWeightGrad.apply(h, grad, geo=self.geo,
                                      w_shape=tuple(w.shape)) if need_w else None
            return gg, gw
        h2, w2 = _as_2d(h, self.one_d), _as_2d(w, self.one_d)
        gg = conv_forward(h2, w2, self.geo) if need_g else None
        gw = conv_backward_weight(h2, _as_2d(grad, self.one_d), w2.shape,
                                  self.geo) if need_w else None
        if self.one_d:
            gg = gg[:, :, 0, :] if gg is not None else None
            gw = gw[:, :, 0, :] if gw is not None else None
        return gg, gw


class ConvWeightGrad(Function):
    """The weight gradient of a convolution as a differentiable op (create_graph)."""

    node_name = "ConvolutionBackwardBackward0"

    def forward(self, x: Tensor, grad: Tensor, geo: ConvGeometry,
                w_shape: tuple[int, ...]) -> Array:
        self.save("input", x)
        self.save("grad", grad)
        self.geo, self.one_d = geo, x.ndim == 3
        gw = conv_backward_weight(_as_2d(x._data, self.one_d), _as_2d(grad._data, self.one_d),
                                  _shape_2d(w_shape), geo)
        return gw[:, :, 0, :] if self.one_d else gw

    def backward(self, F: GradOps, h: Any) -> tuple[Any, ...]:
        need_x, need_g = self.needs_input_grad
        x, grad = self.saved("input", F), self.saved("grad", F)
        if F.as_tensor:
            zeros = ops.zeros(0, dtype=x.dtype, device=x.device)
            gx = ConvInputGrad.apply(grad, h, geo=self.geo,
                                     x_shape=tuple(x.shape)) if need_x else None
            gg = ConvolutionBackward0.apply(x, h, zeros, geo=self.geo,
                                            has_bias=False) if need_g else None
            return gx, gg
        x2, h2 = _as_2d(x, self.one_d), _as_2d(h, self.one_d)
        gx = conv_backward_input(_as_2d(grad, self.one_d), h2, x2.shape,
                                 self.geo) if need_x else None
        gg = conv_forward(x2, h2, self.geo) if need_g else None
        if self.one_d:
            gx = gx[:, :, 0, :] if gx is not None else None
            gg = gg[:, :, 0, :] if gg is not None else None
        return gx, gg


# ---------------------------------------------------------------------------------------------
# F.conv1d / F.conv2d
# ---------------------------------------------------------------------------------------------


def _tuple(value: Any, n: int, name: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    values = tuple(int(v) for v in value)
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise TorchRuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the "
            f"convolution dimensions, but got {name}={list(values)}")
    return values


def _same_padding(weight: Tensor, dilation: tuple[int, ...], stride: tuple[int, ...],
                  dims: int) -> tuple[tuple[int, ...], list[int] | None]:
    """padding='same': symmetric where the total is even; else the extra row/column goes after,
    through a zero-padded copy of the input (ATen warns about that copy)."""
    if any(s != 1 for s in stride):
        raise TorchRuntimeError("padding='same' is not supported for strided convolutions")
    symmetric, extra = [], []
    for d, k in zip(dilation, weight.shape[2:], strict=True):
        total = d * (k - 1)
        symmetric.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        warn("Using padding='same' with even kernel lengths and odd dilation may require a "
             "zero-padded copy of the input be created")
        pad: list[int] = []
        for e in reversed(extra):
            pad += [0, e]
        return tuple(symmetric), pad
    return tuple(symmetric), None


def _convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,  # noqa: A002
                 padding: Any, dilation: Any, groups: int, dims: int) -> Tensor:
    name = f"conv{dims}d"
    input = arguments._check_tensor(input, name)
    weight = arguments._check_tensor(weight, name, "weight", 2)
    if input.ndim not in (dims + 1, dims + 2):
        raise TorchRuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
            f"input of size: {list(input.shape)}")
    if input.ndim == dims + 1:
        out = _convolution(ops.unsqueeze(input, 0), weight, bias, stride, padding, dilation,
                           groups, dims)
        return ops.squeeze(out, 0)  # type: ignore[no-any-return]
    stride_t = _tuple(stride, dims, "stride")
    dilation_t = _tuple(dilation, dims, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding_t: tuple[int, ...] = (0,) * dims
        elif padding == "same":
            padding_t, extra = _same_padding(weight, dilation_t, stride_t, dims)
            if extra is not None:
                input = ops.pad(input, extra)
        else:
            raise TorchRuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding_t = _tuple(padding, dims, "padding")
    if weight.ndim != input.ndim:
        raise TorchRuntimeError(
            f"expected stride to be a single integer value or a list of {weight.ndim - 2} values "
            f"to match the convolution dimensions, but got stride={list(stride_t)}")
    _check_conv(input, weight, bias, stride_t, padding_t, dilation_t, groups)
    geo = ConvGeometry(_pair(stride_t, 1), _pair(padding_t, 0), _pair(dilation_t, 1), groups)
    placeholder = bias if bias is not None else ops.zeros(0, dtype=input.dtype,
                                                          device=input.device)
    return ConvolutionBackward0.apply(input, weight, placeholder, geo=geo,
                                      has_bias=bias is not None)


def _pair(values: tuple[int, ...], fill: int) -> Pair:
    """A 1-D convolution's values as 2-D ones (height 1, no stride or padding there)."""
    return (values[0], values[1]) if len(values) == 2 else (fill, values[0])


def _check_conv(input: Tensor, weight: Tensor, bias: Tensor | None,  # noqa: A002
                stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
                groups: int) -> None:
    if input.dtype is not weight.dtype:
        raise TorchRuntimeError(f"expected scalar type {input.dtype.short} but found "
                                f"{weight.dtype.short}")
    if bias is not None and bias.dtype is not input.dtype:
        raise TorchRuntimeError(f"Input type ({arguments._c_name(input.dtype)}) and bias type "
                                f"({arguments._c_name(bias.dtype)}) should be the same")
    if any(s <= 0 for s in stride):
        raise TorchRuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise TorchRuntimeError("negative padding is not supported")
    if groups <= 0:
        raise TorchRuntimeError("non-positive groups is not supported")
    channels = weight.shape[1] * groups
    if input.shape[1] != channels or weight.shape[0] % groups:
        raise TorchRuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
            f"input{list(input.shape)} to have {channels} channels, but got {input.shape[1]} "
            "channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise TorchRuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding, strict=True)]
    extent = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:], strict=True)]
    if any(e > n for e, n in zip(extent, padded, strict=True)):
        raise TorchRuntimeError(
            "Calculated padded input size per channel: (" + " x ".join(map(str, padded))
            + "). Kernel size: (" + " x ".join(map(str, extent)) + "). Kernel size can't be "
            "greater than actual input size")


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
           stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
           stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)
