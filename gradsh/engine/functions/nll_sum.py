"""nll_loss's reduction as PyTorch's CPU kernels add it (LossNLL.cpp, LossNLL2d.cpp), bit for bit.

The kernels do not sum pairwise as NumPy does: they subtract each picked value from the first of
8 partial sums, and after the element at flat position i move partial sum j into j + 1 for every
level j whose bits of i are all zero (levels of `level_power` bits, at least 4). Ignored targets
are skipped, flushes included. The total is then 0 + partial[0] + ... + partial[7], in order.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import native

__all__ = ["nll_cascade_sum"]

_LEVELS = 8
_F32 = np.dtype(np.float32)


def _ceil_log2(n: int) -> int:
    return max(int(n) - 1, 0).bit_length()


def _segment_sums(positions: np.ndarray, values: np.ndarray,
                  period: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sequential sums of the runs of `values` that end at a position divisible by `period`.

    Returns the sums of the closed runs, the positions that closed them, and the sum of the
    trailing open run (a 0-d array, 0 when there is none). Runs never hold more than `period`
    values, so they are added as columns of a padded matrix, one vectorised add per column.
    """
    dtype = values.dtype
    if positions.size == 0:
        return values[:0], positions, np.zeros((), dtype)
    closes = positions % period == 0
    run = np.concatenate([[0], np.cumsum(closes)[:-1]])
    starts = np.flatnonzero(np.concatenate([[True], run[1:] != run[:-1]]))
    offset = np.arange(positions.size) - starts[run]
    matrix = np.zeros((run[-1] + 1, int(offset.max()) + 1), dtype)
    matrix[run, offset] = values
    sums = np.zeros(matrix.shape[0], dtype)
    for column in matrix.T:
        sums = sums + column
    closed = int(closes.sum())
    leftover = sums[closed] if closed < sums.size else np.zeros((), dtype)
    return sums[:closed], positions[closes], np.asarray(leftover)


def nll_cascade_sum(positions: np.ndarray, negated: np.ndarray, numiter: int) -> np.ndarray:
    """The kernel's total of `negated` (the values it subtracts, already negated, in order),
    each at its flat position among `numiter` (ignored positions absent), as a 0-d array."""
    power = max(4, _ceil_log2(numiter) // _LEVELS)
    if positions.size == numiter > 0:  # no target ignored: the positions are 0 .. numiter-1
        if native.kernels is not None and negated.dtype == _F32:  # the same adds, compiled
            value = native.kernels.nll_sum(np.ascontiguousarray(negated), numiter, power)
            if value == value:  # (not NaN: a Python float's test, not np.isnan's ufunc)
                return np.asarray(_F32.type(value))
        else:
            total = _contiguous_cascade_sum(negated, power)
            if not np.isnan(total):
                return total
        # which NaN comes out depends on the order NaNs meet in: the levels' own order decides
    return _cascade_sum(positions, negated, power)


def _cascade_sum(positions: np.ndarray, negated: np.ndarray, power: int) -> np.ndarray:
    """nll_cascade_sum for any positions, level by level (_segment_sums)."""
    leftovers = []
    for level in range(_LEVELS - 1):
        if positions.size == 1 and positions[0] == 0:
            # Only the first value is left: it closes every remaining level, which pass it on
            # (as 0 + value) and keep nothing; adding their zero leftovers would change nothing.
            break
        negated, positions, rest = _segment_sums(positions, negated, 1 << (power * (level + 1)))
        leftovers.append(rest)
    total = np.zeros((), negated.dtype)  # the last level: whatever reached it, in order
    for value in negated:
        total = total + value
    leftovers.append(total)
    result = np.zeros((), negated.dtype)
    for value in leftovers:
        result = result + value
    return np.asarray(result)


def _sequential(values: np.ndarray) -> np.ndarray:
    """0 + values[0] + values[1] + ... along the last axis, in order (non-empty): cumsum adds in
    order from the first value, and + 0 gives what starting from 0 does (a -0.0 total becomes
    0.0; any other value is unchanged)."""
    return np.cumsum(values, axis=-1, dtype=values.dtype)[..., -1] + values.dtype.type(0)


def _contiguous_cascade_sum(negated: np.ndarray, power: int) -> np.ndarray:
    """nll_cascade_sum when every position 0 .. n-1 holds a value: at each level the values
    sit at consecutive multiples of its spacing, so the runs are the first value alone, then
    blocks of 2**power values, then an open tail: one cumsum a level instead of _segment_sums'
    general bookkeeping (the same additions in the same order)."""
    dtype = negated.dtype
    step = 1 << power
    values = negated
    leftovers = []
    for _ in range(_LEVELS - 1):
        if values.size == 1:  # only the first value is left (see nll_cascade_sum)
            break
        blocks = (values.size - 1) // step
        closed = values[1:1 + blocks * step].reshape(blocks, step)
        tail = values[1 + blocks * step:]
        leftovers.append(_sequential(tail) if tail.size else np.zeros((), dtype))
        values = np.concatenate([values[:1] + dtype.type(0),
                                 _sequential(closed) if blocks else values[:0]])
    leftovers.append(_sequential(values))
    return np.asarray(_sequential(np.array(leftovers, dtype=dtype)))
