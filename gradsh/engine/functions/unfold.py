"""Nodes of sliding windows: x.unfold(dim, size, step) (a strided view) and its backward,
F.unfold / F.fold (im2col / col2im: each is the other's gradient)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Shape, Tensor

__all__ = ["UnfoldBackward0", "UnfoldBackwardBackward0", "Im2ColBackward0", "Col2ImBackward0",
           "unfold_view"]

Pair = tuple[int, int]


def unfold_view(x: Array, dim: int, size: int, step: int) -> Array:
    """The windows of x along dim as a strided view: that dimension becomes the window count,
    a last dimension of `size` the window. Overlapping windows are read-only (writing one
    element would write several)."""
    if x.ndim == 0:
        return x.reshape(1)
    windows = (x.shape[dim] - size) // step + 1
    shape = x.shape[:dim] + (windows,) + x.shape[dim + 1:] + (size,)
    strides = x.strides[:dim] + (x.strides[dim] * step,) + x.strides[dim + 1:] + (x.strides[dim],)
    if not isinstance(x, np.ndarray):
        return xp_of(x).lib.stride_tricks.as_strided(x, shape, strides)
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=bool(
        step >= size and x.flags.writeable))


def unfold_backward_array(grad: Array, input_shape: Shape, dim: int, size: int,
                          step: int) -> Array:
    """Each input element gets the gradients of the windows holding it, added from the first
    window on (unfold_backward's loop); position k of window w is element w * step + k."""
    xp = xp_of(grad)
    out = xp.zeros(input_shape, dtype=grad.dtype)
    if not input_shape:
        return grad.reshape(())
    windows = grad.shape[dim]
    for k in range(size - 1, -1, -1):  # from the last position in a window: earlier windows
        index = [slice(None)] * len(input_shape)
        index[dim] = slice(k, k + step * (windows - 1) + 1, step)
        out[tuple(index)] += grad[..., k]
    return out


class UnfoldBackward0(Function):
    node_name = "UnfoldBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, size: int, step: int) -> Array:
        self.self_sizes, self.dim, self.size, self.step = a.shape, dim, size, step
        return unfold_view(a._data, dim, size, step)

    def view_fn(self, array: Array) -> Array:
        return unfold_view(array, self.dim, self.size, self.step)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (UnfoldBackwardBackward0.apply(grad, self_sizes=self.self_sizes,
                                                  dim=self.dim, size=self.size, step=self.step),)
        return (unfold_backward_array(grad, self.self_sizes, self.dim, self.size, self.step),)


class UnfoldBackwardBackward0(Function):
    """unfold_backward, recorded under create_graph; its gradient unfolds again."""

    node_name = "UnfoldBackwardBackward0"

    def forward(self, grad: Tensor, self_sizes: Shape, dim: int, size: int, step: int) -> Array:
        self.dim, self.size, self.step = dim, size, step
        return unfold_backward_array(grad._data, self_sizes, dim, size, step)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (UnfoldBackward0.apply(g, dim=self.dim, size=self.size, step=self.step),)
        return (np.ascontiguousarray(unfold_view(g, self.dim, self.size, self.step)),)


def _blocks(image: Pair, kernel: Pair, dilation: Pair, padding: Pair, stride: Pair) -> Pair:
    return tuple((image[d] + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1
                 for d in range(2))  # type: ignore[return-value]


def _window(d: int, offset: int, blocks: Pair, dilation: Pair, stride: Pair) -> slice:
    start = offset * dilation[d]
    return slice(start, start + stride[d] * (blocks[d] - 1) + 1, stride[d])


def im2col_array(x: Array, kernel: Pair, dilation: Pair, padding: Pair, stride: Pair) -> Array:
    """(N, C, H, W) -> (N, C * kh * kw, L): each block's values, channel-major then kernel
    row and column, blocks in row-major order."""
    xp = xp_of(x)
    n, c, h, w = x.shape
    blocks = _blocks((h, w), kernel, dilation, padding, stride)
    padded = xp.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    patches = [padded[:, :, _window(0, i, blocks, dilation, stride),
                      _window(1, j, blocks, dilation, stride)]
               for i in range(kernel[0]) for j in range(kernel[1])]
    cols = xp.stack(patches, axis=2) if patches else xp.zeros((n, c, 0) + blocks, x.dtype)
    return cols.reshape(n, c * kernel[0] * kernel[1], blocks[0] * blocks[1])


def col2im_array(cols: Array, output: Pair, kernel: Pair, dilation: Pair, padding: Pair,
                 stride: Pair) -> Array:
    """(N, C * kh * kw, L) -> (N, C, H, W): every block value added at its image position, kernel
    offsets in increasing order (the kernel's loop over its column channels)."""
    xp = xp_of(cols)
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    blocks = _blocks(output, kernel, dilation, padding, stride)
    values = cols.reshape(n, c, kernel[0], kernel[1], blocks[0], blocks[1])
    padded = xp.zeros((n, c, output[0] + 2 * padding[0], output[1] + 2 * padding[1]),
                      cols.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            padded[:, :, _window(0, i, blocks, dilation, stride),
                   _window(1, j, blocks, dilation, stride)] += values[:, :, i, j]
    return padded[:, :, padding[0]:padding[0] + output[0], padding[1]:padding[1] + output[1]]


def _batch_of(x: Array, full: int) -> Array:
    """A sample without its batch dimension (one dimension fewer than `full`) as a batch of 1:
    the kernels add and drop it themselves, so no view node is recorded."""
    return x[None] if x.ndim == full - 1 else x


class Im2ColBackward0(Function):
    node_name = "Im2ColBackward0"

    def forward(self, a: Tensor, kernel: Pair, dilation: Pair, padding: Pair,
                stride: Pair) -> Array:
        self.image = a.shape[-2:]
        self.params = (kernel, dilation, padding, stride)
        out = im2col_array(_batch_of(a._data, 4), *self.params)
        return out if a.ndim == 4 else out[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (Col2ImBackward0.apply(grad, output=self.image, kernel=self.params[0],
                                          dilation=self.params[1], padding=self.params[2],
                                          stride=self.params[3]),)
        out = col2im_array(_batch_of(grad, 3), self.image, *self.params)
        return (out if grad.ndim == 3 else out[0],)


class Col2ImBackward0(Function):
    node_name = "Col2ImBackward0"

    def forward(self, a: Tensor, output: Pair, kernel: Pair, dilation: Pair, padding: Pair,
                stride: Pair) -> Array:
        self.params = (kernel, dilation, padding, stride)
        out = col2im_array(_batch_of(a._data, 3), output, *self.params)
        return out if a.ndim == 3 else out[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (Im2ColBackward0.apply(grad, kernel=self.params[0], dilation=self.params[1],
                                          padding=self.params[2], stride=self.params[3]),)
        out = im2col_array(_batch_of(grad, 4), *self.params)
        return (out if grad.ndim == 4 else out[0],)
