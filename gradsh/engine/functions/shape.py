"""View nodes: view, reshape, squeeze, select, slice, split, transpose, permute, expand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.multi_output import MultiViewFunction
from gradsh.engine.tensor import Array, Function, Shape, Tensor
from gradsh.engine.vecmath.layout import sliced

__all__ = [
    "ViewBackward0", "ReshapeAliasBackward0", "UnsafeViewBackward0", "AliasBackward0",
    "UnsqueezeBackward0", "SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2",
    "SqueezeBackward4", "SelectBackward0", "SliceBackward0", "SplitBackward0",
    "SplitWithSizesBackward0", "UnbindBackward0", "TBackward0", "TransposeBackward0",
    "PermuteBackward0", "ExpandBackward0",
]


def aten_view_strides(old_shape: Shape, old_strides: Sequence[int],
                      new_shape: Shape) -> list[int] | None:
    """The strides (in elements) ATen's computeStride gives a view of old_shape/old_strides
    as new_shape, or None where no view exists. NumPy's reshape agrees on every dimension but
    those of size 1, whose stride it picks its own way (x[::2][:1].view(1, 1): (2, 2) here)."""
    if not old_shape:
        return [1] * len(new_shape)
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * chunk:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * chunk
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk, tensor_numel, view_numel = old_strides[d - 1], 1, 1
    return new if view_d == -1 else None


def restrided(out: Array, strides: Sequence[int], like: Array) -> Array:
    """`out` (a view NumPy made of `like`'s memory) with these strides in elements of size-1
    dimensions where they differ; other arrays (CuPy, empty ones) as they are."""
    if not isinstance(out, np.ndarray) or not out.size:
        return out
    item = out.itemsize
    want = tuple(s * item for s in strides)
    if out.strides == want:
        return out
    root = like
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not root.flags.c_contiguous:
        return np.lib.stride_tricks.as_strided(out, out.shape, want,
                                               writeable=out.flags.writeable)
    offset = out.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    fixed = np.ndarray(out.shape, out.dtype, buffer=root.reshape(-1).view(np.uint8),
                       offset=offset, strides=want)
    if not out.flags.writeable:
        fixed.flags.writeable = False
    return fixed


def view_as_shape(array: Array, shape: Shape) -> Array:
    """array.reshape(shape) as a view has ATen's strides: only a result with a dimension of
    size 1 can differ from NumPy's (the common case returns NumPy's reshape at once)."""
    out = array.reshape(shape)
    if 1 not in shape or out.__class__ is not np.ndarray or not out.size or (
            array.flags.c_contiguous and 1 not in array.shape):  # (NumPy's are ATen's then)
        return out
    item = array.itemsize
    found = aten_view_strides(array.shape, [s // item for s in array.strides], shape)
    return out if found is None else restrided(out, found, array)


def unsqueezed(array: Array, dim: int) -> Array:
    """expand_dims with ATen's stride for the new dimension (its neighbour's size times
    stride, 1 at the end) and every other stride kept."""
    out = xp_of(array).expand_dims(array, dim)
    if out.__class__ is not np.ndarray or not out.size or (
            array.flags.c_contiguous and 1 not in array.shape):  # (NumPy's are ATen's then)
        return out
    strides = [s // array.itemsize for s in array.strides]
    strides.insert(dim, array.shape[dim] * strides[dim] if dim < array.ndim else 1)
    return restrided(out, strides, array)


class ViewBackward0(Function):
    node_name = "ViewBackward0"
    is_view = True

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return view_as_shape(a._data, shape)

    def view_fn(self, array: Array) -> Array:
        return view_as_shape(array, self.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class ReshapeAliasBackward0(ViewBackward0):
    """reshape of a non-contiguous tensor whose strides still allow a view."""

    node_name = "ReshapeAliasBackward0"

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return view_as_shape(a._data, shape)  # (a view: reshape's caller checked)


class UnsafeViewBackward0(Function):
    """reshape of a tensor that cannot be viewed: a copy (CloneBackward0) then this."""

    node_name = "UnsafeViewBackward0"

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        return a._data.reshape(shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class AliasBackward0(Function):
    """`x[...]`, `x[:, :]`: a view of the whole tensor."""

    node_name = "AliasBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return a._data[...]

    def view_fn(self, array: Array) -> Array:
        return array[...]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class UnsqueezeBackward0(Function):
    node_name = "UnsqueezeBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        return unsqueezed(a._data, dim)

    def view_fn(self, array: Array) -> Array:
        return unsqueezed(array, self.dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.squeeze(grad, self.dim),)


class _Squeeze(Function):
    is_view = True

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.self_sizes = a.shape
        self.dims = tuple(d for d in dims if a.shape[d] == 1) if a.ndim else ()
        return self.view_fn(a._data)

    def _out_shape(self, shape: Shape) -> Shape:
        return tuple(n for i, n in enumerate(shape) if i not in self.dims)

    def view_fn(self, array: Array) -> Array:
        """The other dimensions keep their strides (ATen's inferSqueezeGeometry)."""
        out = array.reshape(self._out_shape(array.shape))
        if 1 not in out.shape or not isinstance(out, np.ndarray):
            return out
        return restrided(out, [s // array.itemsize for i, s in enumerate(array.strides)
                               if i not in self.dims], array)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class SqueezeBackward0(_Squeeze):
    """squeeze(): every size-1 dimension."""

    node_name = "SqueezeBackward0"


class SqueezeBackward1(_Squeeze):
    """squeeze(dim)."""

    node_name = "SqueezeBackward1"


class SqueezeBackward2(_Squeeze):
    """squeeze(dims)."""

    node_name = "SqueezeBackward2"


class SqueezeBackward4(Function):
    """squeeze_(dim) in place on a fresh result (matmul's 1-d @ 2-d): not a view."""

    node_name = "SqueezeBackward4"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        if a.shape[dim] != 1:
            return a._data
        return a._data.reshape(a.shape[:dim] + a.shape[dim + 1:])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.reshape(grad, self.self_sizes),)


class SelectBackward0(Function):
    node_name = "SelectBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, index: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.index = index
        return sliced(a._data, self._key())

    def _key(self) -> tuple[Any, ...]:
        # The trailing Ellipsis keeps a 0-d result a view (not a NumPy scalar copy).
        return (slice(None),) * self.dim + (self.index, Ellipsis)

    def view_fn(self, array: Array) -> Array:
        return sliced(array, self._key())

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.view_backward(grad, self.self_sizes, self.view_fn, "select",
                                (self.dim, self.index)),)


class SliceBackward0(Function):
    node_name = "SliceBackward0"
    is_view = True

    def forward(self, a: Tensor, dim: int, start: int, end: int, step: int) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.start, self.end, self.step = start, end, step
        return sliced(a._data, self._key())

    def _key(self) -> tuple[Any, ...]:
        return (slice(None),) * self.dim + (slice(self.start, self.end, self.step),)

    def view_fn(self, array: Array) -> Array:
        return sliced(array, self._key())

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.view_backward(grad, self.self_sizes, self.view_fn, "slice",
                                (self.dim, self.start, self.end, self.step)),)


class SplitBackward0(MultiViewFunction):
    """The pieces of split/chunk with one size (all views, one node): backward concatenates
    their gradients, zeros for a piece nothing reached."""

    node_name = "SplitBackward0"

    def keys(self, a: Tensor, dim: int, bounds: Sequence[tuple[int, int]],  # type: ignore[override]
             split_size: int | None = None) -> list[tuple[Any, ...]]:
        self.self_sizes = a.shape
        self.dim = dim
        if split_size is not None:
            self.split_size = split_size
        else:
            self.split_sizes = tuple(end - start for start, end in bounds)
        self.bounds = tuple(bounds)
        lead = (slice(None),) * dim
        return [lead + (slice(start, end),) for start, end in bounds]

    def piece_shape(self, index: int) -> tuple[int, ...]:
        start, end = self.bounds[index]
        return tuple(self.self_sizes[:self.dim]) + (end - start,) + tuple(
            self.self_sizes[self.dim + 1:])

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        parts = self.filled(F, grads)
        return (None if parts is None else F.cat(parts, self.dim),)


class SplitWithSizesBackward0(SplitBackward0):
    """The pieces of split with a list of sizes."""

    node_name = "SplitWithSizesBackward0"


class UnbindBackward0(MultiViewFunction):
    """The elements of unbind / iteration (all views, one node): backward stacks their
    gradients, zeros for an element nothing reached."""

    node_name = "UnbindBackward0"

    def keys(self, a: Tensor, dim: int) -> list[tuple[Any, ...]]:  # type: ignore[override]
        self.self_sizes = a.shape
        self.dim = dim
        # (the trailing Ellipsis keeps a 0-d piece a view, not a NumPy scalar copy)
        return [(slice(None),) * dim + (i, Ellipsis) for i in range(a.shape[dim])]

    def piece_shape(self, index: int) -> tuple[int, ...]:
        return tuple(self.self_sizes[:self.dim]) + tuple(self.self_sizes[self.dim + 1:])

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        parts = self.filled(F, grads)
        return (None if parts is None else F.stack(parts, self.dim),)


class TBackward0(Function):
    node_name = "TBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return a._data.T

    def view_fn(self, array: Array) -> Array:
        return array.T

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.t(grad),)


class TransposeBackward0(Function):
    node_name = "TransposeBackward0"
    is_view = True

    def forward(self, a: Tensor, dim0: int, dim1: int) -> Array:
        self.dim0, self.dim1 = dim0, dim1
        return self.view_fn(a._data)

    def view_fn(self, array: Array) -> Array:
        if array.ndim == 0:
            return array[...]
        return xp_of(array).swapaxes(array, self.dim0, self.dim1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.transpose(grad, self.dim0, self.dim1),)


class PermuteBackward0(Function):
    node_name = "PermuteBackward0"
    is_view = True

    def forward(self, a: Tensor, dims: tuple[int, ...]) -> Array:
        self.dims = dims
        return xp_of(a._data).transpose(a._data, dims)

    def view_fn(self, array: Array) -> Array:
        return xp_of(array).transpose(array, self.dims)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return (F.permute(grad, tuple(inverse)),)


def expanded(array: Array, shape: Shape) -> Array:
    """`array` expanded to `shape` with PyTorch's strides (inferExpandGeometry): a dimension
    that keeps its size keeps its stride and a new leading one of size 1 gets the stride of
    a contiguous step, so only a really broadcast dimension has stride 0. The result is
    writable unless some dimension of size > 1 has stride 0 (PyTorch's internal overlap)."""
    if not isinstance(array, np.ndarray):
        return xp_of(array).broadcast_to(array, shape)
    lead = len(shape) - array.ndim
    strides = [0] * len(shape)
    for i in reversed(range(len(shape))):
        if i >= lead:
            have, stride = array.shape[i - lead], array.strides[i - lead]
        else:
            have = 1
            stride = (shape[i + 1] * strides[i + 1] if i + 1 < len(shape) and array.ndim
                      else 0)
        strides[i] = stride if have == shape[i] else 0
    writable = array.flags.writeable and not any(
        s == 0 and n > 1 for s, n in zip(strides, shape))
    return np.lib.stride_tricks.as_strided(array, shape, strides, writeable=writable)


class ExpandBackward0(Function):
    node_name = "ExpandBackward0"
    is_view = True

    def forward(self, a: Tensor, shape: Shape) -> Array:
        self.self_sizes = a.shape
        self.shape = shape
        return expanded(a._data, shape)

    def view_fn(self, array: Array) -> Array:
        return expanded(array, self.shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.sum_to(grad, self.self_sizes),)
