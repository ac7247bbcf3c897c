"""Nodes of the less common matrix ops: Rot90Backward0, VdotBackward0, and diag_embed over any
pair of dimensions (DiagEmbedBackward0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import c_order, preserve_layout, xp_of
from gradsh.engine.functions.complex_nodes import arrays_only, complex_valued
from gradsh.engine.functions.grad_ops import ArrayOps
from gradsh.engine.functions.linalg import DotBackward0
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["DiagEmbedDimsBackward0", "Rot90Backward0", "VdotBackward0", "rotate"]


def rotate(F: Any, x: Any, k: int, dims: tuple[int, int]) -> Any:
    """x turned k quarter turns from dims[0] towards dims[1] (ATen's rot90: flips and a
    transpose), with F's flip and transpose, so on arrays and tensors alike."""
    k %= 4
    d0, d1 = dims
    if k == 1:
        return F.transpose(F.flip(x, (d1,)), d0, d1)
    if k == 2:
        return F.flip(x, (d0, d1))
    if k == 3:
        return F.transpose(F.flip(x, (d0,)), d0, d1)
    return x


class Rot90Backward0(Function):
    node_name = "Rot90Backward0"

    def forward(self, a: Tensor, k: int, dims: tuple[int, int]) -> Array:
        """Laid out as ATen's: a flip (as empty_like(self) allocates), transposed for an odd
        k; no turn is a contiguous clone."""
        self.k, self.dims = k, dims
        x = a._data
        if k % 4 == 0 or x.__class__ is not np.ndarray:
            return xp_of(x).ascontiguousarray(rotate(ArrayOps, x, k, dims))
        d0, d1 = dims
        flipped = np.flip(x, {1: (d1,), 2: (d0, d1), 3: (d0,)}[k % 4]).copy(order="K")
        flipped = preserve_layout(flipped, x)
        return flipped if k % 4 == 2 else np.swapaxes(flipped, d0, d1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (rotate(F, grad, -self.k, self.dims),)


class VdotBackward0(DotBackward0):
    """vdot: dot of the first vector's conjugate with the second (of real vectors, dot)."""

    node_name = "VdotBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a._data.dtype.kind != "c":
            return super().forward(a, b)
        self.save("self", a)
        self.save("tensor", b)
        return np.asarray(np.vdot(a._data, b._data))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if complex_valued(grad):
            arrays_only(F, self.node_name)  # self: conj(grad) * other, other: grad * self
            a, b = self.needs_input_grad
            return (np.conj(grad) * self.saved("tensor", F) if a else None,
                    grad * self.saved("self", F) if b else None)
        return super().backward(F, grad)


class DiagEmbedDimsBackward0(Function):
    """diag_embed: each vector of the last dimension on the offset-th diagonal of the plane
    (dim1, dim2) of a new tensor."""

    node_name = "DiagEmbedBackward0"

    def forward(self, a: Tensor, offset: int, dim1: int, dim2: int) -> Array:
        x = a._data
        xp = xp_of(x)
        n = x.shape[-1] + abs(offset)
        self.offset, self.dim1, self.dim2 = offset, dim1, dim2
        out = xp.zeros(x.shape[:-1] + (n, n), dtype=x.dtype)
        rows = xp.arange(x.shape[-1]) + max(-offset, 0)
        cols = xp.arange(x.shape[-1]) + max(offset, 0)
        out[..., rows, cols] = x
        # the two new dimensions are last; move them to dim1 and dim2
        order = [d for d in range(out.ndim - 2)]
        for position, source in sorted(((dim1, out.ndim - 2), (dim2, out.ndim - 1))):
            order.insert(position, source)
        return c_order(xp.transpose(out, order))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "diag_embed yet")
        xp = xp_of(grad)
        return (xp.diagonal(grad, self.offset, self.dim1, self.dim2).copy(),)
