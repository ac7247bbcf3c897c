"""How PyTorch's TensorIterator walks a CPU tensor, and which elements of a float32 element-wise
op its loops run through SIMD code.

TensorIterator orders the dimensions by stride (the fastest moving first), merges neighbours that
form one strided run, splits the elements among threads when there are more than GRAIN_SIZE of
them, and hands each run of the innermost dimension to the loop. `cpu_kernel_vec`'s loop
(Loops.h `vectorized_loop`) gives blocks of 2 x 16 floats to the vector op and the rest of the
run to the scalar op, when every operand is contiguous along the run (or exactly one input is a
broadcast scalar there); otherwise the whole run goes to the scalar op.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

BLOCK = 32  # 2 * Vectorized<float>::size() on AVX-512
GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE


def _should_swap(strides: Sequence[Sequence[int]], sizes: Sequence[int], a: int, b: int,
                 reduced_output: bool) -> int:
    """reorder_dimensions' comparison of dimensions a and b over the operands' strides (the
    output's first when `reduced_output`): 1 when a goes after b, -1 before, 0 undecided."""
    for arg, stride in enumerate(strides):
        s0, s1 = stride[a], stride[b]
        if reduced_output and arg == 0 and (s0 == 0) != (s1 == 0):
            return 1 if s1 == 0 else -1  # reduced dimensions go first
        if s0 == 0 or s1 == 0:
            continue
        if s0 != s1:
            return -1 if s0 < s1 else 1
        if sizes[a] > sizes[b]:
            return 1
    return 0


def iteration_order(sizes: Sequence[int], strides: Sequence[Sequence[int]],
                    reduced_output: bool = False) -> list[int]:
    """The dimensions in TensorIterator's order, fastest first (insertion sort from the last
    dimension, tolerating undecided comparisons, as reorder_dimensions)."""
    perm = list(range(len(sizes)))[::-1]
    for i in range(1, len(perm)):
        j = i
        for k in range(i - 1, -1, -1):
            comparison = _should_swap(strides, sizes, perm[k], perm[j], reduced_output)
            if comparison > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif comparison < 0:
                break
    return perm


def coalesce(sizes: list[int], strides: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """coalesce_dimensions on dimensions already in iteration order: a dimension merges into
    the previous one when, for every operand, it continues the previous one's run."""
    out_sizes: list[int] = []
    out_strides: list[list[int]] = [[] for _ in strides]
    for d, size in enumerate(sizes):
        if out_sizes and all(out_sizes[-1] * s[-1] == stride[d]
                             for s, stride in zip(out_strides, strides)):
            out_sizes[-1] *= size
            continue
        out_sizes.append(size)
        for s, stride in zip(out_strides, strides):
            s.append(stride[d])
    return out_sizes, out_strides


def thread_ranges(numel: int, threads: int) -> list[tuple[int, int]]:
    """at::parallel_for's split of [0, numel) with GRAIN_SIZE (OpenMP backend)."""
    if numel <= GRAIN_SIZE or threads <= 1:
        return [(0, numel)]
    used = min(threads, -(-numel // GRAIN_SIZE))
    chunk = -(-numel // used)
    return [(t * chunk, min(numel, (t + 1) * chunk)) for t in range(used) if t * chunk < numel]


def loop_mask(shape: tuple[int, ...], inputs: Sequence[Sequence[int] | None],
              threads: int = 1, contiguous_output: bool = False, block: int = BLOCK) -> np.ndarray:
    """Boolean array of `shape`: True where an element-wise float32 kernel takes the vector path.

    `inputs` are the inputs' strides in elements (None: C-contiguous; a broadcast dimension has
    stride 0); the output is the new tensor PyTorch allocates, its dimensions in the inputs'
    order, or C-contiguous (an op that allocates it itself, as pow(number, tensor));
    `threads` is torch.get_num_threads(); `block` the vector loop's step (16 for float64).
    """
    shape = tuple(int(s) for s in shape)
    numel = int(np.prod(shape, dtype=np.int64))
    if numel == 0:
        return np.zeros(shape, bool)
    contiguous = [int(s) for s in np.cumprod((1,) + shape[:0:-1])[::-1]] if shape else []
    in_strides = [list(contiguous) if s is None else [int(v) for v in s] for s in inputs]
    keep = [d for d, n in enumerate(shape) if n != 1]
    sizes = [shape[d] for d in keep]
    in_strides = [[s[d] for d in keep] for s in in_strides]
    out_stride, step = [0] * len(sizes), 1
    if contiguous_output:
        for d in reversed(range(len(sizes))):
            out_stride[d] = step
            step *= sizes[d]
        order = iteration_order(sizes, [out_stride] + in_strides)
    else:
        order = iteration_order(sizes, in_strides)
        for d in order:  # the output is dense in the iteration order
            out_stride[d] = step
            step *= sizes[d]
    operands = [out_stride] + in_strides
    merged_sizes, merged = coalesce([sizes[d] for d in order],
                                    [[s[d] for d in order] for s in operands])
    linear = np.zeros(numel, bool)
    inner = merged_sizes[0] if merged_sizes else 1
    inner_strides = [s[0] if s else 1 for s in merged]
    contiguous_run = all(s == 1 for s in inner_strides)
    scalar_inputs = [s == 0 for s in inner_strides[1:]]
    if contiguous_run or (sum(scalar_inputs) == 1 and inner_strides[0] == 1 and all(
            s in (0, 1) for s in inner_strides[1:])):
        for begin, end in thread_ranges(numel, threads):
            first = begin - begin % inner
            for start in range(first, end, inner):
                lo, hi = max(start, begin), min(start + inner, end)
                linear[lo:lo + (hi - lo) // block * block] = True
    # `linear` follows the iteration order (fastest first): back to the logical order
    if not sizes:
        return linear.reshape(shape)
    iterated = linear.reshape([sizes[d] for d in reversed(order)])
    axes = list(reversed(order))  # axis i of `iterated` is dimension axes[i]
    logical = iterated.transpose(np.argsort(axes))
    return logical.reshape(shape)


def simd_mask(shape: tuple[int, ...], strides: tuple[int, ...] | None = None,
              threads: int = 1, block: int = BLOCK) -> np.ndarray:
    """loop_mask for a unary op on one input with `strides` (elements; None: C-contiguous)."""
    return loop_mask(shape, [strides], threads, block=block)


def mask_for(x: np.ndarray, threads: int = 1, block: int = BLOCK) -> np.ndarray:
    """simd_mask for a NumPy array, from its own strides."""
    return simd_mask(x.shape, tuple(s // x.itemsize for s in x.strides), threads, block)


def dense_order(x: np.ndarray) -> list[int] | None:
    """The axes of x from slowest to fastest in memory when x covers its memory without gaps
    (any permutation of a contiguous array), else None."""
    item = x.itemsize
    axes = sorted((a for a in range(x.ndim) if x.shape[a] != 1), key=lambda a: -x.strides[a])
    step = item
    for a in reversed(axes):
        if x.strides[a] != step:
            return None
        step *= x.shape[a]
    return [a for a in range(x.ndim) if x.shape[a] == 1] + axes


def dense_segments(numel: int, threads: int = 1,
                   block: int = BLOCK) -> list[tuple[int, int, bool]]:
    """For a dense tensor walked in memory order: (start, stop, vectorised) pieces of
    [0, numel), each thread's range a vector part (whole blocks) and a scalar tail."""
    pieces = []
    for begin, end in thread_ranges(numel, threads):
        cut = begin + (end - begin) // block * block
        if cut > begin:
            pieces.append((begin, cut, True))
        if end > cut:
            pieces.append((cut, end, False))
    return pieces


# Result layouts: the strides (in elements) ATen gives a new tensor.

def is_non_overlapping_and_dense(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """TensorImpl's compute_non_overlapping_and_dense: the dimensions of size 2 or more, by
    stride, cover memory without gaps or overlap (size-1 dimensions' strides do not matter)."""
    step = 1
    for stride, size in sorted((s, n) for n, s in zip(sizes, strides) if n >= 2):
        if stride != step:
            return False
        step *= size
    return True


def is_contiguous(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """TensorImpl's compute_contiguous (size-1 dimensions' strides do not matter)."""
    step = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size == 0:
            return True
        if size != 1:
            if stride != step:
                return False
            step *= size
    return True


def is_channels_last(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """compute_channels_last_contiguous_2d/3d: NHWC (NDHWC) order, size-1 dimensions ignored."""
    if len(sizes) not in (4, 5):
        return False
    step = 1
    for d in (1, 3, 2, 0) if len(sizes) == 4 else (1, 4, 3, 2, 0):
        if sizes[d] != 1:
            if strides[d] != step:
                return False
            step *= sizes[d]
    return True


def strides_like_channels_last(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """is_channels_last_strides_2d_s4/3d_s5 (suggest_memory_format's test): strides that grow
    from channels to width, height (depth) and batch, a size-1 dimension's stride counted as
    is; ambiguous layouts (N111, a trivial channel stride) are row-major."""
    if len(sizes) not in (4, 5) or strides[1] == 0:
        return False
    low = 0
    for d in (1, 3, 2, 0) if len(sizes) == 4 else (1, 4, 3, 2, 0):
        if sizes[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return False
        low = strides[d] * (sizes[d] if sizes[d] > 1 else 1)
    return True


def row_major(sizes: Sequence[int]) -> tuple[int, ...]:
    """Contiguous strides (c10's contiguous_strides: a size-0 or 1 dimension counts as 1)."""
    strides, step = [], 1
    for size in reversed(sizes):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def channels_last(sizes: Sequence[int]) -> tuple[int, ...]:
    """get_channels_last_strides_2d/3d: channels fastest, then width, height (depth), batch."""
    strides = [0] * len(sizes)
    step = 1
    for d in (1, 3, 2, 0) if len(sizes) == 4 else (1, 4, 3, 2, 0):
        strides[d] = step
        step *= max(sizes[d], 1)
    return tuple(strides)


def permuted(sizes: Sequence[int], perm: Sequence[int]) -> tuple[int, ...]:
    """Dense strides with the dimensions in `perm`'s order, fastest first (TensorIterator's
    compatible_stride, inverted)."""
    strides = [0] * len(sizes)
    step = 1
    for d in perm:
        strides[d] = step
        step *= sizes[d]
    return tuple(strides)


def iterator_strides(sizes: Sequence[int],
                     operands: Sequence[tuple[Sequence[int], Sequence[int]]]) -> tuple[int, ...]:
    """The strides TensorIterator gives the output of an element-wise op over `operands`
    ((sizes, strides) each; a Python number is a 0-d operand): compute_fast_setup_type when
    every operand has the result's sizes (all contiguous: contiguous; all channels-last:
    channels-last; all non-overlapping and dense with equal strides: those strides), else the
    operands' broadcast strides ordered by reorder_dimensions."""
    sizes = tuple(sizes)
    if all(tuple(shape) == sizes for shape, _ in operands):
        if all(is_contiguous(sizes, strides) for _, strides in operands):
            return row_major(sizes)
        if all(is_channels_last(sizes, strides) for _, strides in operands):
            return channels_last(sizes)
        first = tuple(operands[0][1])
        if all(tuple(strides) == first for _, strides in operands) and \
                is_non_overlapping_and_dense(sizes, first):
            return first
    ndim = len(sizes)
    broadcast = []
    for shape, strides in operands:
        if not shape:
            continue  # 0-d: strides 0 throughout, never decides the order
        lead = ndim - len(shape)
        broadcast.append([0] * lead + [
            0 if n == 1 and sizes[lead + i] != 1 else s
            for i, (n, s) in enumerate(zip(shape, strides))])
    perm = iteration_order(sizes, broadcast)
    if perm == list(range(ndim - 1, -1, -1)):
        return row_major(sizes)
    return permuted(sizes, perm)


def preserve_strides(sizes: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """empty_like(self, preserve_format)'s strides: self's own when non-overlapping and dense,
    else infer_dense_strides (self's dimensions ordered by stride, 0 strides undecided: an
    expanded tensor's copy is row-major)."""
    if is_non_overlapping_and_dense(sizes, strides):
        return tuple(strides)
    perm = iteration_order(sizes, [strides])
    out = [0] * len(sizes)
    step = 1
    for d in perm:
        out[d] = step
        if sizes[d] > 1:
            step *= sizes[d]
    return tuple(out)


def element_strides(x: np.ndarray) -> tuple[int, ...]:
    """x's strides in elements, as Tensor.stride() gives them."""
    item = x.itemsize
    return tuple(s // item for s in x.strides)


def with_strides(x: np.ndarray, strides: tuple[int, ...]) -> np.ndarray:
    """x with these element strides (a dense layout): itself when it has them, else a copy in
    a new array laid out so (a view of a 1-d buffer that only it holds)."""
    if element_strides(x) == strides:
        return x
    item = x.itemsize
    laid = np.ndarray(x.shape, x.dtype, np.empty(x.size, x.dtype),
                      strides=tuple(s * item for s in strides))
    laid[...] = x
    return laid


def owns_memory(x: np.ndarray) -> bool:
    """Whether x owns its memory or is the only holder of the 1-d buffer it views (an array
    with_strides laid out): writing into it changes no other array."""
    if x.flags.owndata:
        return True
    base = x.base
    return (base.__class__ is np.ndarray and base.ndim == 1 and base.flags.owndata
            and sys.getrefcount(base) == 2)  # (x's reference and getrefcount's argument)


def grad_strides(sizes: Sequence[int], leaf: Sequence[int], grad: Sequence[int]
                 ) -> tuple[int, ...] | None:
    """The strides of a leaf's first .grad (AccumulateGrad): the gradient's own when it obeys
    the layout contract (obeys_layout_contract: the leaf's strides where the leaf is dense,
    size-1 dimensions free but not 0; contiguous where it is not), and PyTorch keeps it; else
    clone_obey_contract's: the leaf's strides (dense leaf) or None, row-major."""
    if is_non_overlapping_and_dense(sizes, leaf):
        if all((g != 0) if n == 1 else (g == s) for n, s, g in zip(sizes, leaf, grad)):
            return tuple(grad)
        return tuple(leaf)
    return tuple(grad) if is_contiguous(sizes, grad) else None


def writable_alias(data: np.ndarray) -> np.ndarray | None:
    """A writable array over the memory the read-only view `data` reads, or None where that
    memory is itself read-only (a NumPy array the program passed in, a snapshot)."""
    root: object = data
    while getattr(root, "base", None) is not None and hasattr(root.base, "__array_interface__"):
        root = root.base
    if not isinstance(root, np.ndarray) or not root.flags.writeable \
            or not root.flags.c_contiguous:
        return None
    offset = data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return np.ndarray(data.shape, data.dtype, buffer=root.reshape(-1).view(np.uint8),
                      offset=offset, strides=data.strides)


def sliced(array: Any, key: tuple[Any, ...]) -> Any:
    """array[key] (slices and ints, then perhaps an Ellipsis), an empty result kept where ATen
    puts it in memory (start * stride on, its storage_offset): NumPy starts an empty slice at
    the array's own start. Other arrays and non-empty results as NumPy gives them."""
    out = array[key]
    if out.size or out.__class__ is not np.ndarray or not array.size:
        return out
    offset = array.__array_interface__["data"][0]
    for dim, k in enumerate(key):
        if k is Ellipsis:
            break
        start = k.indices(array.shape[dim])[0] if isinstance(k, slice) else \
            int(k) % array.shape[dim]
        offset += start * array.strides[dim]
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    offset -= root.__array_interface__["data"][0]
    if not root.flags.c_contiguous or not 0 <= offset <= root.nbytes:
        return out
    return np.ndarray(out.shape, out.dtype, buffer=root.reshape(-1).view(np.uint8),
                      offset=offset, strides=out.strides)
