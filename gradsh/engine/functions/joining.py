"""Nodes that join or rearrange tensors: cat, stack, flip, repeat, roll, pad."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.dtypes import DType
from gradsh.engine.functions.common import (
    c_order,
    laid_out,
    preserve_layout,
    suggested_layout,
    xp_of,
)
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import layout
from gradsh.engine.vecmath.layout import element_strides, with_strides

__all__ = [
    "CatBackward0", "StackBackward0", "FlipBackward0", "RepeatBackward0", "RollBackward0",
    "ConstantPadNdBackward0",
]


def _channels_last(array: Array) -> bool:
    return array.ndim == 4 and array.transpose(0, 2, 3, 1).flags.c_contiguous


def _joined_layout(arrays: list[Array], out: Array) -> Array:
    """cat's output layout (cat_compute_output_memory_format): channels-last where every input
    suggests it (strides like channels-last, size-1 dimensions' strides counted), row-major
    otherwise (NumPy keeps the inputs' order: transposed inputs gave a transposed result, which
    .view refuses)."""
    if out.__class__ is np.ndarray and out.ndim in (4, 5) and all(
            a.__class__ is np.ndarray and a.ndim == out.ndim
            and layout.strides_like_channels_last(a.shape, element_strides(a)) for a in arrays):
        return with_strides(out, layout.channels_last(out.shape))
    return xp_of(out).ascontiguousarray(out)


class CatBackward0(Function):
    node_name = "CatBackward0"

    def forward(self, *tensors: Tensor, dim: int, dtype: DType) -> Array:
        self.dim = dim
        self.sizes = [t.shape for t in tensors]
        arrays = [t._data.astype(dtype.np, copy=False) for t in tensors if t._data.ndim > 0
                  and not (t._data.ndim == 1 and t._data.shape[0] == 0 and len(tensors) > 1
                           and any(u.ndim > 1 for u in tensors))]
        if not arrays:
            return xp_of(tensors[0]._data).zeros((0,), dtype=dtype.np)
        return _joined_layout(arrays, xp_of(arrays[0]).concatenate(arrays, axis=dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        grads: list[Any] = []
        offset = 0
        for needed, shape in zip(self.needs_input_grad, self.sizes, strict=True):
            if len(shape) == 1 and shape[0] == 0 and len(grad.shape) > 1:
                grads.append(None if not needed else F.zeros(shape, grad))
                continue
            length = shape[self.dim]
            grads.append(F.narrow(grad, self.dim, offset, length) if needed else None)
            offset += length
        return tuple(grads)


class StackBackward0(Function):
    node_name = "StackBackward0"

    def forward(self, *tensors: Tensor, dim: int, dtype: DType) -> Array:
        self.dim = dim
        arrays = [t._data.astype(dtype.np, copy=False) for t in tensors]
        return _joined_layout(arrays, xp_of(arrays[0]).stack(arrays, axis=dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return tuple(F.select(grad, self.dim, i) if needed else None
                     for i, needed in enumerate(self.needs_input_grad))


class FlipBackward0(Function):
    node_name = "FlipBackward0"

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.dims = dims
        # (laid out as the input, as empty_like(self, Preserve))
        data = xp_of(a._data).flip(a._data, dims) if dims else a._data
        return preserve_layout(data.copy(order="K"), a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.flip(grad, self.dims),)


class RepeatBackward0(Function):
    node_name = "RepeatBackward0"

    def forward(self, a: Tensor, repeats: tuple[int, ...]) -> Array:
        self.repeats = repeats
        self.padded = (1,) * (len(repeats) - a.ndim) + a.shape
        self.shape = a.shape
        return c_order(xp_of(a._data).tile(a._data.reshape(self.padded), repeats))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        split: list[int] = []
        for r, n in zip(self.repeats, self.padded, strict=True):
            split += [r, n]
        dims = tuple(range(0, 2 * len(self.repeats), 2))
        g = F.reshape(grad, tuple(split))
        g = F.sum(g, dims, False) if dims else g
        return (F.reshape(g, self.shape),)


class RollBackward0(Function):
    node_name = "RollBackward0"

    def forward(self, a: Tensor, shifts: tuple[int, ...], dims: tuple[int, ...]) -> Array:
        self.shifts, self.dims, self.shape = shifts, dims, a.shape
        x = a._data
        if not dims:
            return xp_of(x).roll(x.reshape(-1), shifts[0]).reshape(x.shape)
        # (roll concatenates two narrowed parts: cat's suggested memory format)
        return suggested_layout(xp_of(x).roll(x, shifts, dims), x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        back = tuple(-s for s in self.shifts)
        return (F.roll(grad, back, self.dims),)


class ConstantPadNdBackward0(Function):
    """F.pad(x, pad, value): pad (or, with negative amounts, crop) the last dimensions."""

    node_name = "ConstantPadNdBackward0"

    def forward(self, a: Tensor, pad: tuple[int, ...], value: float) -> Array:
        x = a._data
        xp = xp_of(x)
        pairs = [(0, 0)] * x.ndim
        for i in range(len(pad) // 2):
            pairs[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
        self.pairs = pairs
        crop = tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pairs, x.shape,
                                                                              strict=True))
        kept = x[crop]
        grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        self.inner = tuple(slice(g[0], g[0] + n) for g, n in zip(grow, kept.shape, strict=True))
        self.shape = x.shape
        out = xp.full(tuple(n + g[0] + g[1] for n, g in zip(kept.shape, grow, strict=True)),
                      value, dtype=x.dtype)
        out[self.inner] = kept
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # the gradient of the kept part, padded back with zeros where the input was cropped
        return (F.constant_pad(F.index(grad, self.inner),
                               tuple(x for lo, hi in reversed(self.pairs)
                                     for x in (max(-lo, 0), max(-hi, 0))), self.shape),)


# constant_pad_nd allocates in self.suggest_memory_format()
laid_out("suggested")(ConstantPadNdBackward0)
