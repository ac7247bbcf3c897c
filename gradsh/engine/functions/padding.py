"""Nodes of F.pad's reflect and replicate modes over 1, 2 or 3 trailing dimensions.

Each output position reads one input position (`pad_index`): u = j - left, reflected into
[0, n) (`-u` below, `2(n - 1) - u` above) or clamped to it. The backward adds the output
gradient into the input gradient in output order, one add per output element, as ATen's
cpu_padding_backward loops; its own backward (create_graph) pads again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Shape, Tensor

__all__ = [
    "ReflectionPad1DBackward0", "ReflectionPad2DBackward0", "ReflectionPad3DBackward0",
    "ReplicationPad1DBackward0", "ReplicationPad2DBackward0", "ReplicationPad3DBackward0",
    "ReflectionPad1DBackwardBackward0", "ReflectionPad2DBackwardBackward0",
    "ReflectionPad3DBackwardBackward0", "ReplicationPad1DBackwardBackward0",
    "ReplicationPad2DBackwardBackward0", "ReplicationPad3DBackwardBackward0", "pad_index",
]


def pad_index(size: int, left: int, right: int, mode: str) -> np.ndarray:
    """For each output position along one dimension, the input position it reads."""
    u = np.arange(size + left + right) - left
    if mode == "reflect":
        u = np.where(u < 0, -u, u)
        return np.where(u >= size, 2 * (size - 1) - u, u)
    return np.clip(u, 0, size - 1)


def _indices(shape: Shape, pad: tuple[int, ...], mode: str) -> tuple[np.ndarray, ...]:
    """Open-mesh index arrays for the padded trailing dimensions (pad pairs run from the last
    dimension backwards, as F.pad's)."""
    k = len(pad) // 2
    per_dim = [pad_index(shape[len(shape) - k + d], pad[2 * (k - 1 - d)],
                         pad[2 * (k - 1 - d) + 1], mode) for d in range(k)]
    return np.ix_(*per_dim)


def pad_array(x: Array, pad: tuple[int, ...], mode: str) -> Array:
    """The padded array: each output position gathered from its input position, row-major as
    ATen's (NumPy's fancy indexing puts the indexed dimensions first in memory, and a sum then
    adds in another order)."""
    index = _indices(x.shape, pad, mode)
    if not isinstance(x, np.ndarray):
        index = tuple(xp_of(x).asarray(i) for i in index)
    return xp_of(x).ascontiguousarray(x[(Ellipsis, *index)])


def pad_backward_array(grad: Array, input_shape: Shape, pad: tuple[int, ...],
                       mode: str) -> Array:
    """The input gradient: each output gradient added at its input position, in output order
    (np.add.at adds sequentially, as the kernel's loop)."""
    k = len(pad) // 2
    spatial_in = input_shape[len(input_shape) - k:]
    index = _indices(input_shape, pad, mode)
    flat = np.ravel_multi_index(tuple(np.broadcast_arrays(*index)), spatial_in).reshape(-1)
    planes = int(np.prod(input_shape[:len(input_shape) - k], dtype=np.int64))
    host = grad if isinstance(grad, np.ndarray) else xp_of(grad).asnumpy(grad)
    out = np.zeros((planes, int(np.prod(spatial_in, dtype=np.int64))), dtype=host.dtype)
    np.add.at(out, (slice(None), flat), host.reshape(planes, -1))
    out = out.reshape(input_shape)
    return out if isinstance(grad, np.ndarray) else xp_of(grad).asarray(out)


class _PadBackward(Function):
    """reflection_padNd / replication_padNd: saves self (derivatives.yaml does)."""

    mode = ""
    double: type[Function]

    def forward(self, a: Tensor, pad: tuple[int, ...]) -> Array:
        self.pad = pad
        if self.needs_input_grad[0]:
            self.save("self", a)
        return pad_array(a._data, pad, self.mode)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if F.as_tensor:
            return (self.double.apply(grad, x, pad=self.pad),)
        return (pad_backward_array(grad, x.shape, self.pad, self.mode),)


class _PadBackwardBackward(Function):
    """The backward of a pad (an add of the gradient back into the input's shape), recorded
    under create_graph: edges to the gradient and to self, whose own gradient is zero."""

    mode = ""
    forward_node: type[_PadBackward]

    def forward(self, grad: Tensor, x: Tensor, pad: tuple[int, ...]) -> Array:
        self.pad = pad
        return pad_backward_array(grad._data, x.shape, pad, self.mode)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_x = self.needs_input_grad
        padded = None
        if need_grad:
            padded = (self.forward_node.apply(g, pad=self.pad) if F.as_tensor
                      else pad_array(g, self.pad, self.mode))
        return (padded, F.zeros_like(g) if need_x else None)


def _pair(name: str, mode: str) -> tuple[type[_PadBackward], type[_PadBackwardBackward]]:
    node = type(f"{name}Backward0", (_PadBackward,), {"node_name": f"{name}Backward0", "mode": mode})
    double = type(f"{name}BackwardBackward0", (_PadBackwardBackward,),
                  {"node_name": f"{name}BackwardBackward0", "mode": mode, "forward_node": node})
    node.double = double
    return node, double


ReflectionPad1DBackward0, ReflectionPad1DBackwardBackward0 = _pair("ReflectionPad1D", "reflect")
ReflectionPad2DBackward0, ReflectionPad2DBackwardBackward0 = _pair("ReflectionPad2D", "reflect")
ReflectionPad3DBackward0, ReflectionPad3DBackwardBackward0 = _pair("ReflectionPad3D", "reflect")
ReplicationPad1DBackward0, ReplicationPad1DBackwardBackward0 = _pair("ReplicationPad1D",
                                                                     "replicate")
ReplicationPad2DBackward0, ReplicationPad2DBackwardBackward0 = _pair("ReplicationPad2D",
                                                                     "replicate")
ReplicationPad3DBackward0, ReplicationPad3DBackwardBackward0 = _pair("ReplicationPad3D",
                                                                     "replicate")
