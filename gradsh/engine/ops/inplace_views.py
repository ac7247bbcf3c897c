"""The in-place view ops (unsqueeze_, squeeze_, t_, transpose_ and its aliases): the tensor
itself takes the view's shape and strides over the same memory, its version goes up by one,
and a tensor with history gets the view's node under its in-place name (UnsqueezeBackward1,
SqueezeBackward3 ..., as PyTorch's derivatives.yaml numbers them). And resize_, which gives a
tensor without history a new shape over its memory (grown when it needs more)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.grad_mode import current_origin
from gradsh.engine.inplace import _move_retain_grad, check_inplace
from gradsh.engine.node import Node, _compose_view
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import _shape_args, squeeze, t, transpose, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["unsqueeze_", "squeeze_", "t_", "transpose_", "swapdims_", "swapaxes_", "resize_",
           "resize_as_"]

# the out-of-place node -> its in-place form's name
_IN_PLACE_NAMES = {
    "UnsqueezeBackward0": "UnsqueezeBackward1", "TBackward0": "TBackward1",
    "TransposeBackward0": "TransposeBackward1", "SqueezeBackward0": "SqueezeBackward3",
    "SqueezeBackward1": "SqueezeBackward4", "SqueezeBackward2": "SqueezeBackward5",
}
_RENAMED: dict[type, type] = {}


def _in_place_node(node: Node) -> None:
    """Give `node` the class of the op's in-place form (same formula, PyTorch's name)."""
    cls = type(node)
    renamed = _RENAMED.get(cls)
    if renamed is None:
        name = _IN_PLACE_NAMES[cls.node_name]
        renamed = _RENAMED[cls] = type(name, (cls,), {"node_name": name})
    node.__class__ = renamed


def _view_in_place(target: Tensor, view: Callable[..., Tensor], *args: Any) -> Tensor:
    check_inplace(target)
    alias = Tensor._make(target._data, target.device, grad_fn=target.grad_fn,
                         requires_grad=target._requires_grad)
    out = view(alias, *args)
    target._data = out._data
    if target._base is not None:  # still a view of the same base, one step further
        target._view_fn = _compose_view(target, out._view_fn)
    counter = target._version_counter
    counter.value += 1
    counter.origin = current_origin()
    node = out._grad_fn
    if node is not None:
        _in_place_node(node)
        _move_retain_grad(target, node)
        target._grad_fn = node
        target._view_version = target._version
    return target


@guarded
def unsqueeze_(a: Tensor, dim: int) -> Tensor:
    return _view_in_place(a, unsqueeze, dim)


@guarded
def squeeze_(a: Tensor, dim: Any = None) -> Tensor:
    # (squeeze(a, None) is no call PyTorch's parser takes)
    return _view_in_place(a, squeeze, *(() if dim is None else (dim,)))


@guarded
def t_(a: Tensor) -> Tensor:
    if isinstance(a, Tensor) and a.ndim > 2:
        raise TorchRuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                                f"{a.ndim}D")
    return _view_in_place(a, t)


@guarded
def transpose_(a: Tensor, dim0: int, dim1: int) -> Tensor:
    return _view_in_place(a, transpose, dim0, dim1)


swapdims_ = swapaxes_ = transpose_


@guarded
def resize_(a: Tensor, *sizes: Any, memory_format: Any = None) -> Tensor:
    """PyTorch's resize_: the same shape is a no-op; another takes contiguous strides over the
    tensor's memory from its first element (a smaller size a view of it, a larger one new
    memory that starts with the old elements; PyTorch leaves the rest uninitialized). A
    non-contiguous view reads its storage in memory order from its offset (a.t().resize_(2)
    is the storage's first two elements)."""
    shape = _shape_args(sizes, "resize_")
    if a.requires_grad:
        raise TorchRuntimeError("cannot resize variables that require grad")
    if any(n < 0 for n in shape):
        raise TorchRuntimeError("numel: integer multiplication overflow")
    if shape == tuple(a.shape):
        return a
    data = a._data
    numel = math.prod(shape)
    memory, offset = _memory_of(data)
    if offset + numel > memory.size:  # new memory: no longer a view of anything
        grown = np.zeros(numel, data.dtype)
        kept = memory[offset:] if not data.flags.c_contiguous else data.reshape(-1)
        grown[:kept.size] = kept
        a._data = grown.reshape(shape)
        a._base = a._view_fn = None
    else:
        a._data = memory[offset:offset + numel].reshape(shape)
        base = a._base
        if base is not None and base._data.flags.c_contiguous:
            start = offset - _memory_of(base._data)[1]
            a._view_fn = lambda array: array.reshape(-1)[start:start + numel].reshape(shape)
    counter = a._version_counter
    counter.value += 1
    counter.origin = current_origin()
    return a


@guarded
def resize_as_(a: Tensor, other: Tensor, memory_format: Any = None) -> Tensor:
    return resize_(a, tuple(other.shape))


def _memory_of(data: np.ndarray) -> tuple[np.ndarray, int]:
    """The flat memory an array views (its storage, as far as PyTorch's resize_ can reach: the
    outermost contiguous array of the same dtype) and the array's offset in it."""
    memory = data
    while isinstance(memory.base, np.ndarray) and memory.base.dtype == data.dtype \
            and memory.base.flags.c_contiguous:
        memory = memory.base
    flat = memory.reshape(-1)
    return flat, (data.ctypes.data - flat.ctypes.data) // data.itemsize
