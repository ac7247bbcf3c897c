"""ATen's vectorised reductions over a contiguous last dimension (16 float32 lanes, AVX-512;
8 float64 lanes with `lanes=8` and the folds add64 / maximum).

`vec::reduce_all` and `vec::map_reduce_all` accumulate 16 lanes side by side, fold a partial
last vector into the first lanes only, and finish with a shuffle tree (lane i with lane i^8,
then i^4, i^2, i^1); rows shorter than 16 are folded left to right instead.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gradsh.engine.vecmath.fp import F32, fma32

LANES = 16
Fold = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _tree(acc: np.ndarray, fold: Fold, lanes: int = LANES) -> np.ndarray:
    """vec_reduce_all on full accumulators: shape (rows, lanes) -> (rows,). float32's is the
    shuffle tree (AVX-512's specialisation); float64 has none, so the generic loop folds lanes
    1..7 into lane 0 left to right (measured: torch's softmax sums agree only so)."""
    if lanes == 8:
        total = acc[:, 0]
        for lane in range(1, lanes):
            total = fold(total, acc[:, lane])
        return total
    for step in (8, 4, 2, 1):
        partner = acc[:, np.arange(LANES) ^ step]
        acc = fold(acc, partner)
    return acc[:, 0]


def reduce_last(data: np.ndarray, fold: Fold, lanes: int = LANES) -> np.ndarray:
    """vec::reduce_all over each row of the 2-D float32 array `data` (rows, n); a float64
    array with lanes=8."""
    rows, n = data.shape
    if n < lanes:
        if n > 1 and fold in (add, add64):  # the left fold of adds is a cumulative sum, in order
            return np.cumsum(data, axis=1, dtype=data.dtype)[:, -1]
        if n > 1 and fold is maximum:
            return _max_left_to_right(data)
        acc = data[:, 0].copy()
        for j in range(1, n):
            acc = fold(acc, data[:, j])
        return acc
    acc = data[:, :lanes].copy()
    full = n - n % lanes
    for d in range(lanes, full, lanes):
        acc = fold(acc, data[:, d:d + lanes])
    tail = n - full
    if tail:
        acc[:, :tail] = fold(acc[:, :tail], data[:, full:])
    return _tree(acc, fold, lanes)


def _max_left_to_right(data: np.ndarray) -> np.ndarray:
    """The left fold of `maximum` over each row of 2 or more columns, in a few whole-array calls:
    a row with a NaN gives the canonical NaN; otherwise its largest value, and where that is a
    zero, the last zero of the row (each tie hands the fold its second operand)."""
    result = data.max(axis=1)
    zero = result == 0
    if zero.any():
        rows = data[zero]
        last = rows.shape[1] - 1 - np.argmax(rows[:, ::-1] == 0, axis=1)
        result[zero] = rows[np.arange(rows.shape[0]), last]
    nan = np.isnan(result)
    if nan.any():
        result[nan] = F32(np.nan)
    return result


def dot_last(a: np.ndarray, b: np.ndarray, fused_tail: bool = False) -> np.ndarray:
    """vec::map2_reduce_all(x * y, x + y) over each row of a and b (rows, n): the products
    summed as reduce_last sums. With `fused_tail` the partial last vector's products are added
    as one fused multiply-add (how GCC compiled the copy of the loop that runs outside an OpenMP
    region: softmax's backward with one thread or one row)."""
    products = a * b
    n = products.shape[1]
    if not fused_tail or n < LANES or n % LANES == 0:
        return reduce_last(products, add)
    full = n - n % LANES
    acc = products[:, :LANES].copy()
    for d in range(LANES, full, LANES):
        acc = add(acc, products[:, d:d + LANES])
    acc[:, :n - full] = fma32(a[:, full:], b[:, full:], acc[:, :n - full])
    return _tree(acc, add)


def add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float32 addition (the fold of a sum)."""
    return (a + b).astype(F32, copy=False)


def add64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float64 addition (the fold of a float64 sum)."""
    return a + b


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """vec::maximum: vmaxps (the second operand unless a > b, so b on +0/-0 ties) with nan
    propagated from either side. np.maximum leaves the sign of a tied zero unspecified."""
    return np.where(np.isnan(a) | np.isnan(b), F32(np.nan), np.where(a > b, a, b))



def inner_reduce128(rows: np.ndarray, fold: Fold, identity: float, lanes: int) -> np.ndarray:
    """binary_kernel_reduce_vec over each contiguous row of (rows, n) (Reduce.h's
    vectorized_inner_reduction, e.g. prod): groups of 4 vectors of `lanes` accumulate side by
    side, the four folded as (a0 . a1) . (a2 . a3), its lanes folded into lane 0 left to right,
    that folded into the identity; the rest of the row folded in order. `lanes`: the kernel's
    Vectorized size (AVX2's build: 8 floats, 4 doubles)."""
    n = rows.shape[1]
    group = 4 * lanes
    count = n // group
    out = np.full(rows.shape[0], identity, rows.dtype)
    if count:
        acc = [rows[:, j * lanes:(j + 1) * lanes] for j in range(4)]
        for i in range(1, count):
            base = i * group
            acc = [fold(acc[j], rows[:, base + j * lanes:base + (j + 1) * lanes])
                   for j in range(4)]
        merged = fold(fold(acc[0], acc[1]), fold(acc[2], acc[3]))
        lane0 = merged[:, 0]
        for j in range(1, lanes):
            lane0 = fold(lane0, merged[:, j])
        out = fold(out, lane0)
    for k in range(count * group, n):
        out = fold(out, rows[:, k])
    return out
