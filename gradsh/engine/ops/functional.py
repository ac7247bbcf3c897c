"""What PyTorch composes in Python (torch/functional.py): atleast_*d, broadcast_tensors,
cartesian_prod, tensordot, from the ops PyTorch composes them of, so the graphs look the same."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import infer_size
from gradsh.engine.ops.arguments import _check_tensor, as_int, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.joining import meshgrid, stack
from gradsh.engine.ops.linalg import dot, mm
from gradsh.engine.ops.shape import expand, flatten, permute, reshape, unsqueeze
from gradsh.engine.pytypes import Size
from gradsh.engine.tensor import Tensor

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_tensors", "broadcast_shapes",
    "cartesian_prod", "tensordot",
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
    result: tuple[int, ...] = ()
    for shape in shapes:
        size = as_int(shape)
        result = infer_size(result, (size,) if size is not None else tuple(shape))
    return Size(result)


@guarded(tensor_first=False)
def broadcast_tensors(*tensors: Any) -> tuple[Tensor, ...]:
    items, _ = _tensors("broadcast_tensors", tensors)
    shape = broadcast_shapes(*(t.shape for t in items))
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
        return list(range(a.ndim - count, a.ndim)), list(range(count))
    dims_a, dims_b = dims
    dims_a = [dims_a] if as_int(dims_a) is not None else list(dims_a)
    dims_b = [dims_b] if as_int(dims_b) is not None else list(dims_b)
    return ([wrap_dim(d, a.ndim) for d in dims_a], [wrap_dim(d, b.ndim) for d in dims_b])


@guarded
def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """a and b contracted over dims: as ATen's tensordot, a permute and reshape of each, one
    mm, and a reshape to the free dimensions."""
    b = _check_tensor(b, "tensordot", "other", 2)
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise TorchRuntimeError("both dimension lists should have same length")
    for da, db in zip(dims_a, dims_b, strict=True):
        if a.shape[da] != b.shape[db]:
            raise TorchRuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[da]} in dim "
                f"{da} and second has size {b.shape[db]} in dim {db}")
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
