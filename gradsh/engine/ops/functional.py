"""What PyTorch composes from other ops, in Python (torch/functional.py: atleast_*d,
broadcast_tensors, cartesian_prod, tensordot) or in ATen (hstack, tile, repeat_interleave,
tensor_split, diff ...), built from the same ops so the graphs look the same."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import dtypes, limits
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.common import infer_size
from gradsh.engine.ops.arguments import _check_tensor, as_int, wrap_dim
from gradsh.engine.ops.arithmetic import sub
from gradsh.engine.ops.copies import clone
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.indexing import gather, index_select, nonzero
from gradsh.engine.ops.joining import cat, flip, meshgrid, repeat, stack
from gradsh.engine.ops.linalg import dot, mm
from gradsh.engine.ops.reductions import sum
from gradsh.engine.ops.shape import (
    contiguous,
    expand,
    flatten,
    narrow,
    permute,
    reshape,
    unsqueeze,
    view,
)
from gradsh.engine.ops.sorting import sort
from gradsh.engine.pytypes import Size
from gradsh.engine.tensor import Tensor

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_tensors", "broadcast_shapes",
    "cartesian_prod", "tensordot", "hstack", "vstack", "row_stack", "dstack", "column_stack",
    "tile", "ravel", "fliplr", "flipud", "repeat_interleave", "tensor_split", "hsplit",
    "vsplit", "dsplit", "take_along_dim", "sum_to_size", "diff", "msort", "argwhere",
]


def _tensors(fname: str, tensors: tuple[Any, ...]) -> tuple[tuple[Tensor, ...], bool]:
    """The tensors of `f(a, b)` or `f((a, b))`, and whether there was exactly one tensor."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        return tuple(_check_tensor(t, fname) for t in tensors[0]), False
    return tuple(_check_tensor(t, fname) for t in tensors), len(tensors) == 1


def _atleast(fname: str, tensors: tuple[Any, ...], ndim: int) -> Any:
    items, single = _tensors(fname, tensors)
    results = []
    for t in items:
        if t.ndim == 0:
            t = reshape(t, (1,) * ndim)
        elif ndim >= 2 and t.ndim == 1:
            t = unsqueeze(t, 0)
            if ndim == 3:
                t = unsqueeze(t, -1)
        elif ndim == 3 and t.ndim == 2:
            t = unsqueeze(t, -1)
        results.append(t)
    return results[0] if single else tuple(results)


@guarded(tensor_first=False)
def atleast_1d(*tensors: Any) -> Any:
    return _atleast("atleast_1d", tensors, 1)


@guarded(tensor_first=False)
def atleast_2d(*tensors: Any) -> Any:
    return _atleast("atleast_2d", tensors, 2)


@guarded(tensor_first=False)
def atleast_3d(*tensors: Any) -> Any:
    return _atleast("atleast_3d", tensors, 3)


@guarded(tensor_first=False)
def broadcast_shapes(*shapes: Any) -> Size:
    """torch.broadcast_shapes: PyTorch's Python version (torch._refs._broadcast_shapes), with
    its own errors, which name the argument and print the shape as it was given."""
    given = [(s,) if as_int(s) is not None else s for s in shapes if s is not None]
    if not given:
        return Size(())
    for shape in given:
        if not isinstance(shape, Sequence):
            raise TorchRuntimeError("Input shapes should be of type ints, a tuple of ints, or a "
                                    f"list of ints, got {shape}")
    common = [1] * builtins.max(len(shape) for shape in given)
    for arg_idx, shape in enumerate(given):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise TorchValueError("Attempting to broadcast a dimension with negative "
                                          "length!")
                common[idx] = shape[idx]
            if shape[idx] != 1 and common[idx] != shape[idx]:
                raise TorchRuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                    f"Mismatching argument at index {arg_idx} had {shape}; but expected shape "
                    f"should be broadcastable to {common}")
    return Size(common)


@guarded(tensor_first=False)
def broadcast_tensors(*tensors: Any) -> tuple[Tensor, ...]:
    items, _ = _tensors("broadcast_tensors", tensors)
    result: tuple[int, ...] = ()
    for t in items:  # ATen's infer_size, with its "The size of tensor a ..." error
        result = infer_size(result, tuple(t.shape))
    shape = Size(result)
    return tuple(t if t.shape == shape else expand(t, shape) for t in items)


@guarded(tensor_first=False)
def cartesian_prod(*tensors: Any) -> Tensor:
    items, _ = _tensors("cartesian_prod", tensors)
    if len(items) == 1:
        return items[0]
    grids = meshgrid(*items, indexing="ij")
    return stack([flatten(g) for g in grids], dim=1)


def _tensordot_dims(a: Tensor, b: Tensor, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    count = as_int(dims)
    if count is not None:
        if count < 0:
            raise TorchRuntimeError(f"tensordot expects dims >= 0, but got dims={count}")
        if count > builtins.min(a.ndim, b.ndim):
            raise TorchRuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got "
                                    f"dims={count}")
        return list(range(-count, 0)), list(range(count))  # (ATen's, as its errors name them)
    dims_a, dims_b = dims
    dims_a = [dims_a] if as_int(dims_a) is not None else list(dims_a)
    dims_b = [dims_b] if as_int(dims_b) is not None else list(dims_b)
    for d in dims_a:
        wrap_dim(d, a.ndim)
    for d in dims_b:
        wrap_dim(d, b.ndim)
    return dims_a, dims_b  # (as given: the size error names them so)


@guarded
def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """a and b contracted over dims: as ATen's tensordot, a permute and reshape of each, one
    mm, and a reshape to the free dimensions."""
    b = _check_tensor(b, "tensordot", "other", 2)
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise TorchRuntimeError("both dimension lists should have same length")
    for da, db in zip(dims_a, dims_b, strict=True):
        # a contracted dimension of size 1 broadcasts: the other side is summed over it first
        if b.shape[db] == 1:
            a = sum(a, wrap_dim(da, a.ndim), True)
        elif a.shape[da] == 1:
            b = sum(b, wrap_dim(db, b.ndim), True)
        elif a.shape[da] != b.shape[db]:
            raise TorchRuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[da]} in dim "
                f"{da} and second has size {b.shape[db]} in dim {db}")
    dims_a = [wrap_dim(d, a.ndim) for d in dims_a]
    dims_b = [wrap_dim(d, b.ndim) for d in dims_b]
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    size = 1
    for d in dims_a:
        size *= a.shape[d]
    result = _sizes(a, free_a) + _sizes(b, free_b)
    left, right = permute(a, *free_a, *dims_a), permute(b, *dims_b, *free_b)
    if _count(result) == 1 and size:  # one number: ATen takes the dot product
        return reshape(dot(reshape(left, (size,)), reshape(right, (size,))), result)
    return reshape(mm(reshape(left, (-1, size)), reshape(right, (size, -1))), result)


def _sizes(t: Tensor, dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(t.shape[d] for d in dims)


def _count(shape: Sequence[int]) -> int:
    n = 1
    for size in shape:
        n *= size
    return n


# -- stacking ---------------------------------------------------------------------------------


@guarded(tensor_first=False)
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    items = atleast_1d(tuple(tensors))
    return cat(items, 0 if items[0].ndim == 1 else 1)


@guarded(tensor_first=False)
def vstack(tensors: Sequence[Tensor]) -> Tensor:
    return cat(atleast_2d(tuple(tensors)), 0)


row_stack = vstack


@guarded(tensor_first=False)
def dstack(tensors: Sequence[Tensor]) -> Tensor:
    return cat(atleast_3d(tuple(tensors)), 2)


@guarded(tensor_first=False)
def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    columns = [t.reshape(t.numel(), 1) if t.ndim <= 1 else t for t in tensors]
    return cat(columns, 1)


# -- reshaping and splitting -------------------------------------------------------------------


@guarded
def tile(a: Tensor, *dims: Any) -> Tensor:
    """repeat, with dims padded by ones on the left to a's rank (and a's shape padded)."""
    reps = list(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else list(dims)
    if len(reps) < a.ndim:
        reps = [1] * (a.ndim - len(reps)) + reps
    return repeat(a, reps)


@guarded
def ravel(a: Tensor) -> Tensor:
    """ATen's contiguous().view(-1): a view of the input or of its contiguous copy (reshape
    would keep a viewable non-contiguous layout, x[:, ::2].ravel() of stride 2)."""
    return view(contiguous(a), (-1,))


@guarded
def fliplr(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise TorchRuntimeError("Input must be >= 2-d.")
    return flip(a, 1)


@guarded
def flipud(a: Tensor) -> Tensor:
    if a.ndim < 1:
        raise TorchRuntimeError("Input must be >= 1-d.")
    return flip(a, 0)


@guarded
def repeat_interleave(a: Tensor, repeats: Any = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element (or slice along dim) repeated: an int repeats as ATen composes it
    (unsqueeze, expand, clone, view); a tensor of repeats through index_select. Given only a
    tensor of repeats, each index repeated that many times (repeat_interleave(repeats))."""
    if repeats is None and dim is None and isinstance(a, Tensor) and \
            not a.dtype.is_floating_point:
        if a.ndim != 1:
            raise TorchRuntimeError("repeat_interleave only accept 1D vector as repeat")
        indices = Tensor._make(np.arange(a.numel(), dtype=a._data.dtype), a.device)
        return repeat_interleave(indices, a, 0, output_size=output_size)
    if dim is None:
        a, d = flatten(a), 0
    else:
        d = wrap_dim(dim, a.ndim)
    count = as_int(repeats) if not (isinstance(repeats, Tensor) and repeats.ndim) else None
    if count is not None:
        if count < 0:
            raise TorchRuntimeError("repeats can not be negative")
        shape = list(a.shape)
        if output_size is not None and output_size != shape[d] * count:
            raise TorchRuntimeError(f"repeat_interleave: Invalid output_size, expected "
                                    f"{shape[d] * count} but got {output_size}")
        expanded = expand(unsqueeze(a, d + 1), *shape[:d + 1], count, *shape[d + 1:])
        shape[d] *= count
        return view(clone(expanded, memory_format="contiguous"), *shape)
    counts = repeats._data.reshape(-1)
    if counts.size != a.shape[d]:
        raise TorchRuntimeError("repeats must have the same size as input along dim")
    total = int(counts.astype(np.int64).sum())
    if output_size is not None and output_size != total:
        raise TorchRuntimeError("allocated size does not match required size")
    limits.check((total,), 8)
    positions = Tensor._make(np.repeat(np.arange(counts.size), counts.astype(np.int64)),
                             a.device)
    return index_select(a, d, positions)


def _split_points(size: int, sections: Any) -> list[int]:
    count = as_int(sections)
    if count is not None:
        if count <= 0:
            raise TorchRuntimeError(f"number of sections must be larger than 0, got {count}")
        base, extra = divmod(size, count)
        points, at = [], 0
        for i in builtins.range(count - 1):
            at += base + (1 if i < extra else 0)
            points.append(at)
        return points
    return [builtins.min(builtins.max(int(p), 0), size) for p in sections]


@guarded
def tensor_split(a: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d]
    sections = indices_or_sections
    if isinstance(sections, Tensor):
        sections = sections.tolist()
    points = _split_points(size, sections)
    bounds = [0, *points, size]
    return tuple(narrow(a, d, builtins.min(lo, size), builtins.max(hi - lo, 0))
                 for lo, hi in zip(bounds, bounds[1:]))


def _directional_split(a: Tensor, sections: Any, dim: int, fname: str, rank: int) -> Any:
    if a.ndim < rank:
        raise TorchRuntimeError(f"torch.{fname} requires a tensor with at least {rank} "
                                f"dimension, but got a tensor with {a.ndim} dimensions!")
    count = as_int(sections)
    if count is not None and count and a.shape[dim] % count:
        raise TorchRuntimeError(f"torch.{fname} attempted to split along dimension {dim}, but "
                                f"the size of the dimension {a.shape[dim]} is not divisible by "
                                f"the split_size {count}!")
    return tensor_split(a, sections, dim)


@guarded
def hsplit(a: Tensor, sections: Any) -> tuple[Tensor, ...]:
    return _directional_split(a, sections, 1 if a.ndim > 1 else 0, "hsplit", 1)


@guarded
def vsplit(a: Tensor, sections: Any) -> tuple[Tensor, ...]:
    return _directional_split(a, sections, 0, "vsplit", 2)


@guarded
def dsplit(a: Tensor, sections: Any) -> tuple[Tensor, ...]:
    return _directional_split(a, sections, 2, "dsplit", 3)


@guarded
def take_along_dim(a: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    if isinstance(indices, Tensor) and isinstance(a, Tensor):
        if indices.dtype is not dtypes.int64:
            raise TorchRuntimeError("torch.take_along_dim(): dtype of indices should be Long "
                                    f"but got {indices.dtype.short}")
        if dim is not None and a.ndim != indices.ndim:
            raise TorchRuntimeError(
                "torch.take_along_dim(): input and indices should have the same number of "
                f"dimensions, but got {a.ndim} dimensions for input, and {indices.ndim} "
                "dimensions for indices")
    if dim is None:
        return gather(flatten(a), 0, flatten(indices))
    d = wrap_dim(dim, a.ndim)
    shape = list(broadcast_shapes(a.shape[:d] + (1,) + a.shape[d + 1:],
                                  indices.shape[:d] + (1,) + indices.shape[d + 1:]))
    source_shape, index_shape = list(shape), list(shape)
    source_shape[d], index_shape[d] = a.shape[d], indices.shape[d]
    # ATen expands both, even to their own shape (an ExpandBackward0 in the graph)
    return gather(expand(a, *source_shape), d, expand(indices, *index_shape))


@guarded
def sum_to_size(a: Tensor, *size: Any) -> Tensor:
    target = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    if infer_size(tuple(target), a.shape) != a.shape:
        raise TorchRuntimeError(f"size {{{list(target)}}} is not expandable to size "
                                f"{{{list(a.shape)}}}.")
    lead = a.ndim - len(target)
    dims = tuple(range(lead)) + tuple(i + lead for i, n in enumerate(target)
                                      if n == 1 and a.shape[i + lead] != 1)
    result = sum(a, dims, keepdim=True) if dims else a
    return view(result, *target) if lead else result


@guarded
def diff(a: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    d = wrap_dim(dim, a.ndim)
    if prepend is not None or append is not None:
        a = cat([t for t in (prepend, a, append) if t is not None], d)
    for _ in builtins.range(n):
        length = a.shape[d] - 1
        if length <= 0:
            return narrow(a, d, 0, 0)
        later, earlier = narrow(a, d, 1, length), narrow(a, d, 0, length)
        a = (later ^ earlier) if a.dtype is dtypes.bool_ else sub(later, earlier)
    return a


@guarded
def msort(a: Tensor) -> Tensor:
    return sort(a, 0).values


@guarded
def argwhere(a: Tensor) -> Tensor:
    return nonzero(a)
