"""select_scatter, slice_scatter, diagonal_scatter, narrow_copy, put/put_, and the view-free
helpers unique_consecutive and new_empty_strided."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.functions.scatter_views import (
    DiagonalScatterBackward0,
    NarrowCopyBackward0,
    PutBackward0,
    SelectScatterBackward0,
    SliceScatterBackward0,
    diagonal_key,
)
from gradsh.engine.ops.arguments import _check_tensor, _plain, wrap_dim
from gradsh.engine.ops.creation import new_empty
from gradsh.engine.ops.diagonal import diagonal
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import narrow, select
from gradsh.engine.tensor import Tensor, apply_inplace
from gradsh.engine.inplace import check_no_overlap

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "narrow_copy", "put", "put_",
           "unique_consecutive", "new_empty_strided"]


def _check_src(src: Tensor, view: Tensor) -> None:
    if tuple(src.shape) != tuple(view.shape):
        raise TorchRuntimeError(f"expected src to have a size equal to the slice of self. src "
                                f"size = {list(src.shape)}, slice size = {list(view.shape)}")


@guarded
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "select_scatter")
    src = _check_tensor(src, "select_scatter", "src", 2)
    view = select(input.detach(), dim, index)
    _check_src(src, view)
    d = wrap_dim(dim, input.ndim)
    key = (builtins.slice(None),) * d + (int(index) % input.shape[d],)
    return SelectScatterBackward0.apply(input, src, key=key)  # type: ignore[no-any-return]


@guarded
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None,  # noqa
                  end: int | None = None, step: int = 1) -> Tensor:
    input = _check_tensor(input, "slice_scatter")
    src = _check_tensor(src, "slice_scatter", "src", 2)
    d = wrap_dim(dim, input.ndim)
    if step <= 0:
        raise TorchRuntimeError("slice step must be positive")
    key = (builtins.slice(None),) * d + (builtins.slice(start, end, step),)
    _check_src(src, input.detach()[key])
    return SliceScatterBackward0.apply(input, src, key=key)  # type: ignore[no-any-return]


@guarded
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,  # noqa: A002
                     dim2: int = 1) -> Tensor:
    input = _check_tensor(input, "diagonal_scatter")
    src = _check_tensor(src, "diagonal_scatter", "src", 2)
    _check_src(src, diagonal(input.detach(), offset, dim1, dim2))
    key = diagonal_key(tuple(input.shape), int(offset), wrap_dim(dim1, input.ndim),
                       wrap_dim(dim2, input.ndim))
    return DiagonalScatterBackward0.apply(input, src, key=key)  # type: ignore[no-any-return]


@guarded
def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "narrow_copy")
    narrow(input.detach(), dim, start, length)  # narrow's errors
    d = wrap_dim(dim, input.ndim)
    begin = start % input.shape[d] if start < 0 else start
    key = (builtins.slice(None),) * d + (builtins.slice(begin, begin + length),)
    return NarrowCopyBackward0.apply(input, key=key)  # type: ignore[no-any-return]


def _put_index(input: Tensor, index: Tensor, source: Tensor) -> np.ndarray:
    index = _check_tensor(index, "put", "index", 2)
    if index.dtype.is_floating_point:
        raise TorchRuntimeError(f"put_(): Expected a long tensor for index, but got "
                                f"{index.dtype.short}")
    if input.dtype is not source.dtype:
        raise TorchRuntimeError(f"put_(): self and source expected to have the same dtype, but "
                                f"got self.dtype = {input.dtype.short} and source.dtype = "
                                f"{source.dtype.short}")
    if index.numel() != source.numel():
        raise TorchRuntimeError(f"put_(): Expected source and index to have the same number of "
                                f"elements, but got source.numel() = {source.numel()}, "
                                f"index.numel() = {index.numel()}")
    flat = index._data.reshape(-1).astype(np.int64)
    n = input.numel()
    bad = (flat < -n) | (flat >= n)
    if bad.any():
        raise TorchIndexError(f"out of range: tried to access index {int(flat[bad][0])} on a "
                              f"tensor of {n} elements.")
    return np.where(flat < 0, flat + n, flat)


@guarded
def put(input: Tensor, index: Tensor, source: Tensor,  # noqa: A002
        accumulate: bool = False) -> Tensor:
    input = _check_tensor(input, "put")
    source = _check_tensor(source, "put", "source", 3)
    return PutBackward0.apply(input, source, index=_put_index(input, index, source),  # type: ignore
                              accumulate=bool(accumulate))


@guarded
def put_(input: Tensor, index: Tensor, source: Tensor,  # noqa: A002
         accumulate: bool = False) -> Tensor:
    source = _check_tensor(source, "put_", "source", 3)
    flat = _put_index(input, index, source)
    check_no_overlap(input, source)
    return apply_inplace(PutBackward0, input, source, index=flat, accumulate=bool(accumulate))


@guarded
def unique_consecutive(input: Tensor, return_inverse: bool = False,  # noqa: A002
                       return_counts: bool = False, dim: int | None = None) -> Any:
    """Consecutive duplicates collapsed: of the flattened input, or the slices along `dim`
    (a slice equal to the one before it, element by element with !=, so NaN never is)."""
    input = _check_tensor(input, "unique_consecutive")
    data = input._data
    if dim is None:
        flat = data.reshape(-1)
        starts = np.ones(flat.shape, dtype=bool)
        if flat.size:
            starts[1:] = flat[1:] != flat[:-1]
        values = np.ascontiguousarray(flat[starts])
        inverse_shape = input.shape
    else:
        if input.ndim == 0:
            raise TorchIndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        d = wrap_dim(dim, input.ndim)
        if data.size == 0:
            if data.shape[d] != 0:
                raise TorchRuntimeError("There are 0 sized dimensions, and they aren't "
                                        "selected, so unique cannot be applied")
            found = [_plain(data.copy(), input.device)] + [
                _plain(np.empty(0, np.int64), input.device)
                for _ in range(return_inverse + return_counts)]
            return found[0] if len(found) == 1 else tuple(found)
        moved = np.moveaxis(data, d, 0)
        rows = moved.reshape(moved.shape[0], -1)
        starts = np.ones(rows.shape[0], dtype=bool)
        if rows.shape[0]:
            starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
        values = np.ascontiguousarray(np.moveaxis(moved[starts], 0, d))
        inverse_shape = (rows.shape[0],)
    outputs = [_plain(values, input.device)]
    if return_inverse:
        outputs.append(_plain((np.cumsum(starts) - 1).astype(np.int64).reshape(inverse_shape),
                              input.device))
    if return_counts:
        positions = np.flatnonzero(np.append(starts, True))
        outputs.append(_plain(np.diff(positions).astype(np.int64), input.device))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@guarded
def new_empty_strided(input: Tensor, size: Any, stride: Any, *, dtype: Any = None,  # noqa: A002
                      device: Any = None, requires_grad: bool = False, layout: Any = None,
                      pin_memory: bool = False) -> Tensor:
    """A new uninitialised tensor of `size` (zeros, contiguous: gradsh does not lay out new
    tensors by `stride`)."""
    return new_empty(input, tuple(size), dtype=dtype, device=device,  # type: ignore
                     requires_grad=requires_grad)
