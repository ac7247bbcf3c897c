"""The 3-D convolution node (ConvolutionBackward0 for conv3d): windows of the padded input
contracted with the weight per group, in the input's dtype through NumPy's products (values
within float32 rounding of PyTorch's, not its bits), except oneDNN's float32 forward of one
group, which vecmath/conv3d.py reproduces; a channels-last-3d input gives a channels-last-3d
output.
Its gradients are recorded under create_graph as ConvolutionBackwardBackward0 nodes (one per
gradient, as the 2-D ones in convolution.py)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.functions.common import _quiet, element_strides, laid_out
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import conv3d, layout

__all__ = ["Convolution3dBackward0"]

Triple = tuple[int, int, int]


@dataclass(frozen=True)
class Geometry3d:
    """A 3-D convolution's hyper-parameters."""

    stride: Triple
    padding: Triple
    dilation: Triple
    groups: int

    def out(self, x_shape: tuple[int, ...], kernel: tuple[int, ...]) -> Triple:
        return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, s, p, d in  # type: ignore
                     zip(x_shape[2:], kernel, self.stride, self.padding, self.dilation,
                         strict=True))


def _taps(x: np.ndarray, offset: Triple, stride: Triple, dilation: Triple,
          out: Triple) -> np.ndarray:
    """x[..., the inputs kernel position `offset` sees at every output position]."""
    index = tuple(slice(k * d, k * d + s * (o - 1) + 1, s)
                  for k, s, d, o in zip(offset, stride, dilation, out, strict=True))
    return x[(Ellipsis,) + index]


def _padded(data: Array, geo: Geometry3d) -> Array:
    return np.pad(data, [(0, 0), (0, 0)] + [(p, p) for p in geo.padding])


def conv3d_array(data: Array, weight: Array, geo: Geometry3d) -> Array:
    """The convolution without bias."""
    kernel = tuple(weight.shape[2:])
    out = geo.out(data.shape, kernel)
    padded = _padded(data, geo)
    n, c = data.shape[:2]
    o, groups = weight.shape[0], geo.groups
    xg = padded.reshape((n, groups, c // groups) + padded.shape[2:])
    wg = weight.reshape((groups, o // groups) + weight.shape[1:])
    result = np.zeros((n, groups, o // groups) + out, dtype=data.dtype)
    with _quiet():
        for offset in itertools.product(*(range(k) for k in kernel)):
            taps = _taps(xg, offset, geo.stride, geo.dilation, out)  # (n, g, c/g, *out)
            result += np.einsum("ngcdhw,goc->ngodhw", taps, wg[(Ellipsis,) + offset])
    return result.reshape((n, o) + out)


def conv3d_input_grad(grad: Array, weight: Array, x_shape: tuple[int, ...],
                      geo: Geometry3d) -> Array:
    """The gradient of conv3d_array with respect to its input."""
    kernel, out = tuple(weight.shape[2:]), tuple(grad.shape[2:])
    n, o, groups, c = grad.shape[0], grad.shape[1], geo.groups, x_shape[1]
    gg = grad.reshape((n, groups, o // groups) + out)
    padded_shape = (n, groups, c // groups) + tuple(
        s + 2 * p for s, p in zip(x_shape[2:], geo.padding, strict=True))
    result = np.zeros(padded_shape, dtype=grad.dtype)
    wg = weight.reshape((groups, o // groups) + weight.shape[1:])
    with _quiet():
        for offset in itertools.product(*(range(k) for k in kernel)):
            part = np.einsum("ngodhw,goc->ngcdhw", gg, wg[(Ellipsis,) + offset])
            _taps(result, offset, geo.stride, geo.dilation, out)[...] += part  # type: ignore
    result = result.reshape((n, c) + padded_shape[3:])
    crop = tuple(slice(p, p + s) for p, s in zip(geo.padding, x_shape[2:], strict=True))
    return np.ascontiguousarray(result[(Ellipsis,) + crop])


def conv3d_weight_grad(data: Array, grad: Array, w_shape: tuple[int, ...],
                       geo: Geometry3d) -> Array:
    """The gradient of conv3d_array with respect to its weight."""
    padded = _padded(data, geo)
    kernel, out = tuple(w_shape[2:]), tuple(grad.shape[2:])
    n, o, groups, c = grad.shape[0], grad.shape[1], geo.groups, padded.shape[1]
    gg = grad.reshape((n, groups, o // groups) + out)
    xg = padded.reshape((n, groups, c // groups) + padded.shape[2:])
    gw = np.zeros((groups, o // groups, c // groups) + kernel, dtype=grad.dtype)
    with _quiet():
        for offset in itertools.product(*(range(k) for k in kernel)):
            taps = _taps(xg, offset, geo.stride, geo.dilation, out)  # type: ignore
            gw[(Ellipsis,) + offset] = np.einsum("ngodhw,ngcdhw->goc", gg, taps)
    return gw.reshape((o, c // groups) + kernel)


def _onednn(x: Array, w: Array, bias: Array | None, geo: Geometry3d) -> bool:
    """Whether ATen runs oneDNN's float32 kernels that vecmath/conv3d.py follows: one group,
    not dilated, ConvParams::use_mkldnn."""
    return (x.__class__ is np.ndarray and x.dtype == np.float32 and w.dtype == np.float32
            and (bias is None or bias.dtype == np.float32) and geo.groups == 1
            and geo.dilation == (1, 1, 1)
            and conv3d.uses_onednn(x.shape, w.shape, geo.stride, geo.dilation, geo.groups,
                                   threads.torch_threads()))


class Convolution3dBackward0(Function):
    node_name = "ConvolutionBackward0"

    def forward(self, x: Tensor, w: Tensor, bias: Tensor, stride: Triple, padding: Triple,
                dilation: Triple, groups: int, has_bias: bool) -> Array:
        self.geo = Geometry3d(stride, padding, dilation, groups)
        self.x_shape, self.w_shape = tuple(x.shape), tuple(w.shape)
        if self.needs_input_grad[0]:
            self.save("weight", w)
        if self.needs_input_grad[1]:
            self.save("input", x)
        self.exact = _onednn(x._data, w._data, bias._data if has_bias else None, self.geo)
        self.channels_last = (self.exact and not x._data.flags.c_contiguous
                              and layout.is_channels_last(x.shape, element_strides(x._data)))
        result = (conv3d.forward(x._data, w._data, bias._data if has_bias else None,
                                 self.geo.padding, self.geo.stride, self.channels_last)
                  if self.exact else None)
        if result is not None:
            return result
        result = conv3d_array(x._data, w._data, self.geo)
        if has_bias:
            result += bias._data.reshape(1, -1, 1, 1, 1)
        return np.ascontiguousarray(result)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        gx = gw = gb = None
        if F.as_tensor:
            if need_x:
                gx = Conv3dInputGrad.apply(grad, self.saved("weight", F), geo=self.geo,
                                           x_shape=self.x_shape)
            if need_w:
                gw = Conv3dWeightGrad.apply(self.saved("input", F), grad, geo=self.geo,
                                            w_shape=self.w_shape)
            if need_b:
                gb = F.sum(grad, (0, 2, 3, 4), False)
            return gx, gw, gb
        if need_x:
            w = self.saved("weight", F)
            if self.exact and self.geo.stride == (1, 1, 1) and grad.dtype == np.float32:
                gx = conv3d.backward_data(grad, w, self.x_shape, self.geo.padding,
                                          self.channels_last)
            if gx is None:
                gx = conv3d_input_grad(grad, w, self.x_shape, self.geo)
        if need_w:
            gw = conv3d_weight_grad(self.saved("input", F), grad, self.w_shape, self.geo)
        if need_b:
            with _quiet():
                gb = grad.sum(axis=(0, 2, 3, 4))
        return gx, gw, gb


class Conv3dInputGrad(Function):
    """conv3d's input gradient as a differentiable op (create_graph): linear in the output
    gradient (its gradient is the convolution) and in the weight."""

    node_name = "ConvolutionBackwardBackward0"

    def forward(self, grad: Tensor, w: Tensor, geo: Geometry3d,
                x_shape: tuple[int, ...]) -> Array:
        self.save("grad", grad)
        self.save("weight", w)
        self.geo = geo
        return conv3d_input_grad(grad._data, w._data, x_shape, geo)

    def backward(self, F: Any, h: Any) -> tuple[Any, ...]:
        need_g, need_w = self.needs_input_grad
        grad, w = self.saved("grad", F), self.saved("weight", F)
        if F.as_tensor:
            zeros = F.zeros((0,), w)  # no bias
            gg = Convolution3dBackward0.apply(
                h, w, zeros, stride=self.geo.stride, padding=self.geo.padding,
                dilation=self.geo.dilation, groups=self.geo.groups,
                has_bias=False) if need_g else None
            gw = Conv3dWeightGrad.apply(h, grad, geo=self.geo,
                                        w_shape=tuple(w.shape)) if need_w else None
            return gg, gw
        gg = conv3d_array(h, w, self.geo) if need_g else None
        gw = conv3d_weight_grad(h, grad, w.shape, self.geo) if need_w else None
        return gg, gw


class Conv3dWeightGrad(Function):
    """conv3d's weight gradient as a differentiable op (create_graph)."""

    node_name = "ConvolutionBackwardBackward0"

    def forward(self, x: Tensor, grad: Tensor, geo: Geometry3d,
                w_shape: tuple[int, ...]) -> Array:
        self.save("input", x)
        self.save("grad", grad)
        self.geo = geo
        return conv3d_weight_grad(x._data, grad._data, w_shape, geo)

    def backward(self, F: Any, h: Any) -> tuple[Any, ...]:
        need_x, need_g = self.needs_input_grad
        x, grad = self.saved("input", F), self.saved("grad", F)
        if F.as_tensor:
            zeros = F.zeros((0,), x)
            gx = Conv3dInputGrad.apply(grad, h, geo=self.geo,
                                       x_shape=tuple(x.shape)) if need_x else None
            gg = Convolution3dBackward0.apply(
                x, h, zeros, stride=self.geo.stride, padding=self.geo.padding,
                dilation=self.geo.dilation, groups=self.geo.groups,
                has_bias=False) if need_g else None
            return gx, gg
        gx = conv3d_input_grad(grad, h, x.shape, self.geo) if need_x else None
        gg = conv3d_array(x, h, self.geo) if need_g else None
        return gx, gg


laid_out("suggested")(Convolution3dBackward0)  # (channels-last-3d in, channels-last-3d out)
