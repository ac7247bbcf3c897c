"""Views and layout: view, reshape, transpose, permute, squeeze, select, split, stride ..."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchRuntimeError,
    TorchTypeError,
    warn,
)
from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.shape import (
    ExpandBackward0,
    PermuteBackward0,
    ReshapeAliasBackward0,
    SelectBackward0,
    SliceBackward0,
    SplitBackward0,
    SplitWithSizesBackward0,
    SqueezeBackward0,
    SqueezeBackward1,
    SqueezeBackward2,
    TBackward0,
    TransposeBackward0,
    UnbindBackward0,
    UnsafeViewBackward0,
    UnsqueezeBackward0,
    ViewBackward0,
)
from gradsh.engine.ops.arguments import (
    _check_tensor,
    _type_name,
    as_int,
    format_order,
    is_in_memory_order,
    normalize_dims,
    wrap_dim,
)
from gradsh.engine.ops.copies import clone
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.tensor import Tensor, _once

__all__ = [
    "view", "reshape", "view_as", "reshape_as", "flatten", "unflatten", "expand", "expand_as",
    "broadcast_to", "t", "T", "mT", "H", "transpose", "swapaxes", "swapdims", "permute", "movedim",
    "moveaxis", "unsqueeze", "squeeze", "contiguous", "is_contiguous", "stride", "storage_offset",
    "select", "slice", "narrow", "split", "split_with_sizes", "chunk", "unbind",
]


def _infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """A view/reshape target with at most one -1, checked against the element count."""
    unknown = [i for i, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        raise TorchRuntimeError("only one dimension can be inferred")
    known = 1
    text = "[" + ", ".join(str(n) for n in shape) + "]"
    for i, n in enumerate(shape):
        if n != -1:
            if n < 0:
                raise TorchRuntimeError(f"invalid shape dimension {n} at index {i} of shape "
                                        f"{text}")
            known *= n
    if unknown:
        if known == 0:
            if numel == 0:
                raise TorchRuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {text} because the "
                    "unspecified dimension size -1 can be any value and is ambiguous"
                )
            raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
        if numel % known != 0:
            raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    elif known != numel:
        raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
    return shape


def _shape_args(args: tuple[Any, ...], fname: str = "view") -> tuple[int, ...]:
    """The shape of `view(2, 3)` or `reshape((2, 3))`, with PyTorch's parser errors: a first
    element that is not an int fails the match, a later one fails the unpacking."""
    name = {"reshape": "shape", "permute": "dims"}.get(fname, "size")
    sequence = len(args) == 1 and isinstance(args[0], (tuple, list))
    if sequence:
        args = tuple(args[0])
    out = []
    for i, item in enumerate(args):
        n = as_int(item)
        if n is None:
            kind = _type_name(item)
            if i > 0:
                raise TorchTypeError(
                    f"{fname}(): argument '{name}' failed to unpack the object at pos {i + 1} "
                    f'with error "type must be tuple of ints,but got {kind}"')
            if not sequence and len(args) > 1:
                raise TorchTypeError(
                    f"{fname}() takes 1 positional argument but {len(args)} were given")
            raise TorchTypeError(
                f"{fname}(): argument '{name}' (position 1) must be tuple of ints, "
                + (f"but found element of type {kind} at pos 0" if sequence else f"not {kind}"))
        out.append(n)
    return tuple(out)


@guarded
def view(a: Tensor, *shape: Any, dtype: DType | None = None, size: Any = None) -> Tensor:
    a = _check_tensor(a, "view")
    if len(shape) == 1 and isinstance(shape[0], DType):
        dtype = shape[0]
    if dtype is not None:
        return _view_dtype(a, dtype)
    if size is not None:
        shape = (size,)
    target = _infer_shape(_shape_args(shape), a.numel())
    if not _viewable(a._data, target):
        raise TorchRuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return ViewBackward0.apply(a, shape=target)


def _view_dtype(a: Tensor, dtype: DType) -> Tensor:
    """x.view(dtype): the same bytes read as `dtype` (view_dtype in TensorConversions.cpp). Not
    differentiable and not a view for autograd: a tensor that requires no grad, on the same
    storage and version counter, as x.detach() is."""
    data = a._data
    ratio = dtype.itemsize / a.dtype.itemsize
    if ratio != 1:
        why = f"to view {a.dtype.short} as {dtype.short} (different element sizes)"
        if data.ndim == 0:
            raise TorchRuntimeError(f"self.dim() cannot be 0 {why}")
        strides = _element_strides(a)
        if strides[-1] != 1:
            raise TorchRuntimeError(f"self.stride(-1) must be 1 {why}, but got {strides[-1]}")
        if ratio > 1:
            n = int(ratio)
            checks = [("self.size(-1)", data.shape[-1]), ("self.storage_offset()",
                                                           storage_offset(a))]
            checks += [(f"self.stride({i})", stride) for i, stride in enumerate(strides[:-1])]
            for what, value in checks:
                if value % n:
                    raise TorchRuntimeError(f"{what} must be divisible by {n} {why}, but got "
                                            f"{value}")
    out = a.detach()
    out._data = data.view(dtype.np)
    return out


def _viewable(data: Any, shape: tuple[int, ...]) -> bool:
    if data.size == 0 or data.flags.c_contiguous:
        return True
    try:
        if isinstance(data, np.ndarray):
            np.reshape(data, shape, copy=False)
            return True
        # CuPy has no reshape(copy=False): the reshape is a view exactly when it shares memory
        return xp_of(data).shares_memory(data.reshape(shape), data)
    except ValueError:
        return False


@guarded
def reshape(a: Tensor, *shape: Any) -> Tensor:
    a = _check_tensor(a, "reshape")
    target = _infer_shape(_shape_args(shape, "reshape"), a.numel())
    if a._data.flags.c_contiguous:
        return ViewBackward0.apply(a, shape=target)
    if _viewable(a._data, target):
        # A strided tensor that can still be viewed: PyTorch's _reshape_alias.
        return ReshapeAliasBackward0.apply(a, shape=target)
    return UnsafeViewBackward0.apply(clone(a, memory_format="contiguous"), shape=target)


def _unsafe_view(a: Tensor, shape: tuple[int, ...]) -> Tensor:
    return UnsafeViewBackward0.apply(a, shape=shape)


@guarded
def view_as(a: Tensor, other: Tensor) -> Tensor:
    return view(a, other.shape)


@guarded
def reshape_as(a: Tensor, other: Tensor) -> Tensor:
    return reshape(a, other.shape)


@guarded
def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    a = _check_tensor(a, "flatten")
    if a.ndim == 0:
        return reshape(a, (1,))
    start = wrap_dim(start_dim, a.ndim)
    end = wrap_dim(end_dim, a.ndim)
    if start > end:
        raise TorchRuntimeError(
            "flatten() has invalid args: start_dim cannot come after end_dim"
        )
    if start == end:
        return a
    merged = 1
    for n in a.shape[start:end + 1]:
        merged *= n
    return reshape(a, a.shape[:start] + (merged,) + a.shape[end + 1:])


@guarded
def unflatten(a: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    if a.ndim == 0:
        raise TorchRuntimeError("unflatten got an unexpected error:\nDimension specified as 0 "
                                "but tensor has no dimensions")
    d = wrap_dim(dim, a.ndim)
    sizes = tuple(sizes)
    if not sizes:
        raise TorchRuntimeError("unflatten: sizes must be non-empty")
    try:
        resolved = _infer_shape(sizes, a.shape[d])
    except TorchRuntimeError:
        resolved = None
    if resolved is None:
        text = "[" + ", ".join(map(str, sizes)) + "]"
        raise TorchRuntimeError(
            f"unflatten: Provided sizes {text} don't multiply up to the size of dim {d} "
            f"({a.shape[d]}) in the input tensor"
        )
    return view(a, a.shape[:d] + resolved + a.shape[d + 1:])


@guarded
def expand(a: Tensor, *shape: Any) -> Tensor:
    a = _check_tensor(a, "expand")
    target = list(_shape_args(shape, "expand"))
    lead = len(target) - a.ndim
    if lead < 0:
        # (bool and bfloat16 have no legacy Tensor class: the type's toString is CPU<X>Type)
        kind = f"CPU{a.dtype.short}Type" if a.dtype.name in ("bool", "bfloat16") else \
            f"torch.{a.dtype.legacy}"
        raise TorchRuntimeError(
            f"expand({kind}{{[{', '.join(map(str, a.shape))}]}}, size="
            f"[{', '.join(map(str, target))}]): the number of sizes provided ({len(target)}) must "
            f"be greater or equal to the number of dimensions in the tensor ({a.ndim})"
        )
    requested = list(target)
    for i in reversed(range(len(target))):  # PyTorch checks from the last dimension
        n = target[i]
        if i >= lead:
            have = a.shape[i - lead]
            if n == -1:
                target[i] = have
            elif have != n and have != 1:
                raise TorchRuntimeError(
                    f"The expanded size of the tensor ({n}) must match the existing size ({have}) "
                    f"at non-singleton dimension {i}.  Target sizes: "
                    f"[{', '.join(map(str, requested))}].  Tensor sizes: "
                    f"[{', '.join(map(str, a.shape))}]"
                )
        elif n == -1:
            raise TorchRuntimeError(
                f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                f"dimension {i}"
            )
    return ExpandBackward0.apply(a, shape=tuple(target))


@guarded
def expand_as(a: Tensor, other: Tensor) -> Tensor:
    return expand(a, other.shape)


@guarded
def broadcast_to(a: Tensor, shape: Sequence[int]) -> Tensor:
    return expand(a, tuple(shape))


@guarded
def t(a: Tensor) -> Tensor:
    a = _check_tensor(a, "t")
    if a.ndim > 2:
        raise TorchRuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D"
        )
    return TBackward0.apply(a)


@guarded
def T(a: Tensor) -> Tensor:
    """The `.T` property: permute with the dimensions reversed."""
    if a.ndim == 0 and "T0" not in _once:
        _once.add("T0")
        warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
             "cases.")
    elif a.ndim not in (0, 2) and "T" not in _once:
        _once.add("T")
        warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor."
        )
    return PermuteBackward0.apply(a, dims=tuple(range(a.ndim - 1, -1, -1)))


@guarded
def mT(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise TorchRuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. Got "
            f"{a.ndim}-D tensor."
        )
    return transpose(a, -2, -1)


@guarded
def H(a: Tensor) -> Tensor:
    if a.ndim != 2:
        extra = " For batches of matrices, consider using tensor.mH" if a.ndim > 2 else ""
        raise TorchRuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {a.ndim}-D tensor.{extra}"
        )
    return transpose(a, 0, 1)


@guarded
def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    a = _check_tensor(a, "transpose")
    d0, d1 = wrap_dim(dim0, a.ndim), wrap_dim(dim1, a.ndim)
    return TransposeBackward0.apply(a, dim0=d0, dim1=d1)


swapaxes = alias(transpose, "swapaxes")
swapdims = alias(transpose, "swapdims")


@guarded
def permute(a: Tensor, *dims: Any) -> Tensor:
    a = _check_tensor(a, "permute")
    if not dims:
        raise TorchTypeError('permute() missing 1 required positional arguments: "dims"')
    order = _shape_args(dims, "permute")
    if len(order) != a.ndim:
        raise TorchRuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{a.ndim} is not equal to len(dims) = {len(order)}"
        )
    wrapped = tuple(wrap_dim(d, a.ndim) for d in order)
    if len(set(wrapped)) != len(wrapped):
        raise TorchRuntimeError("permute(): duplicate dims are not allowed.")
    return PermuteBackward0.apply(a, dims=wrapped)


@guarded
def movedim(a: Tensor, source: Any, destination: Any) -> Tensor:
    a = _check_tensor(a, "movedim")
    src = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    dst = tuple(destination) if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise TorchRuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
            f"contain the same number of dims as destination ({list(dst)} dims)")
    given = src, dst
    src = tuple(wrap_dim(d, a.ndim) for d in src)
    dst = tuple(wrap_dim(d, a.ndim) for d in dst)
    for name, wrapped, raw in (("source", src, given[0]), ("destination", dst, given[1])):
        if len(set(wrapped)) != len(wrapped):
            raise TorchRuntimeError(f"movedim: repeated dim in `{name}` ({list(raw)})")
    order = [d for d in range(a.ndim) if d not in src]
    for d_dst, d_src in sorted(zip(dst, src, strict=True)):
        order.insert(d_dst, d_src)
    return permute(a, *order)


moveaxis = alias(movedim, "moveaxis")


@guarded
def unsqueeze(a: Tensor, dim: int) -> Tensor:
    a = _check_tensor(a, "unsqueeze")
    return UnsqueezeBackward0.apply(a, dim=wrap_dim(dim, a.ndim + 1))


@guarded
def squeeze(a: Tensor, dim: Any = None, *dims: int) -> Tensor:
    a = _check_tensor(a, "squeeze")
    if dims:  # x.squeeze(0, 1): the ints are the tuple (as view's sizes are)
        dim = (dim, *dims)
    if dim is None:
        return SqueezeBackward0.apply(a, dims=tuple(range(a.ndim)))
    if isinstance(dim, (tuple, list)):
        return SqueezeBackward2.apply(a, dims=normalize_dims(tuple(dim), a.ndim))
    return SqueezeBackward1.apply(a, dims=(wrap_dim(dim, a.ndim),))


@guarded
def contiguous(a: Tensor, memory_format: Any = None) -> Tensor:
    if memory_format is None or memory_format.name == "contiguous_format":
        if a._data.flags.c_contiguous:
            return a
        return clone(a, memory_format="contiguous")
    if is_contiguous(a, memory_format):
        return a
    if memory_format.name == "preserve_format":
        raise TorchRuntimeError("preserve memory format is unsupported by the contiguous "
                                "operator")
    return clone(a, memory_format=memory_format)


@guarded
def is_contiguous(a: Tensor, memory_format: Any = None) -> bool:
    if a.device == "meta" and meta.is_broadcast(a._data):
        return True
    name = getattr(memory_format, "name", "contiguous_format")
    if name in ("channels_last", "channels_last_3d"):
        if a.ndim != (4 if name == "channels_last" else 5):
            return False
        return is_in_memory_order(a, format_order(memory_format, a.shape))
    return bool(a._data.flags.c_contiguous)


def _element_strides(a: Tensor) -> tuple[int, ...]:
    data = a._data
    if a.device == "meta" and meta.is_broadcast(a._data):  # (no memory: read as contiguous)
        return tuple(int(np.prod(data.shape[d + 1:])) for d in range(data.ndim))
    if data.size == 0 and 0 in data.strides:
        # an empty result NumPy gave zero strides (a mask that selected nothing): PyTorch's
        # empty tensors have contiguous strides, counting a 0 size as 1
        strides, step = [], 1
        for n in reversed(data.shape):
            strides.append(step)
            step *= max(n, 1)
        return tuple(reversed(strides))
    return tuple(int(s) // data.itemsize for s in data.strides)


@guarded
def stride(a: Tensor, dim: int | None = None) -> Any:
    a = _check_tensor(a, "stride")
    strides = _element_strides(a)
    return strides if dim is None else strides[wrap_dim(dim, a.ndim)]


@guarded
def storage_offset(a: Tensor) -> int:
    """Elements from the start of the storage: how far into its base's memory a view begins."""
    a = _check_tensor(a, "storage_offset")
    data = a._data
    root = data
    # (through as_strided's DummyArray too: diagonal, unfold and as_strided views)
    while hasattr(getattr(root, "base", None), "__array_interface__"):
        root = root.base
    if not isinstance(data, np.ndarray):
        return 0
    start = data.__array_interface__["data"][0]
    return (start - root.__array_interface__["data"][0]) // data.itemsize


@guarded
def select(a: Tensor, dim: int, index: int) -> Tensor:
    a = _check_tensor(a, "select")
    if a.ndim == 0:
        raise TorchIndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if index < -size or index >= size:
        raise TorchIndexError(
            f"select(): index {index} out of range for tensor of size "
            f"[{', '.join(map(str, a.shape))}] at dimension {d}"
        )
    return SelectBackward0.apply(a, dim=d, index=index % size)


def slice(a: Tensor, dim: int, start: int, end: int, step: int = 1) -> Tensor:  # noqa: A001
    """aten::slice with already clamped, non-negative bounds."""
    return SliceBackward0.apply(a, dim=dim, start=start, end=end, step=step)


@guarded
def narrow(a: Tensor, dim: int, start: int, length: int) -> Tensor:
    a = _check_tensor(a, "narrow")
    if a.ndim == 0:
        raise TorchRuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    if start < -size or start > size:
        raise TorchIndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    start %= builtins.max(size, 1) if start < 0 else size + 1
    if length < 0 or start + length > size:
        raise TorchRuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({size})."
        )
    return SliceBackward0.apply(a, dim=d, start=start, end=start + length, step=1)


@guarded
def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """split/chunk pieces: views of `a` made by one SplitBackward0 (SplitWithSizesBackward0 for
    a list of sizes)."""
    a = _check_tensor(a, "split")
    if a.ndim == 0:
        raise TorchRuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    step = as_int(split_size_or_sections)
    if step is not None:
        if step < 0:
            raise TorchRuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        if step == 0 and size != 0:
            raise TorchRuntimeError(
                "split_size can only be 0 if dimension size is 0, but got dimension size of "
                f"{size}"
            )
        given, step = step, builtins.max(step, 1)
        bounds = [(s, builtins.min(s + step, size)) for s in range(0, size, step)] or [(0, 0)]
    else:
        sections = list(split_size_or_sections)
        if builtins.sum(sections) != size:
            raise TorchRuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={sections}"
            )
        bounds, offset = [], 0
        for s in sections:
            bounds.append((offset, offset + s))
            offset += s
        return SplitWithSizesBackward0.apply_views(a, dim=d, bounds=bounds)
    return SplitBackward0.apply_views(a, dim=d, bounds=bounds, split_size=given)


@guarded
def split_with_sizes(a: Tensor, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """split with a list of sizes (SplitWithSizesBackward0 pieces)."""
    a = _check_tensor(a, "split_with_sizes")
    if not isinstance(split_sizes, (list, tuple)) or not builtins.all(
            as_int(n) is not None for n in split_sizes):
        raise TorchTypeError("split_with_sizes(): argument 'split_sizes' (position 1) must be "
                             f"tuple of ints, not {_type_name(split_sizes)}")
    return split(a, [as_int(n) for n in split_sizes], dim)  # type: ignore[no-any-return]


@guarded
def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    if a.ndim == 0:
        raise TorchRuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise TorchRuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    step = (size + chunks - 1) // chunks if size else 1
    if size == 0:  # PyTorch splits an empty dimension with sizes [0, ...]
        return SplitWithSizesBackward0.apply_views(a, dim=d, bounds=[(0, 0)] * chunks)
    return split(a, step, d)


@guarded
def unbind(a: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    if a.ndim == 0:
        raise TorchIndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, a.ndim)
    return UnbindBackward0.apply_views(a, dim=d)
