"""Products and combinations of tensors: kron, block_diag, combinations; and the searching and
counting functions without gradients: searchsorted, bucketize, histc, tril_indices,
triu_indices."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.combining import BlockDiagBackward0
from gradsh.engine.functions.common import result_dtype
from gradsh.engine.ops.arguments import _check_tensor, _new, _plain, is_number
from gradsh.engine.ops.arithmetic import mul
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.indexing import masked_select
from gradsh.engine.ops.joining import meshgrid, stack
from gradsh.engine.ops.shape import _unsafe_view
from gradsh.engine.tensor import Tensor

__all__ = ["kron", "block_diag", "combinations", "searchsorted", "bucketize", "histc",
           "tril_indices", "triu_indices"]


@guarded
def kron(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """ATen's kron: both operands viewed with interleaved unit dimensions, multiplied, viewed
    back (UnsafeViewBackward0 over MulBackward0)."""
    a = _check_tensor(input, "kron")
    b = _check_tensor(other, "kron", "other", 2)
    ndim = max(a.ndim, b.ndim)
    pad_a, pad_b = ndim - a.ndim, ndim - b.ndim
    a_shape, b_shape, result = [], [], []
    for i in range(ndim):
        m = a.shape[i - pad_a] if i >= pad_a else 1
        n = b.shape[i - pad_b] if i >= pad_b else 1
        a_shape += [m, 1]
        b_shape += [1, n]
        result.append(m * n)
    product = mul(_unsafe_view(a, tuple(a_shape)), _unsafe_view(b, tuple(b_shape)))
    return _unsafe_view(product, tuple(result))


@guarded(tensor_first=False)
def block_diag(*tensors: Tensor) -> Tensor:
    """The tensors (0-, 1- or 2-D) as blocks along a diagonal (BlockDiagBackward0)."""
    for i, t in enumerate(tensors):
        _check_tensor(t, "block_diag", "tensors", i + 1)
        if t.ndim > 2:
            raise TorchRuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                                    f"dimensions. Input {i} has {t.ndim} dimensions")
    if not tensors:
        return _plain(np.zeros((1, 0), dtype=np.float32), "cpu")
    dtype = result_dtype(*tensors)
    return BlockDiagBackward0.apply(*tensors, dtype=dtype)  # type: ignore[no-any-return]


@guarded
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa
    """ATen's combinations: r meshgrid copies of input, each masked to i0 < i1 < ... (<= with
    replacement), stacked."""
    x = _check_tensor(input, "combinations")
    if x.ndim != 1:
        raise TorchRuntimeError(f"Expect a 1D vector, but got shape {list(x.shape)}")
    if r < 0:
        raise TorchRuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _new(np.zeros(0, dtype=x.dtype.np), x.dtype, x.device, False)
    n = x.shape[0]
    grid = np.indices((n,) * r)
    keep = np.ones((n,) * r, dtype=bool)
    for i in range(r - 1):
        keep &= (grid[i] <= grid[i + 1]) if with_replacement else (grid[i] < grid[i + 1])
    mask = _plain(keep, x.device)
    grids = meshgrid(*([x] * r), indexing="ij")
    return stack([masked_select(g, mask) for g in grids], 1)


def _index_dtype(out_int32: bool) -> dtypes.DType:
    return dtypes.int32 if out_int32 else dtypes.int64


@guarded(tensor_first=False)
def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False,  # noqa
                 right: bool = False, side: str | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    """Where each value of input would be inserted in the (innermost, sorted) sequence."""
    seq = _check_tensor(sorted_sequence, "searchsorted", "sorted_sequence", 1)
    if side is not None:
        if side not in ("left", "right"):
            raise TorchRuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' "
                                    f"but got {side}")
        if right and side == "left":
            raise TorchRuntimeError("torch.searchsorted(): side and right can't be set to "
                                    "opposites, got side of left while right was True")
        right = side == "right"
    scalar = is_number(input)
    values = np.asarray(input) if scalar else backend.to_host(
        _check_tensor(input, "searchsorted", "input", 2)._data)
    data = backend.to_host(seq._data)
    if sorter is not None:
        data = np.take_along_axis(data, backend.to_host(sorter._data), axis=-1)
    mode = "right" if right else "left"
    if data.ndim == 1:
        found = np.searchsorted(data, values, side=mode)
    else:
        if scalar or values.shape[:-1] != data.shape[:-1]:
            raise TorchRuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                "dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {list(seq.shape)} and input value tensor "
                f"{list(np.shape(values))}")
        rows = data.reshape(-1, data.shape[-1])
        wanted = values.reshape(rows.shape[0], -1)
        found = np.stack([np.searchsorted(row, v, side=mode) for row, v in
                          zip(rows, wanted, strict=True)]).reshape(values.shape)
    index = _index_dtype(out_int32)
    return _new(np.asarray(found, dtype=index.np), index, seq.device, False)


@guarded
def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False,  # noqa: A002
              right: bool = False) -> Tensor:
    """The bucket of each value: searchsorted with the (1-D) boundaries."""
    b = _check_tensor(boundaries, "bucketize", "boundaries", 2)
    if b.ndim != 1:
        raise TorchRuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                                f"{b.ndim})")
    return searchsorted(b, input, out_int32=out_int32, right=right)


@guarded
def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa
    """Counts in `bins` equal bins over [min, max] (the data's range when both are 0)."""
    x = _check_tensor(input, "histc")
    if not x.dtype.is_floating_point:
        raise TorchRuntimeError(f'"histogram_cpu" not implemented for \'{x.dtype.short}\'')
    if bins <= 0:
        raise TorchRuntimeError("torch.histc(): bins must be > 0, but got "
                                f"{bins} for dimension 0")
    data = backend.to_host(x._data).reshape(-1)
    lo, hi = x.dtype.np.type(min), x.dtype.np.type(max)
    if lo == hi and data.size:
        lo, hi = data.min(), data.max()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise TorchRuntimeError(f"torch.histc(): max must be larger than min, but got min "
                                f"{min} max {max}")
    inside = data[(data >= lo) & (data <= hi)]
    with np.errstate(all="ignore"):
        position = ((inside - lo) / (hi - lo) * x.dtype.np.type(bins)).astype(np.int64)
    position[position == bins] -= 1
    counts = np.bincount(position, minlength=bins)[:bins]
    return _new(counts.astype(x.dtype.np), x.dtype, x.device, False)


def _triangle_indices(row: int, col: int, offset: int, upper: bool, dtype: Any,
                      device: Any) -> Tensor:
    chosen = dtypes.int64 if dtype is None else dtype
    if chosen not in (dtypes.int64, dtypes.int32):
        name = "triu_indices" if upper else "tril_indices"
        raise TorchRuntimeError(f'"{name}" not implemented for \'{chosen.short}\'')
    rows, cols = np.triu_indices(row, offset, col) if upper else np.tril_indices(row, offset,
                                                                                  col)
    result = _plain(np.stack([rows, cols]).astype(chosen.np).reshape(2, -1), "cpu")
    return result if device is None else to(result, device=device)


@guarded(tensor_first=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None, pin_memory: bool = False) -> Tensor:
    return _triangle_indices(row, col, offset, False, dtype, device)


@guarded(tensor_first=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None, pin_memory: bool = False) -> Tensor:
    return _triangle_indices(row, col, offset, True, dtype, device)
