"""Binning and index grids with no derivative: searchsorted, bucketize, histc, tril_indices,
triu_indices."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.ops.arguments import _check_tensor, _new
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["searchsorted", "bucketize", "histc", "tril_indices", "triu_indices"]


def _index_dtype(out_int32: bool) -> dtypes.DType:
    return dtypes.int32 if out_int32 else dtypes.int64


def _values_array(values: Any, like: Tensor) -> tuple[np.ndarray, bool]:
    """The values as a host array, and whether they came as a Python scalar (0-d result)."""
    if isinstance(values, Tensor):
        return backend.to_host(values._data), False
    return np.asarray(values), True


@guarded
def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False,  # noqa: A002
                 right: bool = False, side: str | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    """For each value, the index where it would be inserted in the (innermost dimension of
    the) sorted sequence: before equal entries, or after them with right=True / side='right'."""
    seq = _check_tensor(sorted_sequence, "searchsorted")
    values, scalar = _values_array(input, seq)
    if side is not None:
        if side not in ("left", "right"):
            raise TorchRuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but "
                                    f"got {side}")
        if right and side == "left":
            raise TorchRuntimeError("torch.searchsorted(): side and right can't be set to "
                                    "opposites, got side of left while right was True")
        right = side == "right"
    boundaries = backend.to_host(seq._data)
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, backend.to_host(sorter._data), axis=-1)
    if seq.dtype is dtypes.bool_ and (values.dtype == np.bool_):  # (the common dtype's kernel)
        raise TorchNotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    if boundaries.ndim == 1:
        result = _binary_search(boundaries.reshape(1, -1), values.reshape(1, -1),
                                right).reshape(values.shape)
    else:
        if scalar or boundaries.shape[:-1] != values.shape[:-1]:
            raise TorchRuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                "dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {list(boundaries.shape)} and input value tensor "
                f"{list(values.shape)}")
        rows = boundaries.reshape(-1, boundaries.shape[-1])
        vals = values.reshape(rows.shape[0], -1)
        result = _binary_search(rows, vals, right).reshape(values.shape)
    d = _index_dtype(out_int32)
    return _new(np.asarray(result, dtype=d.np), d, seq.device, False)


def _binary_search(rows: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """ATen's cus_lower_bound / cus_upper_bound for every value of each row at once: the
    first slot whose boundary is not below (not above, with right) the value, by the same
    halving and the same comparisons, so a NaN among the boundaries or the values lands where
    PyTorch's search puts it (NumPy's searchsorted sorts NaN last instead)."""
    count, width = values.shape[-1], rows.shape[-1]
    start = np.zeros(values.shape, dtype=np.int64)
    end = np.full(values.shape, width, dtype=np.int64)
    which = np.arange(rows.shape[0])[:, None]
    with np.errstate(invalid="ignore"):
        while count and width and bool((start < end).any()):
            active = start < end
            mid = start + ((end - start) >> 1)
            bound = rows[which, np.minimum(mid, width - 1)]
            below = ~(bound > values) if right else ~(bound >= values)
            start = np.where(active & below, mid + 1, start)
            end = np.where(active & ~below, mid, end)
    return start


@guarded(tensor_first=False)
def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False,  # noqa: A002
              right: bool = False) -> Tensor:
    """The bucket of each value for 1-d boundaries: boundaries[i-1] < x <= boundaries[i], or
    boundaries[i-1] <= x < boundaries[i] with right=True."""
    b = _check_tensor(boundaries, "bucketize", "boundaries", 2)
    if b.ndim != 1:
        raise TorchRuntimeError(f"boundaries tensor must be 1 dimension, but got dim({b.ndim})")
    return searchsorted(b, input, out_int32=out_int32, right=right)


@guarded
def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """torch.histc: `bins` equal-width bins between min and max (the data's extremes when both
    are 0), values outside ignored, the last bin closed; counts in the input's dtype. The bin
    of x is trunc((x - min) * bins / (max - min)) in the input's precision, as ATen's
    LINEAR_INTERPOLATION kernel computes it."""
    a = _check_tensor(input, "histc")
    if not a.dtype.is_floating_point:  # (bool fails earlier in ATen, making the bin edges)
        kernel = "linspace_cpu" if a.dtype is dtypes.bool_ else "histogram_cpu"
        raise TorchNotImplementedError(f'"{kernel}" not implemented for \'{a.dtype.short}\'')
    if bins <= 0:
        raise TorchRuntimeError(f"torch.histc(): bins must be > 0, but got {bins} for dimension 0")
    x = backend.to_host(a._data).reshape(-1)
    low, high = float(min), float(max)
    if low == high and x.size:
        low, high = float(x.min()), float(x.max())
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        # (C++'s ostream prints the doubles: -4, inf, 0.5; a NaN the data's min/max reduction
        # made has its sign bit set, x86's default NaN: -nan)
        shown = [f"{v:g}" if v == v or given else "-nan"
                 for v, given in ((low, float(min) != float(max)),
                                  (high, float(min) != float(max)))]
        raise TorchRuntimeError(f"torch.histc: range of [{shown[0]}, {shown[1]}] is not finite")
    if low > high:
        raise TorchRuntimeError("torch.histc: max must be larger than min")
    t = a.dtype.np.type
    left, right = t(low), t(high)
    with np.errstate(all="ignore"):
        if not np.isfinite(right - left):  # linspace's edges are NaN: nothing falls inside
            return _new(np.zeros(bins, a.dtype.np), a.dtype, a.device, False)
    inside = x[(x >= left) & (x <= right)]
    with np.errstate(all="ignore"):
        pos = ((inside - left) * t(bins) / (right - left)).astype(np.int64)
    pos[pos == bins] = bins - 1
    # (a product that overflows to inf converts to INT64_MIN, x86's cvttss2si; ATen's
    # pointer arithmetic with it, times the element size, wraps round to the first bin)
    pos[pos < 0] = 0
    counts = np.bincount(pos, minlength=bins).astype(a.dtype.np)
    return _new(counts, a.dtype, a.device, False)


def _indices(kind: str, row: int, col: int, offset: int, dtype: Any, device: Any) -> Tensor:
    d = dtypes.int64 if dtype is None else dtype
    if d not in (dtypes.int64, dtypes.int32):
        raise TorchRuntimeError(f'"{kind}_indices" not implemented for \'{d.short}\'')
    maker = np.tril_indices if kind == "tril" else np.triu_indices
    rows, cols = maker(row, offset, col) if row and col else (np.zeros(0), np.zeros(0))
    return _new(np.stack([rows, cols]).astype(d.np).reshape(2, -1), d, device or "cpu", False)


@guarded(tensor_first=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    """The (row, column) coordinates of the lower triangle of a row x col matrix, row by row."""
    return _indices("tril", row, col, offset, dtype, device)


@guarded(tensor_first=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    """The (row, column) coordinates of the upper triangle of a row x col matrix, row by row."""
    return _indices("triu", row, col, offset, dtype, device)
