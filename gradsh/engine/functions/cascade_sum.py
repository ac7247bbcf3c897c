"""PyTorch's float sum and mean, bit for bit: TensorIterator's reduction plan around SumKernel.cpp's
cascade_sum, for any layout, size and thread count."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from gradsh.engine import threads
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array
from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.layout import coalesce, iteration_order

__all__ = ["torch_sum"]

# NOTE: NumPy sums pairwise, PyTorch in a cascade, and the last bits differ (visible once a mean
# is scaled: the blog's `randn(3, 5).mean() * 20200910`). PyTorch's CPU sum goes through three
# stages, each reproduced below:
#  1. TensorIterator orders the dimensions (reduced ones first, then by stride, the fastest
#     moving first) and merges neighbours that form one strided run (`_iteration`);
#  2. `parallel_reduce` hands the iteration to the loop in 2-D blocks, serially with one thread
#     or below 32,768 elements; otherwise a full reduction is cut into one linear range per
#     thread (two_pass_reduction: partial sums, then their sum), and a partial one splits a kept
#     dimension among the threads (parallel_dim_reduction) (`torch_sum`, `_two_pass`);
#  3. cascade_sum's loop picks, per block, an inner (reduced dimension contiguous) or outer
#     (kept dimension contiguous) kernel, vectorised or scalar; each adds rows of 4 (or rows of
#     4 vectors of 32 bytes: the sum kernel is compiled for AVX2 even on AVX-512 machines)
#     sequentially in chunks of 16, the chunk sums in chunks again, over four levels, and adds
#     each result into the output (`_block_sums`).
# The thread count is threads.torch_threads() (1 unless torch.set_num_threads says otherwise).

_VECTOR_BYTES = 32
# the dtypes summed by the cascade below (complex ones too: Vectorized<c10::complex<T>> holds
# 32 bytes as well, and complex addition is its parts' apart)
_CASCADED = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
             np.dtype(np.complex128))
_GRAIN = 32768


# ---- SumKernel.cpp's kernels: each sums along axis 0, every other axis independent ------------

# Below this many elements a sequential sum is one cumsum call (adds in order, like the loop);
# above it, `step` in-place adds over strided slices, which avoids cumsum's full-size output.
_SMALL = 1 << 16


def _seq_sum(a: np.ndarray) -> np.ndarray:
    """Sequential adds along axis 0, from a zero accumulator (the kernel's `acc += x`)."""
    if a.shape[0] == 0:
        return np.zeros(a.shape[1:], dtype=a.dtype)
    return _accumulate(a.transpose(tuple(range(1, a.ndim)) + (0,)))


def _seq_sum_groups(a: np.ndarray, step: int) -> np.ndarray:
    """Sequential sums of consecutive groups of `step` along axis 0 (full groups only)."""
    groups = a.shape[0] // step
    if groups == 0:
        return a[:0]
    blocks = a[: groups * step].reshape((groups, step) + a.shape[1:])
    if blocks.size <= _SMALL:
        return np.cumsum(blocks, axis=1, dtype=a.dtype)[:, -1]
    out = blocks[:, 0].copy()
    for k in range(1, step):
        out += blocks[:, k]
    return out


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """multi_row_sum over axis 0: four levels of chunks (the row count does not matter: each
    row and lane is summed on its own)."""
    size = rows.shape[0]
    ceil_log2 = 1 if size <= 2 else (size - 1).bit_length()
    step = 1 << max(4, ceil_log2 // 4)
    level0 = _seq_sum_groups(rows, step)  # each full chunk, summed into acc[0]
    level1 = _seq_sum_groups(level0, step)  # acc[1] flushed every `step` chunks
    level2 = _seq_sum_groups(level1, step)  # acc[2] flushed every `step` flushes
    acc0 = _seq_sum(rows[level0.shape[0] * step:])
    acc1 = _seq_sum(level0[level1.shape[0] * step:])
    acc2 = _seq_sum(level1[level2.shape[0] * step:])
    acc3 = _seq_sum(level2)
    return ((acc0 + acc1) + acc2) + acc3


def _row_sum(elements: np.ndarray) -> np.ndarray:
    """row_sum over axis 0: rows of 4 (the ILP factor), then the leftovers, then the 4 sums."""
    size = elements.shape[0]
    size_ilp = size // 4
    rows = elements[: size_ilp * 4].reshape((size_ilp, 4) + elements.shape[1:])
    partial = _multi_row_sum(rows)
    total = partial[0]
    for i in range(size_ilp * 4, size):
        total = total + elements[i]
    for k in range(1, 4):
        total = total + partial[k]
    return total


def _multi_level_sum(values: np.ndarray, levels: int) -> Any:
    """The cascade nll_loss sums its batch with (LossNLL.cpp): index 0 goes through every level
    to the last; after it, chunks of `step` elements are added into level 0 and flushed to level
    1 after each multiple of `step`, level 1 to 2 after each multiple of step**2 ...; at the end
    the levels are added in order."""
    size = values.shape[0]
    step = 1 << max(4, (1 if size <= 2 else (size - 1).bit_length()) // levels)
    partial = []  # what each level holds at the end, level 0 first
    current = values[1:]
    for _ in range(levels - 1):
        flushed = _seq_sum_groups(current, step)
        partial.append(_seq_sum(current[flushed.shape[0] * step:]))
        current = flushed
    top = _accumulate(np.concatenate([values[:1], current]))  # the last level
    return _accumulate(np.array(partial + [top], dtype=values.dtype))


def _width(dtype: np.dtype) -> int:
    return _VECTOR_BYTES // dtype.itemsize


def _inner_vectorized(e: np.ndarray) -> np.ndarray:
    """vectorized_inner_sum: e (n, ...) with n contiguous; vectors of `width` lanes summed by
    row_sum, the leftover elements from 0, then the lanes one by one."""
    n, width = e.shape[0], _width(e.dtype)
    vectors = n // width
    lanes = e[: vectors * width].reshape((vectors, width) + e.shape[1:])
    vector_sum = _row_sum(lanes)
    total = np.zeros(e.shape[1:], dtype=e.dtype)
    for k in range(vectors * width, n):
        total = total + e[k]
    for lane in range(width):
        total = total + vector_sum[lane]
    return total


def _outer(e: np.ndarray, vectorized: bool) -> np.ndarray:
    """vectorized_outer_sum / scalar_outer_sum: e (n, ..., columns) with the columns adjacent;
    columns in groups of 4 vectors (or 4 columns) go through multi_row_sum, the rest (vectors,
    then single columns: the same sums per column) through row_sum."""
    group = 4 * _width(e.dtype) if vectorized else 4
    grouped = e.shape[-1] // group * group
    if grouped == e.shape[-1]:
        return _multi_row_sum(e)
    if grouped == 0:
        return _row_sum(e)
    return np.concatenate([_multi_row_sum(e[..., :grouped]), _row_sum(e[..., grouped:])],
                          axis=-1)


def _block_sums(block: np.ndarray, in_strides: tuple[int, int]) -> np.ndarray:
    """cascade_sum's loop on 2-D blocks (..., size1, size0), the reduction along size0: one sum
    per row of size1, as the kernel the strides (in elements) select computes it."""
    if native.kernels is not None and block.dtype == np.float32 and block.size:
        sums = np.empty(block.shape[:-1], np.float32)
        native.kernels.block_sums(sums, block, *in_strides)
        return sums
    size1, size0 = block.shape[-2:]
    width = _width(block.dtype)
    # (size0, ..., size1): the reduction index first
    e = block.transpose((block.ndim - 1,) + tuple(range(block.ndim - 1)))
    if in_strides[0] == 1 and size0 >= width:
        return _inner_vectorized(e)
    if in_strides[1] == 1 and size1 >= width:
        return _outer(e, vectorized=True)
    if in_strides[0] < in_strides[1]:
        return _row_sum(e)
    return _outer(e, vectorized=False)


def _accumulate(values: np.ndarray) -> np.ndarray:
    """Add the values along the last axis into a zero, one after the other, as the kernel's
    stores do (cumsum adds in order; the + 0 turns an all -0.0 sum into 0.0 as `0 += -0.0`)."""
    if values.shape[-1] == 1:
        return values[..., 0] + values.dtype.type(0)
    return np.cumsum(values, axis=-1, dtype=values.dtype)[..., -1] + values.dtype.type(0)


# ---- TensorIterator's plan ----------------------------------------------------------------------

@dataclass(frozen=True)
class _Dim:
    size: int
    inp: int  # input stride, in elements
    out: int  # output stride, in elements; 0 for a reduced dimension


def _iteration(shape: tuple[int, ...], strides: tuple[int, ...],
               reduced: tuple[int, ...]) -> list[_Dim]:
    """The iteration dimensions, fastest first, as TensorIterator orders and merges them for
    the output (contiguous, stride 0 along reduced dimensions) and the input; size-1
    dimensions dropped. (Planned once per layout: training sums the same shapes each step.)"""
    return list(_planned_iteration(shape, strides, reduced))


@functools.lru_cache(maxsize=1024)
def _planned_iteration(shape: tuple[int, ...], strides: tuple[int, ...],
                       reduced: tuple[int, ...]) -> tuple[_Dim, ...]:
    out_strides, step = {}, 1
    for d in reversed(range(len(shape))):
        if d not in reduced:
            out_strides[d] = step
            step *= shape[d]
    keep = [d for d in range(len(shape)) if shape[d] != 1]
    sizes = [shape[d] for d in keep]
    operands = [[out_strides.get(d, 0) for d in keep], [strides[d] for d in keep]]
    order = iteration_order(sizes, operands, reduced_output=True)
    merged_sizes, (out, inp) = coalesce([sizes[d] for d in order],
                                        [[s[d] for d in order] for s in operands])
    return tuple(_Dim(n, i, o) for n, i, o in zip(merged_sizes, inp, out))


def _view(x: np.ndarray, offset: int, dims: list[_Dim]) -> np.ndarray:
    """x's elements as the iteration sees them, axes slowest first, starting `offset` elements
    (in memory) after x's first one."""
    item = x.itemsize
    origin = x if offset == 0 else as_strided(x, shape=(offset + 1,), strides=(item,))[offset:]
    return as_strided(origin, shape=tuple(d.size for d in reversed(dims)),
                      strides=tuple(d.inp * item for d in reversed(dims)), writeable=False)


def _serial(x: np.ndarray, offset: int, dims: list[_Dim]) -> np.ndarray:
    """serial_for_each over a whole iteration (`dims` from `offset`): the sums, with the kept
    dimensions as axes (slowest first)."""
    padded = dims if len(dims) >= 2 else dims + [_Dim(1, 0, 0)]
    sums = _block_sums(_view(x, offset, padded), (padded[0].inp, padded[1].inp))
    reduced = sum(1 for d in padded if d.out == 0)  # the first ones: reorder puts them first
    if reduced == 1:
        return sums + x.dtype.type(0)  # each row sum has its own output element: `out += sum`
    # size1 and the next reduced - 2 outer dimensions are reduced too: their sums add up in turn
    kept_shape = sums.shape[:sums.ndim - (reduced - 1)]
    return _accumulate(sums.reshape(kept_shape + (-1,)))


def _two_pass(x: np.ndarray, dims: list[_Dim], count: int) -> np.ndarray:
    """two_pass_reduction: each thread sums one linear range of the iteration into its own slot
    (from 0), then the slots are summed as a tensor of `count` elements."""
    numel = int(np.prod([d.size for d in dims]))
    used = min(count, -(-numel // _GRAIN))
    chunk = -(-numel // used)
    slots = np.zeros(count, dtype=x.dtype)
    for t in range(used):
        begin, end = t * chunk, min(numel, (t + 1) * chunk)
        if begin < end:
            slots[t] = _range_sum(x, dims, begin, end)
    return _serial(slots, 0, [_Dim(count, 1, 0)])


def _range_sum(x: np.ndarray, dims: list[_Dim], begin: int, end: int) -> np.ndarray:
    """serial_for_each over [begin, end) of a full reduction: DimCounter's 2-D steps (a partial
    row, rows, whole blocks), each block's row sums added into one accumulator in turn."""
    if len(dims) == 1:
        return _serial(x, begin * dims[0].inp, [_Dim(end - begin, dims[0].inp, 0)])
    size0, size1 = dims[0].size, dims[1].size
    block = size0 * size1
    pieces = [np.zeros(1, dtype=x.dtype)]
    offset = begin
    while offset < end:
        coords, rest = [], offset
        for d in dims:
            coords.append(rest % d.size)
            rest //= d.size
        start = sum(c * d.inp for c, d in zip(coords, dims))
        if coords[0] == 0 and coords[1] == 0 and end - offset >= block and len(dims) > 2:
            # whole blocks until the third dimension wraps around: one batched call
            count = min((end - offset) // block, dims[2].size - coords[2])
            part = [_Dim(size0, dims[0].inp, 0), _Dim(size1, dims[1].inp, 0),
                    _Dim(count, dims[2].inp, 0)]
        else:
            step0 = min(size0 - coords[0], end - offset)
            step1 = min(size1 - coords[1], (end - offset) // size0) if step0 == size0 else 1
            part = [_Dim(step0, dims[0].inp, 0), _Dim(step1, dims[1].inp, 0)]
        sums = _block_sums(_view(x, start, part), (part[0].inp, part[1].inp))
        pieces.append(sums.reshape(-1))
        offset += int(np.prod([d.size for d in part]))
    return _accumulate(np.concatenate(pieces))


def _split_dim(dims: list[_Dim], count: int) -> int:
    """find_split_dim: the outermost kept dimension with at least `count` elements, else the
    largest kept one."""
    best = len(dims) - 1
    for d in range(len(dims) - 1, -1, -1):
        if dims[d].out == 0:
            break
        if dims[d].size >= count:
            return d
        if dims[d].size > dims[best].size:
            best = d
    return best


def _by_columns(x: np.ndarray, dims: list[_Dim], count: int, out: np.ndarray) -> None:
    """parallel_dim_reduction: the split dimension's columns among the threads (rounded to 128
    bytes when contiguous), each piece reduced serially into its part of `out` (kept axes)."""
    d = _split_dim(dims, count)
    cols = dims[d].size
    used = min(count, cols)
    chunk = -(-cols // used)
    multiple = 128 // x.itemsize if dims[d].inp == 1 else 1
    kept_axis = sum(1 for k in dims[d + 1:] if k.out != 0)  # the split dim among out's axes
    for t in range(used):
        begin, end = t * chunk, min(cols, (t + 1) * chunk)
        if begin >= end:
            continue
        begin -= begin % multiple
        if end != cols:
            end -= end % multiple
        if begin >= end:
            continue
        piece = list(dims)
        piece[d] = _Dim(end - begin, dims[d].inp, dims[d].out)
        key = [slice(None)] * out.ndim
        key[kept_axis] = slice(begin, end)
        out[tuple(key)] = _serial(x, begin * dims[d].inp, piece)


@dataclass(frozen=True)
class _SerialPlan:
    """A serial float32 sum of one C-contiguous shape through the compiled block sums, planned
    once: the block's view (shape, byte strides), the strides that choose the kernel, how many
    leading axes of the block sums still add up (`reduced`) and the result's shape."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    kernel_strides: tuple[int, int]
    reduced: int
    kept_shape: tuple[int, ...]
    result_shape: tuple[int, ...]


@functools.lru_cache(maxsize=1024)
def _serial_plan(shape: tuple[int, ...], strides: tuple[int, ...], axis: Any,
                 keepdims: bool) -> _SerialPlan | None:
    """torch_sum's plan for a C-contiguous float32 array summed serially, as `_serial` and
    `_to_output` follow it; None where the general path has more to do (nothing to add up,
    an empty or flipped array, sums out of the output's order)."""
    ndim = len(shape)
    if isinstance(axis, int):
        axis = (axis,)
    reduced = tuple(range(ndim)) if axis is None else tuple(sorted(a % ndim for a in axis))
    result_shape = tuple(1 if d in reduced else n for d, n in enumerate(shape))
    if not keepdims:
        result_shape = tuple(n for d, n in enumerate(shape) if d not in reduced)
    dims = _iteration(shape, tuple(s // 4 for s in strides), reduced)
    if not any(d.out == 0 for d in dims):
        return None
    step = 1
    for d in dims:  # the kept dimensions, fastest first, must be the output's order
        if d.out != 0:
            if d.out != step:
                return None
            step *= d.size
    padded = dims if len(dims) >= 2 else dims + [_Dim(1, 0, 0)]
    sums_shape = tuple(d.size for d in reversed(padded))[:-1]
    count = sum(1 for d in padded if d.out == 0)
    return _SerialPlan(tuple(d.size for d in reversed(padded)),
                       tuple(d.inp * 4 for d in reversed(padded)),
                       (padded[0].inp, padded[1].inp), count,
                       sums_shape[:len(sums_shape) - (count - 1)], result_shape)


_F32 = np.dtype(np.float32)
_AXES = (int, tuple)


def _serial_sum(x: np.ndarray, plan: _SerialPlan) -> np.ndarray:
    """torch_sum through `plan`: the same block sums and additions as `_serial`, without
    planning the iteration again (a training step sums the same shapes each time)."""
    block = np.ndarray(plan.shape, _F32, x, 0, plan.strides)
    sums = np.empty(plan.shape[:-1], _F32)
    native.kernels.block_sums(sums, block, *plan.kernel_strides)  # type: ignore[union-attr]
    if plan.reduced == 1:  # each row sum has its own output element: `out += sum`
        return np.add(sums.reshape(plan.result_shape), _F32.type(0))
    return np.array(_accumulate(sums.reshape(plan.kept_shape + (-1,))).reshape(
        plan.result_shape))


def torch_sum(x: Array, axis: tuple[int, ...] | int | None, keepdims: bool, dtype: Any) -> Array:
    """x.sum(axis) as PyTorch's CPU kernel computes it (see the NOTE above)."""
    if (x.__class__ is np.ndarray and x.dtype is _F32 and dtype == _F32 and x.size
            and native.kernels is not None and x.flags.c_contiguous
            and (x.size < _GRAIN or threads.torch_threads() == 1)):
        plan = _serial_plan(x.shape, x.strides, axis, keepdims) if (
            axis is None or axis.__class__ in _AXES) else None
        if plan is not None:
            return _serial_sum(x, plan)
    dtype = np.dtype(dtype)
    if dtype in REDUCED_FLOAT_NP and isinstance(x, np.ndarray):
        # float16 and bfloat16 accumulate in float32 (the kernel's acc_type), rounded once
        return torch_sum(x.astype(np.float32), axis, keepdims, np.float32).astype(dtype)
    if not isinstance(x, np.ndarray) or dtype not in _CASCADED or x.size == 0:
        return x.sum(axis=axis, keepdims=keepdims, dtype=dtype)
    if isinstance(axis, int):
        axis = (axis,)
    ndim = x.ndim
    reduced = tuple(range(ndim)) if axis is None else tuple(sorted(a % ndim for a in axis))
    if x.dtype != dtype:
        x = x.astype(dtype)
    result_shape = tuple(1 if d in reduced else n for d, n in enumerate(x.shape))
    if not keepdims:
        result_shape = tuple(n for d, n in enumerate(x.shape) if d not in reduced)
    if any(s < 0 for s in x.strides):
        x = x.copy()  # a flipped view: PyTorch's flip is a contiguous copy
    item = x.itemsize
    dims = _iteration(x.shape, tuple(s // item for s in x.strides), reduced)
    if not any(d.out == 0 for d in dims):  # nothing to add up: each output is 0 + its element
        return (x + dtype.type(0)).reshape(result_shape)
    count = threads.torch_threads()
    if x.size < _GRAIN or count == 1:
        sums = _serial(x, 0, dims)
    elif all(d.out == 0 for d in dims):
        sums = np.asarray(_two_pass(x, dims, count))
    else:
        kept = tuple(d.size for d in reversed(dims) if d.out != 0)
        sums = np.empty(kept, dtype=dtype)
        _by_columns(x, dims, count, sums)
    return _to_output(sums, dims, result_shape)


def _to_output(sums: np.ndarray, dims: list[_Dim], shape: tuple[int, ...]) -> np.ndarray:
    """Place the sums (kept iteration axes, slowest first) at their output positions."""
    kept = [d for d in reversed(dims) if d.out != 0]
    contiguous, step = True, 1
    for d in reversed(kept):
        contiguous = contiguous and d.out == step
        step *= d.size
    if contiguous:  # the sums are already in the output's order (a copy: never a view of a temp)
        return np.array(sums, copy=True).reshape(shape)
    out = np.empty(int(np.prod(shape, dtype=np.int64)), dtype=sums.dtype)
    target = as_strided(out, shape=tuple(d.size for d in kept),
                        strides=tuple(d.out * out.itemsize for d in kept))
    target[...] = sums
    return out.reshape(shape)


def _mean_array(x: Array, axis: Any, keepdims: bool, dtype: Any) -> Array:
    """x.mean(...) as PyTorch: the sum (torch_sum) divided in the dtype; empty means are NaN,
    without NumPy's "Mean of empty slice" warning."""
    if x.size == 0:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return x.mean(axis=axis, keepdims=keepdims, dtype=dtype)
    dims = tuple(range(x.ndim)) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    count = 1
    for d in dims:
        count *= x.shape[d]
    if np.dtype(dtype) in REDUCED_FLOAT_NP and isinstance(x, np.ndarray):
        # float16 and bfloat16: the float32 sum divided in float32, rounded once
        wide = torch_sum(x.astype(np.float32), dims or None, keepdims, np.float32)
        return (wide / np.float32(count)).astype(dtype)
    total = torch_sum(x.astype(dtype, copy=False), dims or None, keepdims, dtype)
    # a NumPy scalar divisor: CuPy passes it to the kernel by value, nothing is copied
    return xp_of(total).asarray(total / np.dtype(dtype).type(count))
