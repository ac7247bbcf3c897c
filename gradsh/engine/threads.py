"""Element-wise work on large arrays, split over the CPU cores.

PyTorch's CPU kernels run element-wise loops in parallel (`at::parallel_for`, one chunk per
thread once a tensor is large enough); NumPy runs every ufunc on one core. NumPy releases the
GIL inside its inner loops, so splitting one large ufunc call into contiguous chunks, each
written by a thread into its slice of one output array, does the same work on every core.

Each element is computed by the same loop on the same operands either way, so results are
bit for bit those of the single call (tests/test_threads.py checks it op by op).

Only plain cases are split: NumPy arrays on the CPU, every array operand either of the result's
shape and C-contiguous, or a single element (a 0-d array, a scalar, a stride-0 broadcast);
everything else, and anything smaller than `MIN_ELEMENTS`, is one ordinary call.

`GRADSH_NUM_THREADS` sets the number of threads (default: the usable cores; 1 turns this off).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from gradsh.engine import buffers

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

# Below this a ufunc call takes well under a millisecond: the threads' hand-off would cost more
# than they save (PyTorch's grain for element-wise kernels is 32,768 elements per thread).
MIN_ELEMENTS = 1 << 18


def _thread_count() -> int:
    setting = os.environ.get("GRADSH_NUM_THREADS", "")
    if setting.strip().isdigit() and int(setting) > 0:
        return int(setting)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


THREADS = _thread_count()

# The number of threads PyTorch's CPU kernels split a large tensor among
# (torch.get_num_threads()). It is not about gradsh's speed: past 32,768 elements it decides
# where element-wise loops hand elements to scalar code and how float sums are cut, and MKL's
# sgemm splits k differently with more threads, hence the last bits of float32 results. gradsh
# starts where PyTorch starts on this machine (OMP_NUM_THREADS or MKL_NUM_THREADS, else the
# physical cores: torch.get_num_threads() of a fresh PyTorch), so that a program prints what it
# prints under PyTorch here; torch.set_num_threads(n) follows n threads instead.


def default_torch_threads() -> int:
    """PyTorch's intra-op thread count at start-up (ATen's intraop_default_num_threads):
    MKL_NUM_THREADS, else OMP_NUM_THREADS, else the number of physical cores (cpuinfo's count:
    distinct cores among the present processors)."""
    count = 0
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # (the later one wins, as in ATen)
        value = os.environ.get(name, "").strip()
        if value.isdigit() and int(value) > 0:
            count = int(value)
    return count or _physical_cores()


def _physical_cores() -> int:
    base = "/sys/devices/system/cpu"
    cores = set()
    try:
        for name in os.listdir(base):
            if name.startswith("cpu") and name[3:].isdigit():
                topology = f"{base}/{name}/topology"
                with open(f"{topology}/physical_package_id") as package, \
                        open(f"{topology}/core_id") as core:
                    cores.add((package.read().strip(), core.read().strip()))
    except OSError:
        cores = set()
    return len(cores) or os.cpu_count() or 1


_torch_threads = default_torch_threads()
# Called with the new count when it changes (the MKL binding keeps MKL's own count in step).
_listeners: list[Callable[[int], None]] = []


def torch_threads() -> int:
    """The thread count whose PyTorch results gradsh reproduces (torch.get_num_threads())."""
    return _torch_threads


def set_torch_threads(count: int) -> None:
    """torch.set_num_threads: reproduce PyTorch's results with `count` threads."""
    global _torch_threads
    _torch_threads = max(1, int(count))
    for listener in _listeners:
        listener(_torch_threads)


def on_torch_threads(listener: Callable[[int], None]) -> None:
    """Call `listener(count)` whenever torch_threads() changes."""
    _listeners.append(listener)


_pool: ThreadPoolExecutor | None = None
_pool_pid = 0


def _executor() -> ThreadPoolExecutor:
    """The worker threads, started on first use (a forked child starts its own)."""
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        # Imported here, not at start-up: concurrent.futures brings threading and logging, and
        # only large arrays need the threads.
        from concurrent.futures import ThreadPoolExecutor

        _pool = ThreadPoolExecutor(max_workers=THREADS - 1, thread_name_prefix="gradsh")
        _pool_pid = os.getpid()
    return _pool


def _one_element(operand: Any) -> Any:
    """An operand that is a single value broadcast: that value as a 0-d array (its dtype kept,
    so type promotion is unchanged), else None."""
    if operand.ndim == 0:
        return operand
    if operand.size == 1 or (operand.size > 1 and not any(operand.strides)):
        return np.asarray(operand[(0,) * operand.ndim])
    return None


def _plan(operands: tuple[Any, ...], out: Any) -> tuple[tuple[int, ...], list[Any]] | None:
    """The result's shape and the operands as flat chunkable pieces, or None: not splittable."""
    shape: tuple[int, ...] | None = None
    flat: list[Any] = []
    for operand in operands:
        if operand.__class__ is not np.ndarray:
            if isinstance(operand, (bool, int, float, complex, np.generic)):
                flat.append(operand)
                continue
            return None
        if operand.size >= MIN_ELEMENTS:
            if not operand.flags.c_contiguous:
                single = _one_element(operand)
                if single is None:
                    return None
                flat.append(single)
                continue
            if shape is None:
                shape = operand.shape
            elif operand.shape != shape:
                return None
            flat.append(operand.reshape(-1))
            continue
        single = _one_element(operand)
        if single is None:
            return None  # a smaller array broadcast along some axes: one ordinary call
        flat.append(single)
    if shape is None:
        return None
    # A single element broadcast may still widen the result ((3, 4) from (1, 4) and a stride-0
    # (3, 4)): only split when the full operands' shape is the result's.
    if np.broadcast_shapes(*(o.shape for o in operands if o.__class__ is np.ndarray)) != shape:
        return None
    if out is not None and (out.__class__ is not np.ndarray or out.shape != shape
                            or not out.flags.c_contiguous or not out.flags.writeable):
        return None
    return shape, flat


def elementwise(ufunc: np.ufunc, *operands: Any, out: Any = None, dtype: Any = None) -> Any:
    """`ufunc(*operands, out=out, dtype=dtype)`, on every core when the arrays are large (and
    a large result, where none is given, in an array of the pool: gradsh.engine.buffers)."""
    if THREADS > 1 or (out is None and buffers._enabled):
        for operand in operands:
            if operand.__class__ is np.ndarray and operand.size >= MIN_ELEMENTS:
                plan = _plan(operands, out)
                if plan is not None:
                    if THREADS > 1:
                        return _split(ufunc, plan, out, dtype)
                    if ufunc.nout == 1:
                        out = _result(ufunc, plan, dtype)
                break
    return ufunc(*operands, out=out, dtype=dtype)


def _result(ufunc: np.ufunc, plan: tuple[tuple[int, ...], list[Any]], dtype: Any) -> Any:
    """An array for the result of the one call `plan` describes, from the pool."""
    shape, flat = plan
    # The result's dtype as the one call would choose it (and its errors, raised here).
    empty = ufunc(*(piece[:0] if piece.__class__ is np.ndarray and piece.ndim else piece
                    for piece in flat), dtype=dtype)
    return buffers.empty(shape, empty.dtype)


def _split(ufunc: np.ufunc, plan: tuple[tuple[int, ...], list[Any]], out: Any,
           dtype: Any) -> Any:
    shape, flat = plan
    if out is None:
        out = _result(ufunc, plan, dtype)
    target = out.reshape(-1)
    size = target.size
    # Chunk boundaries on multiples of 64 elements keep every chunk's start aligned for SIMD.
    step = ((size + THREADS - 1) // THREADS + 63) // 64 * 64

    def run(start: int) -> None:
        stop = min(start + step, size)
        pieces = [piece[start:stop] if piece.__class__ is np.ndarray and piece.ndim else piece
                  for piece in flat]
        with np.errstate(all="ignore"):  # a worker thread starts with NumPy's default state
            ufunc(*pieces, out=target[start:stop], dtype=dtype)

    starts = list(range(0, size, step))
    futures = [_executor().submit(run, start) for start in starts[1:]]
    try:
        run(starts[0])
    finally:
        _wait_for(futures)
    for future in futures:
        future.result()
    return out


def _wait_for(futures: list[Any]) -> None:
    """Return only when every chunk is written, so that no thread is left writing into an array
    (a statement that fails is rolled back, and its buffers reused). An interrupt or a timeout
    that arrives while waiting is raised once the chunks are done."""
    interrupted: BaseException | None = None
    while True:
        try:
            for future in futures:
                future.exception()
            break
        except BaseException as error:  # noqa: BLE001  (Ctrl-C, --timeout: raised just below)
            interrupted = error
    if interrupted is not None:
        raise interrupted
