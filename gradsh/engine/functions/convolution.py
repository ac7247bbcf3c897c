"""Nodes of the convolutions (ConvolutionBackward0 and its double backward) by im2col: a strided
window view of the padded input copied into columns and multiplied with BLAS; the backward
scatters columns back with one strided add per kernel position, never a Python loop over
pixels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from gradsh.engine import limits, threads
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import element_strides, laid_out, xp_of
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import (blas, conv, conv_gemm, conv_nhwc, conv_slow, conv_slow_cl,
                                   conv_split, conv_transpose_slow, half_gemm, layout)

__all__ = ["ConvolutionBackward0", "ConvInputGrad", "ConvWeightGrad",
           "ConvolutionTransposeBackward0"]

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


def _columns(x: Array, kernel: Pair, geo: ConvGeometry) -> tuple[Array, Pair]:
    """im2col: (N, C*kh*kw, OH*OW), each kernel position's inputs in a row per sample, and
    (OH, OW). The copy reads the strided window view row by row (contiguous runs of OW)."""
    xp = xp_of(x)
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
    limits.check((n, c * kh * kw, oh * ow), x.dtype.itemsize)  # the copy below
    cols = windows.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, oh * ow)
    return cols, (oh, ow)


def _grouped(weights: Array, groups: int) -> Array:
    """(O, K) weights as (groups, O/groups, K)."""
    return weights.reshape(groups, weights.shape[0] // groups, weights.shape[1])


def conv_forward(x: Array, w: Array, geo: ConvGeometry) -> Array:
    """y[n, o] = sum over the window of x * w[o], as an (N, O, OH, OW) C-ordered array: one
    (O x K) @ (K x OH*OW) product per sample (per group)."""
    xp = xp_of(x)
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
    xp = xp_of(grad)
    n, o = grad.shape[0], w.shape[0]
    g = geo.groups
    rows = grad.reshape(n, o, -1)
    weights = w.reshape(o, -1)
    if g == 1:
        cols = xp.matmul(weights.T, rows)
    else:
        grouped = _grouped(weights, g).transpose(0, 2, 1)
        cols = xp.matmul(grouped, rows.reshape(n, g, o // g, rows.shape[2]))
    return _col2im(cols, x_shape, w.shape, grad.shape[2:], geo)


def _col2im(cols: Array, x_shape: tuple[int, ...], w_shape: tuple[int, ...],
            out: tuple[int, ...], geo: ConvGeometry) -> Array:
    """The columns (N, C*kh*kw, OH*OW) added into a zeroed padded input in the order of
    ATen's unfolded2d_acc (kernel rows, then kernel columns), the padding cut off."""
    xp = xp_of(cols)
    n, c, h, width = x_shape
    kh, kw = w_shape[2], w_shape[3]
    oh, ow = out
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
    xp = xp_of(x)
    n, o, g = x.shape[0], w_shape[0], geo.groups
    cols, _ = _columns(x, (w_shape[2], w_shape[3]), geo)
    if x.dtype == np.float16 and g == 1 and xp is np:
        # slow_conv2d's backward on float16: per sample, the weight gradient (float16) plus
        # that sample's products through fp16_dot_with_fp32_arith (gemm_transa_), rounded
        # (measured: 930 elements of 20 random convolutions equal)
        total = np.zeros((o, cols.shape[1]), np.float32)
        for sample, rows in zip(cols, grad.reshape(n, o, -1), strict=True):
            total = (total + half_gemm.dot_fp32_arith(rows, sample.T)).astype(np.float16)
            total = total.astype(np.float32)
        return total.astype(np.float16).reshape(w_shape)
    rows = grad.reshape(n, g, o // g, -1)
    cols = cols.reshape(n, g, -1, cols.shape[2])
    # one (O x P) @ (P x K) product per sample, summed: BLAS reads the transposed columns in
    # place (a tensordot would copy both operands first)
    flat = xp.matmul(rows, cols.swapaxes(-1, -2)).sum(axis=0)
    return flat.reshape(w_shape)


def _exact_forward(x: Array, w: Array, bias: Array | None, geo: ConvGeometry,
                   channels_last: bool = False) -> Array | None:
    """PyTorch's float32 bits (vecmath/conv.py: oneDNN's direct kernel, or slow_conv2d's MKL
    product for a small single sample) when gradsh reproduces them within the time bound."""
    if x.__class__ is not np.ndarray or w.dtype != x.dtype or (
            bias is not None and bias.dtype != x.dtype):
        return None
    if x.dtype == np.float64:  # oneDNN has no float64: slow_conv2d, through MKL's dgemm
        if not blas.available():
            return None
        if geo.groups == 1:
            return _slow_forward(x, w, bias, geo, channels_last)
        # each group a convolution of its own on contiguous copies, the outputs concatenated
        parts = zip(_group_parts(x, 1, geo.groups), _group_parts(w, 0, geo.groups),
                    _group_parts(bias, 0, geo.groups), strict=True)
        return np.concatenate([_slow_forward(xg, wg, bg, geo) for xg, wg, bg in parts], axis=1)
    if x.dtype == np.float16 and geo.groups == 1 and not channels_last:
        return _half_slow_forward(x, w, bias, geo)
    if x.dtype != np.float32:
        return None
    if geo.groups > 1:
        return _exact_grouped_forward(x, w, bias, geo)
    if conv.uses_onednn(x.shape, w.shape, geo.stride, geo.dilation, geo.groups,
                        threads.torch_threads()):
        if _nhwc(geo, channels_last):
            return conv_nhwc.forward(x, w, bias, geo.padding, geo.stride)
        return conv.onednn_forward(x, w, bias, geo.padding, geo.stride, geo.dilation,
                                   threads.torch_threads())
    return _slow_forward(x, w, bias, geo, channels_last)


def _slow_forward(x: Array, w: Array, bias: Array | None, geo: ConvGeometry,
                  channels_last: bool = False) -> Array | None:
    """slow_conv2d: per sample, the weight matrix times its im2col columns (channels-last
    data: its channels-last products, vecmath/conv_slow_cl.py)."""
    kernel = (w.shape[2], w.shape[3])
    if _slow_channels_last(x, w, geo, channels_last):
        cols = conv_slow_cl.columns(x, kernel, geo.padding, geo.stride)
        return conv_slow_cl.forward(cols, w, bias, geo.out_size(x.shape[2], x.shape[3], kernel))
    cols, (oh, ow) = _columns(x, kernel, geo)
    if conv_slow.available(x, w):
        return conv_slow.forward(cols, w, bias).reshape(x.shape[0], w.shape[0], oh, ow)
    outputs = []
    for sample in cols:
        out = conv.slow_forward(np.ascontiguousarray(sample), w, bias)
        if out is None:
            return None
        outputs.append(out)
    return np.stack(outputs).reshape(x.shape[0], w.shape[0], oh, ow)


def _half_slow_forward(x: Array, w: Array, bias: Array | None, geo: ConvGeometry) -> Array:
    """slow_conv2d on float16 (oneDNN takes float16 only with AVX512-FP16): the output filled
    with the bias, then ATen's reduced-float gemm_notrans_ per sample, each dot through sum()'s
    four partial sums and bias + dot rounded once (measured: every element of 30 random
    convolutions equal; adding a rounded product to the bias differed in 1 of 4)."""
    cols, (oh, ow) = _columns(x, (w.shape[2], w.shape[3]), geo)
    weights = w.reshape(w.shape[0], -1)
    out = np.empty((x.shape[0], w.shape[0], oh * ow), np.float16)
    for i, sample in enumerate(cols):
        wide = half_gemm.ilp4_product(weights, sample)
        if bias is not None:
            wide += bias.astype(np.float32)[:, None]
        out[i] = wide
    return out.reshape(x.shape[0], w.shape[0], oh, ow)


def _slow_channels_last(x: Array, w: Array, geo: ConvGeometry, channels_last: bool) -> bool:
    """thnn_conv_use_channels_last for one group (not dilated), MKL loaded."""
    return (channels_last and geo.groups == 1 and geo.dilation == (1, 1)
            and conv_slow.available(x, w))


def _depthwise(x_shape: tuple[int, ...], w_shape: tuple[int, ...], geo: ConvGeometry) -> bool:
    """One filter per channel, no dilation: oneDNN's depthwise kernels."""
    return (geo.groups > 1 and w_shape[1] == 1 and w_shape[0] == geo.groups == x_shape[1]
            and geo.dilation == (1, 1))


def _channels_last(*arrays: Array) -> bool:
    """mkldnn_conv_use_channels_last: the input or the weight suggests channels-last (a
    channels-last, not contiguous 4-D array), so oneDNN runs on NHWC data."""
    return any(a.__class__ is np.ndarray and a.ndim == 4 and not a.flags.c_contiguous
               and layout.is_channels_last(a.shape, element_strides(a)) for a in arrays)


def _nhwc(geo: ConvGeometry, channels_last: bool) -> bool:
    """Whether oneDNN runs this one-group float32 convolution (channels-last data) through its
    brgemm kernels that vecmath/conv_nhwc.py follows (forward and input gradient; 1x1 ones
    too, brgconv_1x1: the same single chain): not dilated."""
    return channels_last and geo.dilation == (1, 1)


def _whole_blocks(w_shape: tuple[int, ...], groups: int) -> bool:
    """Whether a group's input and output channels are whole blocks of 8, where oneDNN's
    per-group weight gradient is each group's as a convolution of its own."""
    return w_shape[1] % 8 == 0 and (w_shape[0] // groups) % 8 == 0


def _group_block(w_shape: tuple[int, ...], groups: int) -> int | None:
    """oneDNN's channel block for a grouped convolution: the largest of 16, 8 and 4 dividing
    a group's input and output channels; each group then runs as a convolution of its own with
    its summed channels in blocks of that size (forward: the input channels; backward data,
    strides of 1: the output channels). Found by probing torch ((8, 4) channels a group: two
    chains of 4; (24, 8): three of 8). None: another kernel, not found yet."""
    for block in (16, 8, 4):
        if w_shape[1] % block == 0 and (w_shape[0] // groups) % block == 0:
            return block
    return None


def _exact_grouped_forward(x: Array, w: Array, bias: Array | None,
                           geo: ConvGeometry) -> Array | None:
    """oneDNN's grouped forward: the depthwise kernel, or each group as a convolution of its
    own (found by probing torch); None where a group's emulation is over the bound."""
    if _depthwise(x.shape, w.shape, geo):
        # the chain from 0 and the bias after it: NHWC's brdgmm_dw kernel, or the gemm-based
        # convolution where the NCHW depthwise kernel declines
        after = _channels_last(x, w) or not conv_split.dw_forward_takes(
            x.shape, (w.shape[2], w.shape[3]), geo.padding, geo.stride)
        return conv.depthwise_forward(x, w, bias, geo.padding, geo.stride, bias_after=after)
    block = _group_block(w.shape, geo.groups)
    if block is None:
        return None
    g = geo.groups
    c, o = x.shape[1] // g, w.shape[0] // g
    out_size = geo.out_size(x.shape[2], x.shape[3], (w.shape[2], w.shape[3]))
    # a 1x1 kernel that ATen keeps from oneDNN: its own chains, the bias added after them
    slow_1x1 = (not conv.uses_onednn(x.shape, w.shape, geo.stride, geo.dilation, g,
                                     threads.torch_threads())
                and conv.pointwise(x.shape, w.shape, geo.padding, geo.stride, out_size))
    outputs = []
    for i in range(g):
        xi = np.ascontiguousarray(x[:, i * c:(i + 1) * c])
        wi = np.ascontiguousarray(w[i * o:(i + 1) * o])
        part = None if bias is None else bias[i * o:(i + 1) * o]
        if slow_1x1:
            out = conv.slow_pointwise_forward(xi, wi, geo.stride)
            if out is not None and part is not None:
                out = out + part[:, None, None]
        else:  # oneDNN's direct kernel, even for a 1x1 kernel (its 1x1 ones take no groups)
            out = conv.onednn_forward(xi, wi, part, geo.padding, geo.stride, geo.dilation,
                                      threads.torch_threads(), kernel_1x1=False,
                                      ic_block=block)
        if out is None:
            return None
        outputs.append(out)
    return np.concatenate(outputs, axis=1)


def bias_gradient(grad: Array, axes: tuple[int, ...]) -> Array:
    """A convolution's bias gradient where no kernel of PyTorch's is emulated: the sum of
    grad over `axes`; half-precision (bfloat16, float16) gradients accumulate in float32 and
    round once, as oneDNN's and at::sum's reductions do (a sum in the dtype itself stalls:
    bfloat16 stops growing at 4 when adding 0.01s)."""
    if grad.dtype == np.float16 or str(grad.dtype) == "bfloat16":
        return grad.sum(axis=axes, dtype=np.float32).astype(grad.dtype)
    return grad.sum(axis=axes)


def _as_2d(array: Array, one_d: bool) -> Array:
    return array[:, :, None, :] if one_d else array


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
        self.channels_last = _channels_last(x._data, w._data)
        self.x_shape, self.w_shape = tuple(x.shape), tuple(w.shape)
        x2, w2 = _as_2d(x._data, self.one_d), _as_2d(w._data, self.one_d)
        # (channels-last: of the 4-D arrays given; a 1-D convolution's input is made
        # contiguous)
        y = _exact_forward(x2, w2, bias._data if has_bias else None, geo, self.channels_last)
        if y is None:
            y = conv_forward(x2, w2, geo)
            if has_bias:
                y += bias._data.reshape(1, -1, 1, 1)
        return y[:, :, 0, :] if self.one_d else y

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        x = self.saved("input", F) if need_w else None
        w = self.saved("weight", F) if need_x else None
        if F.as_tensor:
            # (create_graph: differentiable nodes whose values are the kernels' below, as
            # PyTorch's convolution_backward gives the same values either way)
            gx_value, gw_value, _ = self._array_backward(
                grad._data, None if x is None else x._data, None if w is None else w._data)
            gx = ConvInputGrad.apply(grad, w, geo=self.geo, x_shape=self.x_shape,
                                     value=gx_value) if need_x else None
            gw = ConvWeightGrad.apply(x, grad, geo=self.geo, w_shape=self.w_shape,
                                      value=gw_value) if need_w else None
            gb = F.sum(grad, (0, 2) if self.one_d else (0, 2, 3), False) if need_b else None
            return gx, gw, gb
        return self._array_backward(grad, x, w)

    def _array_backward(self, grad: Array, x_saved: Array | None, w_saved: Array | None
                        ) -> tuple[Array | None, Array | None, Array | None]:
        """The gradients as PyTorch's kernels compute them, from arrays (the saved input and
        weight where their gradients' partners are needed)."""
        need_x, need_w, need_b = self.needs_input_grad
        gx = gw = gb = None
        if grad.size == 0:  # an empty batch: zero gradients (the kernels below index samples)
            zeros = xp_of(grad).zeros
            return (zeros(self.x_shape, grad.dtype) if need_x else None,
                    zeros(self.w_shape, grad.dtype) if need_w else None,
                    zeros((self.w_shape[0],), grad.dtype) if need_b else None)
        g = _as_2d(grad, self.one_d)
        geo = self.geo
        x_shape, w_shape = _shape_2d(self.x_shape), _shape_2d(self.w_shape)
        # PyTorch's float32 kernels: oneDNN's, or slow_conv2d's (ATen's im2col and MKL)
        float32 = g.__class__ is np.ndarray and g.dtype == np.float32
        n_threads = threads.torch_threads()
        # (any number of groups: oneDNN's kernels or PyTorch's own)
        by_onednn = float32 and conv.uses_onednn(x_shape, w_shape, geo.stride, geo.dilation,
                                                 geo.groups, n_threads)
        known = float32 and geo.groups == 1
        onednn = known and by_onednn
        exact = onednn and conv.backward_known(geo.stride, geo.dilation)
        # channels-last data: oneDNN's brgemm kernels (vecmath/conv_nhwc.py)
        nhwc = onednn and _nhwc(geo, self.channels_last)
        # (a dilated single sample is slow_conv_dilated2d's, another kernel: NumPy's then);
        # float64 always slow_conv2d's (oneDNN has no float64; its products MKL's dgemm)
        double = (g.__class__ is np.ndarray and g.dtype == np.float64
                  and geo.dilation == (1, 1) and blas.available())
        if (known and not onednn and geo.dilation == (1, 1)) or double:
            x = _as_2d(x_saved, self.one_d) if need_w else None
            w = _as_2d(w_saved, self.one_d) if need_x else None
            if _slow_channels_last(g, g, geo, self.channels_last):
                gx, gw, gb = _slow_channels_last_gradients(g, x, w, x_shape, w_shape, geo,
                                                           need_b)
            else:
                gx, gw, gb = _slow_gradients(g, x, w, x_shape, w_shape, geo, need_b)
            if self.one_d:
                gx = None if gx is None else gx[:, :, 0, :]
                gw = None if gw is None else gw[:, :, 0, :]
            return gx, gw, gb
        # a depthwise convolution's input gradient: oneDNN's depthwise kernel
        depthwise = float32 and _depthwise(x_shape, w_shape, geo)
        # its weight and bias gradients where that kernel declines (NCHW): the gemm-based one
        dw_declines = depthwise and conv_split.dw_bwd_weights_threads(
            x_shape, w_shape[2:], geo.padding, geo.stride, n_threads) is None
        dw_gemm = dw_declines and not self.channels_last
        # channels-last grouped ones (depthwise where that kernel declines): jit:avx512_core's
        # NHWC weight gradient per group, the bias one chain a channel
        grouped_nhwc = (by_onednn and geo.groups > 1 and self.channels_last
                        and geo.dilation == (1, 1) and (not depthwise or dw_declines)
                        and conv_nhwc.grouped_weights_known(x_shape, w_shape, geo.groups,
                                                            geo.padding, geo.stride, n_threads))
        # other grouped ones (whole blocks of channels): each group's gradients as a
        # convolution's of its own (found by probing torch; a strided one's input gradient is
        # another order: NumPy's then)
        block = _group_block(w_shape, geo.groups) if geo.groups > 1 else None
        grouped = (by_onednn and block is not None
                   and conv.backward_known(geo.stride, geo.dilation))
        if need_x:
            w = _as_2d(w_saved, self.one_d)
            if depthwise and w.dtype == np.float32:
                gx = conv.depthwise_backward_data(g, w, x_shape, geo.padding, geo.stride)
            elif nhwc and w.dtype == np.float32:
                gx = conv_nhwc.backward_data(g, w, x_shape, geo.padding, geo.stride,
                                             n_threads)
            elif exact and w.dtype == np.float32:
                gx = conv.onednn_backward_data(g, w, x_shape, geo.padding, geo.stride,
                                               geo.dilation, n_threads)
            elif grouped and geo.stride == (1, 1) and w.dtype == np.float32:
                gx = _per_group(conv.onednn_backward_data, g, w, x_shape, geo, 1, block)
            if gx is None:
                gx = conv_backward_input(g, w, x_shape, geo)
            gx = gx[:, :, 0, :] if self.one_d else gx
        if need_w:
            x = _as_2d(x_saved, self.one_d)
            if grouped_nhwc and x.dtype == np.float32:
                gw = conv_nhwc.grouped_backward_weights(x, g, w_shape, geo.groups, geo.padding,
                                                        geo.stride)
            elif dw_gemm and x.dtype == np.float32:
                gw = conv_gemm.depthwise_backward_weights(x, g, w_shape[2:], geo.padding,
                                                          geo.stride)
            elif depthwise and x.dtype == np.float32:
                gw = conv.depthwise_backward_weights(x, g, w_shape[2:], geo.padding, geo.stride,
                                                     n_threads)
            elif nhwc and x.dtype == np.float32 and conv_nhwc.weights_known(
                    x_shape, w_shape, geo.padding, geo.stride):
                gw = conv_nhwc.backward_weights(x, g, w_shape, geo.padding, geo.stride,
                                                n_threads)
            elif exact and x.dtype == np.float32:
                gw = conv.onednn_backward_weights(x, g, w_shape, geo.padding, geo.stride,
                                                  geo.dilation, n_threads)
            elif grouped and _whole_blocks(w_shape, geo.groups) and x.dtype == np.float32:
                gw = _per_group(conv.onednn_backward_weights, x, g, w_shape, geo, 0)
            if gw is None:
                gw = conv_backward_weight(x, g, w_shape, geo)
            gw = gw[:, :, 0, :] if self.one_d else gw
        if need_b:
            if nhwc and conv_nhwc.weights_known(x_shape, w_shape, geo.padding, geo.stride):
                gb = conv.onednn_backward_bias(g, conv_nhwc.bias_spans(
                    x_shape, w_shape, geo.padding, geo.stride, n_threads))
            elif exact:
                gb = conv.onednn_backward_bias(g, conv.bias_spans(
                    x_shape, w_shape, geo.padding, geo.stride, geo.dilation,
                    n_threads))
            elif grouped_nhwc or (grouped and _whole_blocks(w_shape, geo.groups)):
                gb = conv.onednn_backward_bias(g)  # (each group its own thread: no split)
            elif dw_gemm or (by_onednn and geo.groups >= max(2, n_threads)
                             and not depthwise and not self.channels_last
                             and not _whole_blocks(w_shape, geo.groups)):
                # (other grouped NCHW ones: oneDNN's gemm-based backward weights, x64:gemm:jit,
                # each group one thread's)
                gb = conv_gemm.backward_bias(g)
            elif depthwise and (spans := conv.depthwise_bias_spans(
                    x_shape, w_shape[2:], geo.padding, geo.stride, n_threads)):
                gb = conv.onednn_backward_bias(g, spans)  # (with the depthwise kernel's weights)
            else:
                gb = bias_gradient(g, (0, 2, 3))
        return gx, gw, gb


def _group_parts(a: Array | None, axis: int, groups: int) -> list[Array | None]:
    """ATen's subtensor: each group's slice of `a` along `axis`, a contiguous copy (one group:
    `a` itself)."""
    if a is None or groups == 1:
        return [a] * groups
    return [np.ascontiguousarray(part) for part in np.split(a, groups, axis=axis)]


def _slow_gradients(g: Array, x: Array | None, w: Array | None, x_shape: tuple[int, ...],
                    w_shape: tuple[int, ...], geo: ConvGeometry, need_b: bool
                    ) -> tuple[Array | None, Array | None, Array | None]:
    """slow_conv2d's gradients (input where `w` is given, weight where `x` is, bias): per
    group (convolution_backward's loop over subtensors), each the MKL products of
    vecmath/conv_slow.py (or sgemm.py's emulation), col2im, and at::sum for the bias; NumPy's
    where over the emulation's bound."""
    groups = geo.groups
    one = ConvGeometry(geo.stride, geo.padding, geo.dilation, 1)
    x_group = (x_shape[0], x_shape[1] // groups, *x_shape[2:])
    w_group = (w_shape[0] // groups, *w_shape[1:])
    found: list[list[Array]] = [[], [], []]
    for gg, xg, wg in zip(_group_parts(g, 1, groups), _group_parts(x, 1, groups),
                          _group_parts(w, 0, groups), strict=True):
        if wg is not None:
            cols = (conv_slow.backward_columns(gg, wg) if conv_slow.available(gg, wg)
                    else conv.slow_backward_columns(gg, wg))
            found[0].append(conv_backward_input(gg, wg, x_group, one) if cols is None
                            else _col2im(cols, x_group, w_group, gg.shape[2:], one))
        if xg is not None:
            cols = _columns(xg, (w_shape[2], w_shape[3]), one)[0]
            gw = (conv_slow.backward_weights(cols, gg) if conv_slow.available(gg, xg)
                  else conv.slow_backward_weights(cols, gg))
            found[1].append(conv_backward_weight(xg, gg, w_group, one) if gw is None
                            else gw.reshape(w_group))
        if need_b:  # slow_conv2d's grad_bias is at::sum over (N, H, W)
            found[2].append(torch_sum(gg, (0, 2, 3), False, gg.dtype.type))
    return (np.concatenate(found[0], axis=1) if found[0] else None,
            np.concatenate(found[1], axis=0) if found[1] else None,
            np.concatenate(found[2]) if found[2] else None)


def _slow_channels_last_gradients(g: Array, x: Array | None, w: Array | None,
                                  x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                                  geo: ConvGeometry, need_b: bool
                                  ) -> tuple[Array | None, Array | None, Array | None]:
    """slow_conv2d's channels-last gradients (one group): vecmath/conv_slow_cl.py's MKL
    products and its window adds, at::sum for the bias."""
    gx = None if w is None else conv_slow_cl.backward_input(g, w, x_shape, geo.padding,
                                                            geo.stride)
    gw = None
    if x is not None:
        cols = conv_slow_cl.columns(x, w_shape[2:], geo.padding, geo.stride)
        gw = conv_slow_cl.backward_weights(cols, g, w_shape)
    gb = torch_sum(g, (0, 2, 3), False, g.dtype.type) if need_b else None
    return gx, gw, gb


def _per_group(kernel: Any, a: Array, b: Array, shape: tuple[int, ...], geo: ConvGeometry,
               axis: int, block: int | None = None) -> Array | None:
    """A oneDNN backward kernel (data: a = output gradient, b = weight; weights: a = input,
    b = output gradient) run on each group's channels, the results joined along `axis` (the
    result shape's channels); None where a group's is over the bound."""
    g = geo.groups
    parts = []
    for i in range(g):
        def own(array: Array, channels: int) -> Array:
            size = array.shape[channels] // g
            index = [slice(None)] * array.ndim
            index[channels] = slice(i * size, (i + 1) * size)
            return np.ascontiguousarray(array[tuple(index)])

        if axis == 1:  # data: (output gradient, weight) -> the input's group
            group_shape = (shape[0], shape[1] // g, *shape[2:])
            part = kernel(own(a, 1), own(b, 0), group_shape, geo.padding, geo.stride,
                          geo.dilation, kernel_1x1=False, block=block or conv.IC_BLOCK)
        else:  # weights: (input, output gradient) -> the weight's group
            group_shape = (shape[0] // g, *shape[1:])
            part = kernel(own(a, 1), own(b, 1), group_shape, geo.padding, geo.stride,
                          geo.dilation, kernel_1x1=False)
        if part is None:
            return None
        parts.append(part)
    return np.concatenate(parts, axis=axis)


def _shape_2d(shape: tuple[int, ...]) -> tuple[int, ...]:
    return shape if len(shape) == 4 else (shape[0], shape[1], 1, shape[2])


class ConvInputGrad(Function):
    """The input gradient of a convolution as a differentiable op (create_graph): linear in the
    output gradient (whose gradient is the convolution itself) and in the weight."""

    node_name = "ConvolutionBackwardBackward0"

    def forward(self, grad: Tensor, w: Tensor, geo: ConvGeometry,
                x_shape: tuple[int, ...], value: Array | None = None) -> Array:
        self.save("grad", grad)
        self.save("weight", w)
        self.geo, self.one_d = geo, len(x_shape) == 3
        if value is not None:  # computed by the caller's kernels
            return value
        gx = conv_backward_input(_as_2d(grad._data, self.one_d), _as_2d(w._data, self.one_d),
                                 _shape_2d(x_shape), geo)
        return gx[:, :, 0, :] if self.one_d else gx

    def backward(self, F: Any, h: Any) -> tuple[Any, ...]:
        need_g, need_w = self.needs_input_grad
        grad, w = self.saved("grad", F), self.saved("weight", F)
        if F.as_tensor:
            zeros = F.zeros((0,), w)  # no bias
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
                w_shape: tuple[int, ...], value: Array | None = None) -> Array:
        self.save("input", x)
        self.save("grad", grad)
        self.geo, self.one_d = geo, x.ndim == 3
        if value is not None:  # computed by the caller's kernels
            return value
        gw = conv_backward_weight(_as_2d(x._data, self.one_d), _as_2d(grad._data, self.one_d),
                                  _shape_2d(w_shape), geo)
        return gw[:, :, 0, :] if self.one_d else gw

    def backward(self, F: Any, h: Any) -> tuple[Any, ...]:
        need_x, need_g = self.needs_input_grad
        x, grad = self.saved("input", F), self.saved("grad", F)
        if F.as_tensor:
            zeros = F.zeros((0,), x)  # no bias
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


class ConvolutionTransposeBackward0(Function):
    """conv_transpose(input, weight, bias): the convolution's input gradient as a forward
    (weight (C_in, C_out/groups, kh, kw)); PyTorch names its node ConvolutionBackward0 too.
    Its input gradient is the convolution of the output gradient, its weight gradient the
    convolution's weight gradient with the roles of input and output swapped."""

    node_name = "ConvolutionBackward0"

    def forward(self, x: Tensor, w: Tensor, bias: Tensor, geo: ConvGeometry, has_bias: bool,
                out_shape: tuple[int, ...]) -> Array:
        need_x, need_w, _ = self.needs_input_grad
        if need_w:
            self.save("input", x)
        if need_x:
            self.save("weight", w)
        self.geo, self.one_d = geo, x.ndim == 3
        self.w_shape = tuple(w.shape)
        x2, w2 = _as_2d(x._data, self.one_d), _as_2d(w._data, self.one_d)
        self.exact = _transpose_exact(x2, w2, geo)
        self.channels_last = _channels_last(x._data, w._data)
        # float64 (one group, contiguous): slow_conv_transpose2d's gemm and col2im
        self.slow = (not self.exact and not self.channels_last and geo.groups == 1
                     and x2.__class__ is np.ndarray and x2.dtype == np.float64
                     and w2.dtype == np.float64 and conv_slow.available(x2))
        self.x_shape = tuple(x2.shape)
        y = None
        if self.slow:
            y = conv_transpose_slow.forward(x2, w2, _shape_2d(out_shape)[-2:], geo.stride,
                                            geo.padding, geo.dilation)
        if self.exact and self.channels_last:  # (the brgemm kernels' backward data)
            y = conv_nhwc.backward_data(x2, w2, _shape_2d(out_shape), geo.padding, geo.stride,
                                        threads.torch_threads())
        if self.exact and y is None:
            # oneDNN's deconvolution is its convolution's backward-data kernel, the bias after
            y = conv.onednn_backward_data(x2, w2, _shape_2d(out_shape), geo.padding, geo.stride,
                                          geo.dilation, threads.torch_threads())
        if y is None:
            y = conv_backward_input(x2, w2, _shape_2d(out_shape), geo)
        if has_bias:
            y = y + bias._data.reshape(1, -1, 1, 1)
        return y[:, :, 0, :] if self.one_d else y

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        gx = gw = gb = None
        dims = (0, 2) if self.one_d else (0, 2, 3)
        if F.as_tensor:
            if need_x:
                w = self.saved("weight", F)
                gx = ConvolutionBackward0.apply(grad, w, F.zeros((0,), w), geo=self.geo,
                                                has_bias=False)
            if need_w:
                gw = ConvWeightGrad.apply(grad, self.saved("input", F), geo=self.geo,
                                          w_shape=self.w_shape)
            if need_b:
                gb = F.sum(grad, dims, False)
            return gx, gw, gb
        g = _as_2d(grad, self.one_d)
        geo = self.geo
        # oneDNN's: the input gradient by its forward kernel, the weight's by its weight kernel
        # with input and output swapped
        exact = self.exact and g.__class__ is np.ndarray and g.dtype == np.float32
        slow = self.slow and g.__class__ is np.ndarray and g.dtype == np.float64
        if need_x:
            w = _as_2d(self.saved("weight", F), self.one_d)
            if slow:
                gx = conv_transpose_slow.backward_input(g, w, self.x_shape, geo.stride,
                                                        geo.padding, geo.dilation)
            elif exact and self.channels_last:
                gx = conv_nhwc.forward(g, w, None, geo.padding, geo.stride)
            elif exact:
                gx = conv.onednn_forward(g, w, None, geo.padding, geo.stride, geo.dilation,
                                         threads.torch_threads())
            if gx is None:
                gx = conv_forward(g, w, geo)
            gx = gx[:, :, 0, :] if self.one_d else gx
        if need_w:
            x = _as_2d(self.saved("input", F), self.one_d)
            w_shape = _shape_2d(self.w_shape)
            if slow:
                gw = conv_transpose_slow.backward_weight(g, x, w_shape, geo.stride,
                                                         geo.padding, geo.dilation)
            elif exact and self.channels_last and conv_nhwc.weights_known(
                    g.shape, w_shape, geo.padding, geo.stride):
                gw = conv_nhwc.backward_weights(g, x, w_shape, geo.padding, geo.stride,
                                                threads.torch_threads())
            elif exact:
                gw = conv.onednn_backward_weights(g, x, w_shape, geo.padding, geo.stride,
                                                  geo.dilation, threads.torch_threads())
            if gw is None:
                gw = conv_backward_weight(g, x, w_shape, geo)
            gw = gw[:, :, 0, :] if self.one_d else gw
        if need_b:
            if slow:  # (at::sum over the batch and the pixels)
                gb = torch_sum(g, (0, 2, 3), False, g.dtype)
            else:
                gb = (conv.deconv_backward_bias(g, self.channels_last) if exact
                      else bias_gradient(g, (0, 2, 3)))
        return gx, gw, gb


def _transpose_exact(x: Array, w: Array, geo: ConvGeometry) -> bool:
    """Whether a transposed convolution runs oneDNN's kernels that vecmath/conv.py
    reproduces: float32, one group, not dilated (its weight gradient differs), and
    ConvParams::use_mkldnn (else slow_conv_transpose2d: NumPy's products)."""
    return (x.__class__ is np.ndarray and x.dtype == np.float32 and w.dtype == np.float32
            and geo.groups == 1 and geo.dilation == (1, 1)
            and conv.uses_onednn(x.shape, w.shape, geo.stride, geo.dilation, geo.groups,
                                 threads.torch_threads()))


laid_out("suggested")(ConvolutionBackward0)  # (channels-last in, channels-last out)
laid_out("suggested")(ConvolutionTransposeBackward0)
