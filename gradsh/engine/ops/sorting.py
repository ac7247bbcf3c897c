"""Sorting and order statistics: sort, argsort, topk, median, kthvalue, mode, unique, bincount."""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, meta
from gradsh.engine.dtypes import is_float_array_dtype
from gradsh.engine.exceptions import TorchIndexError, TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.common import c_order, preserve_layout, xp_of
from gradsh.engine.functions.sorting import (
    KthvalueBackward0,
    MedianBackward0,
    MedianBackward1,
    ModeBackward0,
    NanmedianBackward0,
    NanmedianBackward1,
    SortBackward0,
    TopkBackward0,
    Unique2Backward0,
    UniqueDimBackward0,
    _kth_smallest,
)
from gradsh.engine.ops.arguments import RETURN_TYPES, _check_tensor, _new, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor
from gradsh.engine.vecmath import stdsort

__all__ = ["sort", "argsort", "topk", "median", "nanmedian", "kthvalue", "mode", "unique",
           "bincount"]


def _stable_order(data: Any, dim: int, descending: bool) -> Any:
    """Stable sorting indices along dim, NaN counted as the largest value (PyTorch's order),
    computed where the data lives."""
    xp = xp_of(data)
    if data.ndim == 0:
        return xp.zeros((), dtype=np.int64)
    if not descending:
        return xp.argsort(data, axis=dim, kind="stable").astype(np.int64)
    if is_float_array_dtype(data.dtype):
        # two stable passes: by value descending, then NaN first
        nan = xp.isnan(data)
        first = xp.argsort(xp.where(nan, 0, -data), axis=dim, kind="stable")
        second = xp.argsort(xp.take_along_axis(~nan, first, axis=dim), axis=dim, kind="stable")
        return xp.take_along_axis(first, second, axis=dim).astype(np.int64)
    key = ~data if data.dtype.kind == "b" else -data.astype(np.float64)
    return xp.argsort(key, axis=dim, kind="stable").astype(np.int64)


# ATen sorts a 1-d integer tensor of at least this many elements in ascending order with
# fbgemm's radix sort, which is stable (at::internal::GRAIN_SIZE).
_RADIX_FROM = 32768


def _sort_order(data: Any, dim: int, descending: bool, stable: bool = False) -> Any:
    """The indices torch.sort leaves along dim: stable=True keeps ties in index order; the
    default runs std::sort, which reorders ties in rows of more than 16 (vecmath/stdsort.py):
    those rows are sorted again with its steps."""
    order = _stable_order(data, dim, descending)
    if stable or data.ndim == 0 or data.shape[dim] <= stdsort.THRESHOLD \
            or xp_of(data) is not np:
        return order
    if (data.ndim == 1 and not descending and data.dtype.kind in "iu"
            and data.size >= _RADIX_FROM):
        return order
    keys = np.moveaxis(data, dim, -1)
    rows = np.moveaxis(order, dim, -1)
    tied = stdsort.has_ties(np.take_along_axis(keys, rows, axis=-1))
    if not tied.any():
        return order
    rows = rows.copy()
    for at in map(tuple, np.argwhere(tied)):
        rows[at] = stdsort.order(keys[at], descending)
    return np.ascontiguousarray(np.moveaxis(rows, -1, dim))


@guarded
def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    a = _check_tensor(a, "sort")
    if a.dtype.is_complex:
        raise TorchRuntimeError(" Sort does not support complex dtypes on CPU")
    d = wrap_dim(dim, a.ndim)
    # (values and indices laid out as the input, as ATen's sort allocates them)
    indices = preserve_layout(_sort_order(a._data, d, descending, stable), a._data)
    values = SortBackward0.apply(a, dim=d, indices=indices)
    return RETURN_TYPES["sort"](values, Tensor._make(indices, a.device))


@guarded
def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    a = _check_tensor(a, "argsort")
    order = _sort_order(a._data, wrap_dim(dim, a.ndim), descending, stable)
    return Tensor._make(preserve_layout(order, a._data), a.device)


def _topk_order(data: Any, dim: int, k: int, largest: bool, sorted_: bool) -> Any:
    """The indices ATen's CPU topk returns along dim: the first k of the sorted order, except
    where its partial sort or selection leaves another (ties; sorted=False), redone with its
    steps there (vecmath/stdsort.topk_order)."""
    order = _stable_order(data, dim, largest)
    if data.ndim == 0:
        return order
    first_k = (builtins.slice(None),) * dim + (builtins.slice(0, k),)
    if xp_of(data) is not np or k == 0:
        return c_order(order[first_k]) if xp_of(data) is np else xp_of(order).ascontiguousarray(
            order[first_k])
    keys = np.moveaxis(data, dim, -1)
    rows = np.moveaxis(order, dim, -1)
    n = keys.shape[-1]
    if not sorted_ and k * 64 > n and n > 1:
        redo = np.ones(keys.shape[:-1], bool)  # nth_element's order is not the sorted one
    else:
        redo = stdsort.has_ties(np.take_along_axis(keys, rows, axis=-1))
    out = np.array(rows[..., :k])
    for at in map(tuple, np.argwhere(redo)):
        out[at] = stdsort.topk_order(keys[at], k, largest, sorted_)
    return c_order(np.moveaxis(out, -1, dim))


@guarded
def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True) -> Any:  # noqa: A002
    a = _check_tensor(a, "topk")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise TorchRuntimeError("selected index k out of range")
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError("topk does not support bool dtypes on CPU")
    indices = _topk_order(a._data, d, k, largest, sorted)
    values = TopkBackward0.apply(a, dim=d, indices=indices)
    return RETURN_TYPES["topk"](values, Tensor._make(indices, a.device))


def _mode_along(data: Any, dim: int) -> tuple[Any, Any]:
    """The most frequent value along dim and the index PyTorch's CPU mode reports: it sorts
    (value, index) pairs with std::sort by value (`a < b`, NaN comparisons false; the order of
    ties is std::sort's, vecmath/stdsort.plain_order) and keeps the first longest run of equal
    values, reporting the index that ends it."""
    host = backend.to_host(data)
    moved = np.moveaxis(host, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    values = np.empty(flat.shape[0], dtype=host.dtype)
    indices = np.empty(flat.shape[0], dtype=np.int64)
    for row, line in enumerate(flat.tolist()):
        pairs = [(line[i], i) for i in stdsort.plain_order(line)]
        best_value, best_index, best, run = pairs[0][0], pairs[0][1], 0, 0
        for i, (v, index) in enumerate(pairs):
            run += 1
            if i == len(pairs) - 1 or v != pairs[i + 1][0]:
                if run > best:
                    best_value, best_index, best = v, index, run
                run = 0
        values[row], indices[row] = best_value, best_index
    shape = moved.shape[:-1]
    return values.reshape(shape), indices.reshape(shape)


def _quickselect_index(values: Any, k: int) -> int:
    """The original index PyTorch's CPU kthvalue reports for the k-th smallest (0-based):
    aten's quick_select_template (median-of-three pivot, NaN largest) run on the values and
    their indices together, so ties resolve exactly as there."""
    arr = [float(v) for v in values]
    idx = list(range(len(arr)))

    def gt_or_nan(a: float, b: float) -> bool:
        return (math.isnan(a) and not math.isnan(b)) or a > b

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return idx[k]
        if hi == lo + 1:
            if gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            return idx[k]
        mid = lo + (hi - lo) // 2
        swap(mid, lo + 1)
        if gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        pivot = arr[lo]
        while True:
            i += 1
            while gt_or_nan(pivot, arr[i]):
                i += 1
            j -= 1
            while gt_or_nan(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _kthvalue_along(data: Any, axis: int, k: int) -> Any:
    host = np.moveaxis(backend.to_host(data), axis, -1)
    rows = host.reshape(-1, host.shape[-1])
    found = np.array([_quickselect_index(row, k) for row in rows], dtype=np.int64)
    return found.reshape(host.shape[:-1])


def _selection(kind: str, a: Tensor, dim: int, keepdim: bool, k: int = 0) -> Any:
    """median(dim) / kthvalue(k, dim) / mode(dim): (values, indices) with a value-selecting
    backward (the gradient goes to the index)."""
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if a.ndim and size == 0:
        raise TorchIndexError(f"{kind}(): Expected reduction dim {d} to have non-zero size.")
    data = a._data if a.ndim else a._data.reshape(1)
    axis = d if a.ndim else 0
    xp = xp_of(data)
    if kind == "mode":
        _, indices = _mode_along(data, axis)
        indices = backend.to_device(indices, a.device)
    elif kind == "kthvalue":
        if not 1 <= k <= size:
            raise TorchRuntimeError(
                f"kthvalue(): selected number k out of range for dimension {d}")
        if a.ndim:  # a 0-d tensor is copied before the kernel's dispatch
            _refuse_bool(a, "kthvalue_cpu")
        indices = backend.to_device(_kthvalue_along(data, axis, k - 1), a.device)
    else:  # median: the stable order's middle (aten's nth_element breaks ties by index)
        _refuse_bool(a, "median_out")
        position: Any = (size - 1) // 2
        if is_float_array_dtype(data.dtype):
            nan = xp.isnan(data)
            counts = nan.sum(axis=axis)
            position = xp.where(counts > 0, size - counts, position)  # the first NaN
        indices = _kth_smallest(data, axis, position)
    if keepdim and a.ndim:
        indices = xp.expand_dims(indices, d)
    if not a.ndim:
        indices = indices.reshape(())
    cls = {"median": MedianBackward1, "kthvalue": KthvalueBackward0,
           "mode": ModeBackward0}[kind]
    values = cls.apply(a, dim=d, keepdim=keepdim, indices=indices)
    return RETURN_TYPES[kind](values, Tensor._make(indices, a.device))


def _refuse_bool(a: Tensor, kernel: str) -> None:
    """The selection kernels ATen does not dispatch for bool (topk says so in its words)."""
    if a.dtype is dtypes.bool_:
        raise TorchNotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


@guarded
def median(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    a = _check_tensor(a, "median")
    if dim is None:
        if a.numel():
            _refuse_bool(a, "median_cpu")
        return MedianBackward0.apply(a)
    return _selection("median", a, dim, keepdim)


@guarded
def nanmedian(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    a = _check_tensor(a, "nanmedian")
    if dim is None:
        if a.numel():
            _refuse_bool(a, "median_cpu")
        return NanmedianBackward0.apply(a)
    d = wrap_dim(dim, a.ndim)  # (the parser's error on dim comes first)
    _refuse_bool(a, "median_out")
    size = a.shape[d] if a.ndim else 1
    if a.ndim and size == 0:
        raise TorchIndexError(f"nanmedian(): Expected reduction dim {d} to have non-zero size.")
    host = backend.to_host(a._data if a.ndim else a._data.reshape(1))
    axis = d if a.ndim else 0
    counts = np.isnan(host).sum(axis=axis) if is_float_array_dtype(host.dtype) else 0
    # ATen's nth_element at (non-NaN count - 1) / 2, ties broken by index, NaN last: the stable
    # order's element there; a row of NaN only has no order, and nth_element's steps pick
    position = np.maximum(host.shape[axis] - counts - 1, 0) // 2
    indices = np.array(_kth_smallest(host, axis, position))
    for at in map(tuple, np.argwhere(counts == host.shape[axis])):
        indices[at] = stdsort.nth_index(host.shape[axis], 0)
    indices = backend.to_device(indices.astype(np.int64), a.device)
    if keepdim and a.ndim:
        indices = xp_of(indices).expand_dims(indices, d)
    if not a.ndim:
        indices = indices.reshape(())
    values = NanmedianBackward1.apply(a, dim=d, keepdim=keepdim, indices=indices)
    return RETURN_TYPES["nanmedian"](values, Tensor._make(indices, a.device))


@guarded
def kthvalue(a: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    return _selection("kthvalue", _check_tensor(a, "kthvalue"), dim, keepdim, k)


@guarded
def mode(a: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    return _selection("mode", _check_tensor(a, "mode"), dim, keepdim)


@guarded
def unique(a: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: Any = None) -> Any:
    """torch.unique: the sorted distinct values (of the slices along `dim`), recorded as
    Unique2Backward0 / UniqueDimBackward0, which have no derivative; inverse and counts int64."""
    a = _check_tensor(a, "unique")
    if a.device == "meta":
        raise meta.no_kernel("aten::_unique2")
    host = backend.to_host(a._data)
    if dim is None:
        values, inverse, counts = np.unique(host, return_inverse=True, return_counts=True,
                                            equal_nan=False)  # (each NaN its own value)
        inverse = inverse.reshape(host.shape)
        node: type[Unique2Backward0] = Unique2Backward0
    else:
        axis = wrap_dim(dim, a.ndim)
        if host.size and host.dtype.kind in "fV" and bool(np.isnan(host).any()):
            values, inverse, counts = _unique_dim_with_nan(host, axis)
        else:
            values, inverse, counts = np.unique(host, return_inverse=True, return_counts=True,
                                                axis=axis)
        inverse = inverse.reshape(-1)
        node = UniqueDimBackward0
    out = [node.apply(a, values=backend.to_device(values.astype(host.dtype), a.device))]
    if return_inverse:
        out.append(_new(inverse.astype(np.int64), dtypes.int64, a.device, False))
    if return_counts:
        out.append(_new(counts.astype(np.int64), dtypes.int64, a.device, False))
    return out[0] if len(out) == 1 else tuple(out)


def _unique_dim_with_nan(host: np.ndarray, axis: int) -> tuple[np.ndarray, ...]:
    """ATen's _unique_dim_cpu_template where a NaN makes the order depend on the sort: the
    slices sorted by std::sort with its comparator, then each kept unless equal (==, so never
    with a NaN) to the last one kept; values, inverse indices and counts."""
    moved = np.moveaxis(host, axis, 0)
    rows = moved.reshape(moved.shape[0], -1)
    order = stdsort.lexicographic_order(rows.astype(np.float64).tolist())
    inverse = np.empty(len(order), np.int64)
    kept, counts, previous = [order[0]], [], 0
    inverse[order[0]] = 0
    for position in range(1, len(order)):
        current = order[position]
        if not bool((rows[current] == rows[kept[-1]]).all()):
            kept.append(current)
            counts.append(position - previous)
            previous = position
        inverse[current] = len(kept) - 1
    counts.append(len(order) - previous)
    values = np.moveaxis(moved[kept], 0, axis)
    return values, inverse, np.array(counts, np.int64)


@guarded
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:  # noqa: A002
    """torch.bincount: how often each value 0 .. max occurs in a 1-d non-negative integer
    tensor (int64), or the sum of `weights` per value (float32 weights stay float32, float64
    and every other weight dtype give float64). Not differentiable."""
    a = _check_tensor(input, "bincount")
    if a.dtype.category != 1 or a.ndim != 1:
        if a.dtype.category != 1:
            raise TorchNotImplementedError(f'"bincount_cpu" not implemented for '
                                           f"'{a.dtype.short}'")
        raise TorchRuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise TorchRuntimeError("minlength should be >= 0")
    host = backend.to_host(a._data).astype(np.int64)
    if host.size and host.min() < 0:
        raise TorchRuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None or host.size == 0:  # ATen: an empty input gives int64 zeros
        counts = np.bincount(host, minlength=minlength)
        return _new(counts.astype(np.int64), dtypes.int64, a.device, False)
    w = _check_tensor(weights, "bincount", "weights", 2)
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise TorchRuntimeError("weights should be 1-d and have the same length as input")
    out_dtype = dtypes.float32 if w.dtype is dtypes.float32 else dtypes.float64
    wh = backend.to_host(w._data).astype(np.float64)
    sums = np.zeros(max(minlength, int(host.max()) + 1), dtype=np.float64)
    np.add.at(sums, host, wh)  # in input order, as ATen's loop adds them
    return _new(sums.astype(out_dtype.np), out_dtype, a.device, False)
