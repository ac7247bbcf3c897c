"""Large result arrays reused instead of mapped fresh from the system for every operation.

glibc maps an allocation of more than a few megabytes fresh and unmaps it when it is freed, so
every element-wise result of a 10M-element tensor touches 40 MB of new pages: the kernel zeroes
them and takes thousands of page faults, which on a virtual machine cost more than the
arithmetic (a product into a fresh array took three times as long as into a used one). Here the
large results of the element-wise kernels come from a small pool of arrays the pool alone still
references (sys.getrefcount says so): a tensor that died gives its storage to the next result of
the same size. Nothing else changes: every element of a result is written before it is read.

Off by default (a library user's process keeps NumPy's own behaviour); `gradsh run` and the
interpreter turn it on (cli.tune_process), and `settle()` runs after each top-level statement:
it hands back the free arrays that went unused for a whole statement and keeps the ones the
statement just freed for the next one. So memory is kept at most one statement past its last
use, and a loop written as statements in turn (a `repeat` after its warm-up, the cells of a
session) does not give its arrays back only to map them again: on a virtual machine that
hands freed memory back to its host, touching those pages anew cost up to 250-300 ms of system
time per 40 MB (the 10M-element chain of `benchmarks`' large row), far more than the
arithmetic on them.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

# Below this, malloc's heap reuses freed memory by itself (cli._tune_malloc's threshold).
MIN_BYTES = 4 << 20
# Free arrays kept at most between two results (the arrays in use are not counted), and the
# memory they may hold: past either the free ones are dropped before a new one is made.
MAX_FREE = 6
MAX_FREE_BYTES = 320 << 20
# getrefcount counts every reference up to Python 3.13; later versions may borrow references
# from the interpreter's stack, where the count proves nothing: no pool there.
_COUNTED_REFERENCES = sys.version_info < (3, 14)

_enabled = False
_pool: list[np.ndarray] = []
_ids: set[int] = set()
# The ids of the pool's arrays that were free at the last settle() and not reused since.
_idle: set[int] = set()


def enable(on: bool = True) -> None:
    """Turn the pool on (or off: the free arrays are dropped)."""
    global _enabled
    _enabled = bool(on) and _COUNTED_REFERENCES
    if not _enabled:
        trim()


# The references to a free array while a loop over the pool looks at it: the pool's list, the
# loop's name and getrefcount's argument.
_FREE = 3


def empty(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """np.empty(shape, dtype), C-contiguous, from the pool where it is on and the array large."""
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize
    for size in shape:
        nbytes *= size
    if not _enabled or nbytes < MIN_BYTES:
        return np.empty(shape, dtype)
    free = free_bytes = 0
    for array in _pool:
        if sys.getrefcount(array) == _FREE:
            if array.dtype == dtype and array.shape == shape and array.flags.writeable:
                _idle.discard(id(array))
                return array
            free += 1
            free_bytes += array.nbytes
    if free and (free >= MAX_FREE or free_bytes + nbytes > _max_free_bytes()):
        trim()  # make room: drop the free arrays (of other shapes)
    array = np.empty(shape, dtype)
    _pool.append(array)
    _ids.add(id(array))
    return array


def _max_free_bytes() -> int:
    """MAX_FREE_BYTES, or an eighth of gradsh's memory limit where that is less (the free arrays
    count as resident memory, which the limit's watchdog reads)."""
    from gradsh.engine import limits  # (limits imports this module)

    return min(MAX_FREE_BYTES, limits.Limit.current() // 8)


def holds(array: Any) -> int:
    """1 where the pool references `array` (one more reference than its users'), else 0."""
    return 1 if id(array) in _ids and any(a is array for a in _pool) else 0


def trim() -> None:
    """Drop the arrays no one else uses any more (their memory goes back to the system)."""
    _keep([array for array in _pool if sys.getrefcount(array) != _FREE])


def settle() -> None:
    """At the end of a top-level statement: drop the free arrays that were free at the last
    settle too and not reused since; the ones freed since stay for the next statement, up to
    _max_free_bytes() of them (empty() bounds the free ones between two results the same)."""
    keep = []
    held = 0
    limit = _max_free_bytes()
    for array in _pool:
        if sys.getrefcount(array) != _FREE:
            _idle.discard(id(array))  # in use
            keep.append(array)
        elif id(array) not in _idle and held + array.nbytes <= limit:
            _idle.add(id(array))  # freed during this statement: kept one statement more
            keep.append(array)
            held += array.nbytes
    _keep(keep)


def _keep(arrays: list[np.ndarray]) -> None:
    """Make `arrays` the pool."""
    _pool[:] = arrays
    _ids.clear()
    _ids.update(id(array) for array in arrays)
    _idle.intersection_update(_ids)
