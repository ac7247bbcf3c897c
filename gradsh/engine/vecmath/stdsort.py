"""The order PyTorch's CPU sort leaves tied values in when stable=False (the default).

ATen's sort_kernel runs libstdc++'s std::sort on (value, index) pairs compared by value only
(KeyValueCompAsc: NaN largest; KeyValueCompDesc: NaN first): insertion sort up to 16 elements,
which keeps ties in index order, and above that introsort (median-of-three quicksort down to
runs of 16, heapsort past a depth of 2 log2 n, then one insertion pass), which does not. When no
two values of a row tie, every sort gives the same order; when some do, `order` reproduces
std::sort's, through the compiled kernels (vecmath/_native_sort.h) or, without them, the same
steps in Python below.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from gradsh.engine.vecmath import native

THRESHOLD = 16


def _less(descending: bool):  # type: ignore[no-untyped-def]
    if descending:
        return lambda x, y: (math.isnan(x) and not math.isnan(y)) or x > y
    return lambda x, y: (not math.isnan(x) and math.isnan(y)) or x < y


class _Sorter:
    """libstdc++'s sorting algorithms on a list of (key, index) pairs, comparing keys with
    ATen's comparator: each step as stl_algo.h / stl_heap.h take it."""

    def __init__(self, pairs: list[tuple[float, int]], descending: bool,
                 less: Callable[[float, float], bool] | None = None) -> None:
        self.pairs = pairs
        self.less = less or _less(descending)

    def lt(self, i: int, j: int) -> bool:
        return self.less(self.pairs[i][0], self.pairs[j][0])

    def swap(self, i: int, j: int) -> None:
        p = self.pairs
        p[i], p[j] = p[j], p[i]

    def adjust_heap(self, first: int, hole: int, length: int, value: tuple[float, int]) -> None:
        p, lt = self.pairs, self.lt
        top = child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if lt(first + child, first + child - 1):
                child -= 1
            p[first + hole] = p[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            p[first + hole] = p[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and self.less(p[first + parent][0], value[0]):
            p[first + hole] = p[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        p[first + hole] = value

    def pop_heap(self, first: int, last: int, result: int) -> None:
        p = self.pairs
        value = p[result]
        p[result] = p[first]
        self.adjust_heap(first, 0, last - first, value)

    def heap_select(self, first: int, middle: int, last: int) -> None:
        length = middle - first
        if length >= 2:
            for parent in range((length - 2) // 2, -1, -1):
                self.adjust_heap(first, parent, length, self.pairs[first + parent])
        for i in range(middle, last):
            if self.lt(i, first):
                self.pop_heap(first, middle, i)

    def sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self.pop_heap(first, last, last)

    def partition_pivot(self, first: int, last: int) -> int:
        """__unguarded_partition_pivot: the median of three to `first`, then the partition."""
        lt, swap = self.lt, self.swap
        a, b, c = first + 1, first + (last - first) // 2, last - 1
        if lt(a, b):
            swap(first, b if lt(b, c) else c if lt(a, c) else a)
        else:
            swap(first, a if lt(a, c) else c if lt(b, c) else b)
        lo, hi = first + 1, last
        while True:
            while lt(lo, first):
                lo += 1
            hi -= 1
            while lt(first, hi):
                hi -= 1
            if not lo < hi:
                return lo
            swap(lo, hi)
            lo += 1

    def linear_insert(self, last: int) -> None:
        p = self.pairs
        value = p[last]
        nxt = last - 1
        while self.less(value[0], p[nxt][0]):
            p[last] = p[nxt]
            last = nxt
            nxt -= 1
        p[last] = value

    def insertion_sort(self, first: int, last: int) -> None:
        p = self.pairs
        for i in range(first + 1, last):
            if self.lt(i, first):
                value = p[i]
                p[first + 1:i + 1] = p[first:i]
                p[first] = value
            else:
                self.linear_insert(i)

    def sort(self, first: int, last: int) -> None:
        """std::sort: introsort (its recursion on the right part kept on a stack: the parts
        are disjoint, so the order of the work does not change the result), then the final
        insertion sort."""
        n = last - first
        if n < 2:
            return
        stack = [(first, last, 2 * (n.bit_length() - 1))]
        while stack:
            lo, hi, depth = stack.pop()
            while hi - lo > THRESHOLD:
                if depth == 0:
                    self.heap_select(lo, hi, hi)
                    self.sort_heap(lo, hi)
                    break
                depth -= 1
                cut = self.partition_pivot(lo, hi)
                stack.append((cut, hi, depth))
                hi = cut
        head = min(last, first + THRESHOLD)
        self.insertion_sort(first, head)
        for i in range(head, last):
            self.linear_insert(i)

    def nth_element(self, first: int, nth: int, last: int) -> None:
        """std::nth_element (introselect)."""
        if first == last or nth == last:
            return
        depth = 2 * ((last - first).bit_length() - 1)
        while last - first > 3:
            if depth == 0:
                self.heap_select(first, nth + 1, last)
                self.swap(first, nth)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self.insertion_sort(first, last)


def _std_sort(pairs: list[tuple[float, int]], descending: bool) -> None:
    """libstdc++'s std::sort on `pairs` in place, comparing the first items."""
    _Sorter(pairs, descending).sort(0, len(pairs))


def topk_order(keys: np.ndarray, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    """The k indices ATen's CPU topk (TopKImpl.h) returns for the 1-d `keys`: std::partial_sort
    when k * 64 <= n, else std::nth_element for the k-th and, if sorted, std::sort of the k - 1
    before it."""
    n = keys.shape[0]
    values = keys.astype(np.float64 if keys.dtype.kind in "fV" else np.int64).tolist()
    sorter = _Sorter(list(zip(values, range(n))), largest)
    if k == 0:
        return np.zeros(0, np.int64)
    if k * 64 <= n:
        sorter.heap_select(0, k, n)
        sorter.sort_heap(0, k)
    else:
        sorter.nth_element(0, k - 1, n)
        if sorted_:
            sorter.sort(0, k - 1)
    return np.array([index for _, index in sorter.pairs[:k]], np.int64)


def plain_order(keys: list[float]) -> list[int]:
    """std::sort of (key, index) pairs by `key < key` alone (ATen's mode kernel): NaN compares
    false both ways, as in C++. The indices in the final order."""
    if not any(k != k for k in keys) and native.kernels is not None:
        return order(np.array(keys, np.float64), False).tolist()
    pairs = list(zip(keys, range(len(keys))))
    _Sorter(pairs, False, less=lambda x, y: x < y).sort(0, len(pairs))
    return [index for _, index in pairs]


def lexicographic_order(rows: list[list[float]]) -> list[int]:
    """std::sort of row indices by ATen's unique_dim comparator (the first element where two
    rows differ by < or >; NaN is neither, so it leaves the order to the sort's steps). The
    indices in the final order."""

    def less(a: list[float], b: list[float]) -> bool:
        for x, y in zip(a, b):
            if x < y:
                return True
            if x > y:
                return False
        return False

    pairs = list(zip(rows, range(len(rows))))
    _Sorter(pairs, False, less=less).sort(0, len(pairs))  # type: ignore[arg-type]
    return [index for _, index in pairs]


def median_value(values: list[float]) -> float:
    """ATen's median_impl on a copy (in memory order) with no NaN: std::nth_element with `<`
    at (count - 1) / 2. Which of two equal values lands there (-0.0 or 0.0) is its steps'."""
    pairs = [(v, i) for i, v in enumerate(values)]
    middle = (len(pairs) - 1) // 2
    _Sorter(pairs, False, less=lambda x, y: x < y).nth_element(0, middle, len(pairs))
    return pairs[middle][0]


def nth_index(n: int, nth: int) -> int:
    """The index std::nth_element leaves at `nth` among n elements that all compare equivalent
    (ATen's nanmedian on a row of NaN only)."""
    sorter = _Sorter([(0.0, i) for i in range(n)], False, less=lambda x, y: False)
    sorter.nth_element(0, nth, n)
    return sorter.pairs[nth][1]


def has_ties(ordered: np.ndarray) -> np.ndarray:
    """For values sorted along their last axis: whether each row holds two equal values (NaNs
    count as equal to each other, -0 as equal to +0)."""
    if ordered.shape[-1] < 2:
        return np.zeros(ordered.shape[:-1], bool)
    a, b = ordered[..., 1:], ordered[..., :-1]
    same = a == b
    if ordered.dtype.kind in "fcV":
        same |= np.isnan(a) & np.isnan(b)
    return same.any(axis=-1)


def order(keys: np.ndarray, descending: bool) -> np.ndarray:
    """The indices 0 .. n-1 of the 1-d `keys` in std::sort's order (int64)."""
    n = keys.shape[0]
    floating = keys.dtype.kind in "fV"
    if native.kernels is not None:
        buffer = np.array(keys, np.float64 if floating else np.int64)
        indices = np.arange(n, dtype=np.int64)
        native.kernels.std_sort("f" if floating else "i", buffer, indices, n, descending)
        return indices
    values = keys.astype(np.float64 if floating else np.int64).tolist()
    pairs = list(zip(values, range(n)))
    _std_sort(pairs, descending)
    return np.array([index for _, index in pairs], np.int64)
