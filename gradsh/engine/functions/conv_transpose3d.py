"""The 3-D transposed convolution node (ConvolutionBackward0 for conv_transpose3d): the input
gradient of the 3-D convolution whose weight it shares (convolution3d.py), in the input's dtype
through NumPy's products (values within float32 rounding of PyTorch's, not its bits, as conv3d).
Its gradients are the convolution of the output gradient (the input's) and the convolution's
weight gradient with the roles of input and output gradient swapped (the weight's)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.convolution3d import (
    Conv3dWeightGrad,
    Convolution3dBackward0,
    Geometry3d,
    conv3d_array,
    conv3d_input_grad,
    conv3d_weight_grad,
)
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["ConvolutionTranspose3dBackward0"]


class ConvolutionTranspose3dBackward0(Function):
    node_name = "ConvolutionBackward0"

    def forward(self, x: Tensor, w: Tensor, bias: Tensor, geo: Geometry3d, has_bias: bool,
                out_shape: tuple[int, ...]) -> Array:
        self.geo, self.x_shape, self.w_shape = geo, tuple(x.shape), tuple(w.shape)
        if self.needs_input_grad[0]:
            self.save("weight", w)
        if self.needs_input_grad[1]:
            self.save("input", x)
        result = conv3d_input_grad(x._data, w._data, out_shape, geo)
        if has_bias:
            result += bias._data.reshape(1, -1, 1, 1, 1)
        return np.ascontiguousarray(result)

    def _crop(self, gx: Any) -> Any:
        """The convolution of the output gradient, cut to the input's size (an output_padding
        of at least the stride makes it longer)."""
        if tuple(gx.shape) == self.x_shape:
            return gx
        return gx[(Ellipsis,) + tuple(slice(0, n) for n in self.x_shape[2:])]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        gx = gw = gb = None
        geo = self.geo
        if F.as_tensor:
            if need_x:
                gx = self._crop(Convolution3dBackward0.apply(
                    grad, self.saved("weight", F), F.zeros((0,), grad), stride=geo.stride,
                    padding=geo.padding, dilation=geo.dilation, groups=geo.groups,
                    has_bias=False))
            if need_w:
                gw = Conv3dWeightGrad.apply(grad, self.saved("input", F), geo=geo,
                                            w_shape=self.w_shape)
            if need_b:
                gb = F.sum(grad, (0, 2, 3, 4), False)
            return gx, gw, gb
        if need_x:
            gx = np.ascontiguousarray(self._crop(conv3d_array(grad, self.saved("weight", F),
                                                              geo)))
        if need_w:
            gw = conv3d_weight_grad(grad, self.saved("input", F), self.w_shape, geo)
        if need_b:
            with _quiet():
                gb = grad.sum(axis=(0, 2, 3, 4))
        return gx, gw, gb
