"""Which elements of a float32 tensor PyTorch's element-wise CPU loops run through SIMD code.

ATen's `cpu_kernel_vec` (TensorIterator + `vectorized_loop` in Loops.h) walks the tensor in
memory order, splits the elements among threads when there are more than GRAIN_SIZE of them,
and in each contiguous run hands blocks of 2 x 16 floats to the vector op and the rest of the
run to the scalar op. A strided innermost dimension runs entirely through the scalar op.
"""

from __future__ import annotations

import numpy as np

BLOCK = 32  # 2 * Vectorized<float>::size() on AVX-512
GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE


def _runs_simd(run_starts: np.ndarray, run_length: int, begin: int, end: int,
               out: np.ndarray) -> None:
    """Mark, in the linear iteration order `out`, the SIMD elements of runs cut to [begin, end)."""
    for start in run_starts:
        lo, hi = max(start, begin), min(start + run_length, end)
        if hi > lo:
            n_simd = (hi - lo) // BLOCK * BLOCK
            out[lo:lo + n_simd] = True


def _thread_ranges(numel: int, threads: int) -> list[tuple[int, int]]:
    """at::parallel_for's split of [0, numel) (OpenMP backend)."""
    if numel < GRAIN_SIZE or threads <= 1:
        return [(0, numel)]
    used = min(threads, -(-numel // GRAIN_SIZE))
    chunk = -(-numel // used)
    return [(t * chunk, min(numel, (t + 1) * chunk)) for t in range(used) if t * chunk < numel]


def simd_mask(shape: tuple[int, ...], strides: tuple[int, ...] | None = None,
              threads: int = 1) -> np.ndarray:
    """Boolean array of `shape`: True where a unary float32 kernel takes the vector path.

    `strides` are in elements (None: C-contiguous); `threads` is torch.get_num_threads().
    """
    shape = tuple(int(s) for s in shape)
    numel = int(np.prod(shape, dtype=np.int64))
    if strides is None:
        strides = tuple(int(s) for s in np.cumprod((1,) + shape[:0:-1])[::-1]) if shape else ()
    if numel == 0:
        return np.zeros(shape, bool)
    dims = [(st, sz) for st, sz in zip(strides, shape) if sz != 1]
    # TensorIterator orders the dimensions by stride, the fastest-moving innermost.
    order = sorted(range(len(dims)), key=lambda d: -abs(dims[d][0]))
    ordered = [dims[d] for d in order]
    # Coalesce neighbours that form one strided run.
    merged: list[list[int]] = []
    for st, sz in ordered:
        if merged and merged[-1][0] == st * sz:
            merged[-1] = [st, merged[-1][1] * sz]
        else:
            merged.append([st, sz])
    inner_stride, inner = (merged[-1][0], merged[-1][1]) if merged else (1, 1)
    linear = np.zeros(numel, bool)
    if inner_stride == 1 or len(merged) == 0:
        starts = np.arange(0, numel, inner)
        for begin, end in _thread_ranges(numel, threads):
            _runs_simd(starts, inner, begin, end, linear)
    # `linear` is in the iteration order (dims sorted by stride); bring it back to logical order.
    if len(dims) == 0:
        return linear.reshape(shape)
    sizes = [dims[d][1] for d in order]
    iter_view = linear.reshape(sizes)
    inverse = np.argsort(order)
    logical = iter_view.transpose(inverse)
    return logical.reshape(shape)


def mask_for(x: np.ndarray, threads: int = 1) -> np.ndarray:
    """simd_mask for a NumPy array, from its own strides."""
    strides = tuple(s // x.itemsize for s in x.strides)
    return simd_mask(x.shape, strides, threads)
