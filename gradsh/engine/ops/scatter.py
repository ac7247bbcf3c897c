"""scatter, scatter_add and scatter_reduce (and their in-place forms): ATen's scatter checks in
its order, then the autograd nodes of functions/indexing.py."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError, warn
from gradsh.engine.functions.indexing import (
    ScatterAddBackward0,
    ScatterBackward0,
    ScatterBackward1,
    ScatterReduceBackward0,
    ScatterReduceNotImplemented,
)
from gradsh.engine.inplace import check_no_overlap
from gradsh.engine.ops.arguments import _check_tensor, apply_node, wrap_dim
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.indexing import _check_gather_bounds, _index_tensor
from gradsh.engine.tensor import Tensor, _once

__all__ = ["scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce",
           "scatter_reduce_"]


def _scatter_checks(a: Tensor, dim: int, index: Any, src: Any,
                    inplace: bool = False) -> tuple[int, Tensor]:
    """ATen's scatter_meta_impl, in its order (every variant calls itself "scatter"): the dim,
    the index's and src's dtypes, their numbers of dimensions (0-d counting as 1-d) and sizes,
    in place src's overlap with self, then the kernel's bounds check. An empty index skips the
    index's checks."""
    d = wrap_dim(dim, a.ndim)
    tensor_src = isinstance(src, Tensor)
    if isinstance(index, Tensor) and index.numel() == 0:
        if tensor_src and src.dtype is not a.dtype:
            raise TorchRuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return d, index if index.dtype is dtypes.int64 else to(index, dtypes.int64)
    index = _index_tensor(index, "scatter")
    if tensor_src and src.dtype is not a.dtype:
        raise TorchRuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    ndim = max(index.ndim, 1)
    if ndim != max(a.ndim, 1):
        raise TorchRuntimeError("Index tensor must have the same number of dimensions as self "
                                "tensor")
    sizes = [index.shape[i] if index.ndim else 1 for i in range(ndim)]
    own = [a.shape[i] if a.ndim else 1 for i in range(ndim)]
    wrong = any(i != d and sizes[i] > own[i] for i in range(ndim))
    if tensor_src:
        for i in range(ndim):  # src.size(i): a src with fewer dims is an IndexError here
            if wrong:
                break
            if src.ndim and i >= src.ndim:
                raise TorchIndexError(f"Dimension out of range (expected to be in range of "
                                      f"[{-src.ndim}, {src.ndim - 1}], but got {i})")
            wrong = sizes[i] > (src.shape[i] if src.ndim else 1)
        if ndim != max(src.ndim, 1):
            raise TorchRuntimeError("Index tensor must have the same number of dimensions as "
                                    "src tensor")
        if wrong:
            raise TorchRuntimeError(
                f"Expected index {list(index.shape)} to be no larger than self "
                f"{list(a.shape)} apart from dimension {d} and to be no larger size than src "
                f"{list(src.shape)}")
    elif wrong:
        raise TorchRuntimeError(f"Expected index {list(index.shape)} to be no larger than self "
                                f"{list(a.shape)} apart from dimension {d}")
    if inplace:
        check_no_overlap(a, src)
    _check_gather_bounds(a, d, index)
    return d, index


def _scatter(a: Tensor, dim: int, index: Tensor, src: Any, value: Any, fname: str,
             inplace: bool, reduce: str | None = None) -> Tensor:
    a = _check_tensor(a, fname)
    if src is None:
        src = value
    d, index = _scatter_checks(a, dim, index, src, inplace)
    if reduce is not None:
        return _scatter_with_reduce(a, d, index, src, reduce, inplace)
    if isinstance(src, Tensor):
        return apply_node(inplace, ScatterBackward0, a, src, dim=d, index=index)
    return apply_node(inplace, ScatterBackward1, a, dim=d, index=index, value=src)


def _scatter_with_reduce(a: Tensor, dim: int, index: Tensor, src: Any, reduce: str,
                         inplace: bool) -> Tensor:
    """scatter(..., reduce="add" | "multiply"): no derivative in PyTorch (a NotImplemented
    node), and a tensor src is deprecated, which it says once."""
    if reduce not in ("add", "multiply"):
        raise TorchRuntimeError("reduce argument must be either add or multiply.")
    operands = (a, src) if isinstance(src, Tensor) else (a,)
    if len(operands) == 2 and "scatter_reduce" not in _once:
        _once.add("scatter_reduce")
        warn("The reduce argument of torch.scatter with Tensor src is deprecated and will be "
             "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
             "reduction options.")
    inputs = operands if inplace else tuple(t for t in operands if t.requires_grad) or (a,)
    return apply_node(inplace, ScatterReduceNotImplemented, *inputs, a=a, dim=dim, index=index,
                      src=src, reduce=reduce)


@guarded
def scatter(a: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None, *,
            reduce: str | None = None) -> Tensor:
    return _scatter(a, dim, index, src, value, "scatter", inplace=False, reduce=reduce)


@guarded
def scatter_(a: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None, *,
             reduce: str | None = None) -> Tensor:
    return _scatter(a, dim, index, src, value, "scatter_", inplace=True, reduce=reduce)


def _scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor, fname: str,
                 inplace: bool) -> Tensor:
    a = _check_tensor(a, fname)
    src = _check_tensor(src, fname, "src", 3 if inplace else 4)  # a method counts from dim
    d, index = _scatter_checks(a, dim, index, src, inplace)
    return apply_node(inplace, ScatterAddBackward0, a, src, dim=d, index=index)


@guarded
def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add(a, dim, index, src, "scatter_add", inplace=False)


@guarded
def scatter_add_(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add(a, dim, index, src, "scatter_add_", inplace=True)


def _scatter_reduce(a: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
                    include_self: bool, fname: str, inplace: bool) -> Tensor:
    a = _check_tensor(a, fname)
    src = _check_tensor(src, fname, "src", 3 if inplace else 4)
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # ATen's older names
    if reduce not in ("sum", "prod", "mean", "amax", "amin"):
        raise TorchRuntimeError("reduce argument must be either sum, prod, mean, amax or amin, "
                                f"got {reduce}")
    d, index = _scatter_checks(a, dim, index, src, inplace)
    return apply_node(inplace, ScatterReduceBackward0, a, src, dim=d, index=index,
                      reduce=reduce, include_self=include_self)


@guarded
def scatter_reduce(a: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    return _scatter_reduce(a, dim, index, src, reduce, include_self, "scatter_reduce", False)


@guarded
def scatter_reduce_(a: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    return _scatter_reduce(a, dim, index, src, reduce, include_self, "scatter_reduce_", True)
