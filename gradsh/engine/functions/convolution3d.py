"""The 3-D convolution node (ConvolutionBackward0 for conv3d): windows of the padded input
contracted with the weight per group, in the input's dtype through NumPy's products (values
within float32 rounding of PyTorch's, not its bits: oneDNN's blocking is not reproduced)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["Convolution3dBackward0"]

Triple = tuple[int, int, int]


def _taps(x: np.ndarray, offset: Triple, stride: Triple, dilation: Triple,
          out: Triple) -> np.ndarray:
    """x[..., the inputs kernel position `offset` sees at every output position]."""
    index = tuple(slice(k * d, k * d + s * (o - 1) + 1, s)
                  for k, s, d, o in zip(offset, stride, dilation, out, strict=True))
    return x[(Ellipsis,) + index]


class Convolution3dBackward0(Function):
    node_name = "ConvolutionBackward0"

    def forward(self, x: Tensor, w: Tensor, bias: Tensor, stride: Triple, padding: Triple,
                dilation: Triple, groups: int, has_bias: bool) -> Array:
        data, weight = x._data, w._data
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.x_shape = tuple(data.shape)
        padded = np.pad(data, [(0, 0), (0, 0)] + [(p, p) for p in padding])
        kernel = weight.shape[2:]
        out = tuple((n - d * (k - 1) - 1) // s + 1 for n, k, s, d in
                    zip(padded.shape[2:], kernel, stride, dilation, strict=True))
        self.out, self.kernel = out, kernel
        if self.needs_input_grad[0]:
            self.weight = weight
        if self.needs_input_grad[1]:
            self.padded = padded
        n, c = data.shape[:2]
        o = weight.shape[0]
        xg = padded.reshape((n, groups, c // groups) + padded.shape[2:])
        wg = weight.reshape((groups, o // groups) + weight.shape[1:])
        result = np.zeros((n, groups, o // groups) + out, dtype=data.dtype)
        with _quiet():
            for offset in itertools.product(*(range(k) for k in kernel)):
                taps = _taps(xg, offset, stride, dilation, out)  # (n, g, c/g, *out)
                result += np.einsum("ngcdhw,goc->ngodhw", taps, wg[(Ellipsis,) + offset])
        result = result.reshape((n, o) + out)
        if has_bias:
            result += bias._data.reshape(1, -1, 1, 1, 1)
        return np.ascontiguousarray(result)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of conv3d "
                                    "yet")
        need_x, need_w, need_b = self.needs_input_grad
        groups, kernel, out = self.groups, self.kernel, self.out
        n = grad.shape[0]
        o = grad.shape[1]
        gg = grad.reshape((n, groups, o // groups) + out)
        gx = gw = gb = None
        with _quiet():
            if need_x:
                c = self.x_shape[1]
                padded_shape = (n, groups, c // groups) + tuple(
                    s + 2 * p for s, p in zip(self.x_shape[2:], self.padding, strict=True))
                result = np.zeros(padded_shape, dtype=grad.dtype)
                wg = self.weight.reshape((groups, o // groups) + self.weight.shape[1:])
                for offset in itertools.product(*(range(k) for k in kernel)):
                    part = np.einsum("ngodhw,goc->ngcdhw", gg, wg[(Ellipsis,) + offset])
                    _taps(result, offset, self.stride, self.dilation, out)[...] += part
                result = result.reshape((n, c) + padded_shape[3:])
                crop = tuple(slice(p, p + s) for p, s in zip(self.padding, self.x_shape[2:],
                                                             strict=True))
                gx = np.ascontiguousarray(result[(Ellipsis,) + crop])
            if need_w:
                padded = self.padded
                c = padded.shape[1]
                xg = padded.reshape((n, groups, c // groups) + padded.shape[2:])
                gw = np.zeros((groups, o // groups, c // groups) + tuple(kernel),
                              dtype=grad.dtype)
                for offset in itertools.product(*(range(k) for k in kernel)):
                    taps = _taps(xg, offset, self.stride, self.dilation, out)
                    gw[(Ellipsis,) + offset] = np.einsum("ngodhw,ngcdhw->goc", gg, taps)
                gw = gw.reshape((o, c // groups) + tuple(kernel))
            if need_b:
                gb = grad.sum(axis=(0, 2, 3, 4))
        return gx, gw, gb
