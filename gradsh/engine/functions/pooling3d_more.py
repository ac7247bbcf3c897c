"""MaxUnpool3DBackward0 and AdaptiveMaxPool3DBackward0: the 3-D forms of max_unpool2d and
adaptive_max_pool2d (upsampling.py, adaptive_pooling.py), over the last three dimensions of a
(C, D, H, W) or (N, C, D, H, W) tensor with indices flat in each D*H*W volume. First-order
gradients only (a create_graph backward through them is refused with a gradsh error)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.adaptive_pooling import _bin
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AdaptiveMaxPool3DBackward0", "MaxUnpool3DBackward0"]

Triple = tuple[int, int, int]


def _first_order(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


class MaxUnpool3DBackward0(Function):
    """Zeros with each input value at its flat index in its volume (the later of two writes to
    one place wins, as the CPU loop's); the gradient gathers back."""

    node_name = "MaxUnpool3DBackward0"

    def forward(self, x: Tensor, indices: Array, output_size: Triple) -> Array:
        data = np.asarray(x._data)
        lead = data.shape[:-3]
        volume = int(np.prod(output_size))
        flat_in = data.reshape(-1, int(np.prod(data.shape[-3:])))
        flat_index = np.asarray(indices).reshape(flat_in.shape)
        out = np.zeros((flat_in.shape[0], volume), dtype=data.dtype)
        out[np.arange(flat_in.shape[0])[:, None], flat_index] = flat_in
        self.indices, self.input_shape = flat_index, tuple(data.shape)
        return out.reshape(lead + tuple(output_size))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _first_order(F, "max_unpool3d")
        flat = np.asarray(grad).reshape(self.indices.shape[0], -1)
        return (np.take_along_axis(flat, self.indices, axis=1).reshape(self.input_shape),)


class AdaptiveMaxPool3DBackward0(Function):
    """Each output the largest value of its adaptive bin (the last NaN, as ATen keeps it), its
    index flat in the input's volume; the gradient adds each output's back, outputs in order."""

    node_name = "AdaptiveMaxPool3DBackward0"

    def forward(self, a: Tensor, output_size: Triple) -> Array:
        x = np.asarray(a._data) if a.ndim == 5 else np.asarray(a._data)[None]
        n, c, d, h, w = x.shape
        od, oh, ow = output_size
        values = np.empty((n, c, od, oh, ow), dtype=x.dtype)
        indices = np.empty((n, c, od, oh, ow), dtype=np.int64)
        for i in range(od):
            d0, d1 = _bin(i, od, d)
            for j in range(oh):
                h0, h1 = _bin(j, oh, h)
                for k in range(ow):
                    w0, w1 = _bin(k, ow, w)
                    flat = x[:, :, d0:d1, h0:h1, w0:w1].reshape(n, c, -1)
                    local = flat.argmax(axis=-1)
                    nan = np.isnan(flat)
                    last_nan = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
                    local = np.where(nan.any(axis=-1), last_nan, local)
                    values[:, :, i, j, k] = np.take_along_axis(flat, local[..., None],
                                                               axis=-1)[..., 0]
                    bh, bw = h1 - h0, w1 - w0
                    dd, rest = local // (bh * bw), local % (bh * bw)
                    indices[:, :, i, j, k] = ((d0 + dd) * h + h0 + rest // bw) * w + w0 + rest % bw
        if a.ndim == 4:
            values, indices = values[0], indices[0]
        self.indices, self.input_shape = indices, tuple(a.shape)
        return values

    @classmethod
    def indices_of(cls, a: Tensor, output_size: Triple) -> Array:
        """The indices a recorded node would keep, for a call that records none."""
        node = cls()
        node.needs_input_grad = (False,)
        node.forward(a, output_size)
        return node.indices

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _first_order(F, "adaptive_max_pool3d")
        shape = self.input_shape
        volume = shape[-1] * shape[-2] * shape[-3]
        grad = np.asarray(grad)
        planes = grad.size // max(int(np.prod(grad.shape[-3:])), 1)
        result = np.zeros((planes, volume), dtype=grad.dtype)
        rows = np.repeat(np.arange(planes), grad.size // max(planes, 1))
        np.add.at(result, (rows, self.indices.reshape(-1)), grad.reshape(-1))
        return (result.reshape(shape),)
