"""The forward of ATen's CPU flash attention (cpu_flash_attention in FlashAttentionKernel.cpp)
for float32, step for step, so F.scaled_dot_product_attention, nn.MultiheadAttention with
need_weights=False and the nn.Transformer layers print PyTorch's bits.

Per (batch, head) and block of at most 32 query rows (64 from 192 rows, 256 from 768), and per
block of at most 512 keys:

* q k^T by MKL's sgemm, called as ATen calls it (column-major, k transposed, the strided
  operands in place), then times the scale (or times the scale plus the mask) and the row max;
* exp(s - max) by exp_u20, AVX-512's polynomial exp, on whole 16-lane vectors and glibc's expf
  on the rest of the row; the row sum from 16 lane accumulators folded by the shuffle tree,
  then the tail added in order;
* the running max and sum rescaled by expf(old max - new max) (the online softmax), the
  unnormalised probabilities times v by sgemm into the output rows, and at the end the rows
  times 1 / sum.

Returns None (the caller computes it another way) where MKL is not loaded or an operand's
strides are not ones sgemm takes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np

from gradsh.engine import threads
from gradsh.engine.vecmath import blas, mkl
from gradsh.engine.vecmath.fp import F32, I32, fma32
from gradsh.engine.vecmath.lapack_decompositions import _aligned
from gradsh.engine.vecmath.libm import expf, logf
from gradsh.engine.vecmath.vecreduce import LANES, add
from gradsh.engine.vecmath.vecreduce import _tree as _lane_tree

_KV_SPLIT = 512
_FACTORIALS = [F32(v) for v in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506,
                                0.999999701, 1.0)]
_LOG2EF = np.array(0x3fb8aa3b, I32).view(F32)
_LN2F = np.array(0x3f317218, I32).view(F32)
_LN_FLT_MIN = np.array(0xc2aeac50 - (1 << 32), I32).view(F32)
_LN_FLT_MAX = np.array(0x42b17218, I32).view(F32)
_HALF, _ONE, _TWO = F32(0.5), F32(1.0), F32(2.0)


def exp_u20(x: np.ndarray) -> np.ndarray:
    """ATen's Vectorized<float>::exp_u20 (AVX-512): 2^n times a degree-5 polynomial of the
    reduced argument, with its fused multiply-adds; 0 below log(FLT_MIN)."""
    with np.errstate(all="ignore"):
        below = x < _LN_FLT_MIN
        src = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
        fx = np.floor(fma32(src, _LOG2EF, _HALF)).astype(I32).astype(F32)
        r = fma32(-fx, _LN2F, src)
        res = fma32(r, _FACTORIALS[0], _FACTORIALS[1])
        for c in _FACTORIALS[2:]:
            res = fma32(r, res, c)
        n = np.rint(fx - _ONE).astype(I32)
        two_pow_n = ((n + 127) << 23).astype(I32).view(F32)
        two_pow_n = np.where(below, F32(0.0), two_pow_n)
        return (res * two_pow_n) * _TWO


def _exp_rows(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_exp_reduce_sum_fusion_kernel on each row of e = s - max: the exps and their sums."""
    rows, n = e.shape
    full = n - n % LANES
    out = np.empty_like(e)
    lanes = np.zeros((rows, LANES), F32)
    if full:
        out[:, :full] = exp_u20(e[:, :full])
        for start in range(0, full, LANES):
            lanes = lanes + out[:, start:start + LANES]
    total = _lane_tree(lanes, add)
    if n > full:
        out[:, full:] = expf(e[:, full:])
        for j in range(full, n):
            total = total + out[:, j]
    return out, total


def _ld(array: np.ndarray, axis: int) -> int:
    return array.strides[axis] // array.itemsize


def _usable(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> bool:
    """float32 operands with unit stride on the head dimension and row strides sgemm takes."""
    for a in (q, k, v):
        if a.dtype != F32 or (a.shape[-1] > 1 and a.strides[-1] != a.itemsize):
            return False
        if _ld(a, 2) < max(1, a.shape[-1]):
            return False
    return True


def _q_split(q_size: int) -> int:
    return 256 if q_size >= 768 else 64 if q_size >= 192 else 32


def kernel_setup(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                 scale: float) -> tuple[type, np.ndarray | None, np.float32, int, int] | None:
    """What both kernels start from: MKL's routines, the mask broadcast to (batch, heads,
    rows, keys) in float32, the float32 scale and the block sizes; None without MKL or with
    strides sgemm does not take."""
    routines = blas._calls(q, k, v)
    if routines is None or not _usable(q, k, v):
        return None
    batch, heads, q_size, _ = q.shape
    kv_size = k.shape[2]
    if mask is not None:
        mask = np.broadcast_to(np.asarray(mask, F32), (batch, heads, q_size, kv_size))
    return (routines, mask, F32(scale), min(_q_split(q_size), q_size),
            min(_KV_SPLIT, kv_size))


@contextlib.contextmanager
def mkl_sequential(blocks: int, count: int) -> Iterator[None]:
    """MKL at one thread while the block loop runs, where ATen's parallel_for runs it inside
    an OpenMP region (more than one block and thread), where MKL is sequential."""
    library = mkl.library()
    sequential = library is not None and blocks > 1 and count > 1
    previous = library.MKL_Set_Num_Threads_Local(1) if sequential else None
    try:
        yield
    finally:
        if sequential:
            library.MKL_Set_Num_Threads_Local(previous)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
              is_causal: bool, scale: float) -> tuple[np.ndarray, np.ndarray] | None:
    """softmax(q k^T * scale + mask) v for (batch, heads, rows, head size) float32 arrays, as
    ATen's flash kernel computes it (row-major result), with the rows' logsumexp (batch,
    heads, rows) the backward starts from; None where it cannot."""
    setup = kernel_setup(q, k, v, mask, scale)
    if setup is None:
        return None
    routines, mask, factor, q_split, kv_split = setup
    batch, heads, q_size, head_size = q.shape
    # ATen runs the blocks in at::parallel_for, each thread in its part of one scratch buffer
    # (qk, max, sum, dst; 64-byte aligned): MKL's sgemm rounds differently at other
    # alignments, so each block uses the part its thread would
    count = threads.torch_threads()
    blocks = batch * heads * -(-q_size // q_split)
    chunk = -(-blocks // min(count, blocks))
    per_thread = q_split * kv_split + 2 * q_split + q_split * head_size
    buf = _aligned((count * per_thread,), np.dtype(F32))
    out = np.empty(q.shape, F32)
    lse = np.empty(q.shape[:3], F32)
    with mkl_sequential(blocks, count):
        index = 0
        for i in range(batch):
            for j in range(heads):
                for m in range(0, q_size, q_split):
                    rows = min(q_split, q_size - m)
                    block_mask = None if mask is None else mask[i, j, m:m + rows]
                    start = index // chunk * per_thread
                    scratch = (buf[start:start + q_split * kv_split],
                               buf[start + q_split * kv_split + 2 * q_split:start + per_thread])
                    out[i, j, m:m + rows], lse[i, j, m:m + rows] = _query_block(
                        routines, (q[i, j, m:], k[i, j], v[i, j]), scratch, rows, m,
                        block_mask, is_causal, factor)
                    index += 1
    return out, lse


def _query_block(routines: type, qkv: tuple[np.ndarray, np.ndarray, np.ndarray],
                 buffers: tuple[np.ndarray, np.ndarray], rows: int, m: int,
                 mask: np.ndarray | None, is_causal: bool,
                 factor: np.float32) -> tuple[np.ndarray, np.ndarray]:
    """One block of query rows against every block of keys (the kernel's inner loop), with
    qk and dst in the scratch buffers: the output rows and their logsumexp."""
    q, k, v = qkv
    kv_size, head_size = k.shape
    row_max = np.full(rows, -np.inf, F32)
    row_sum = np.zeros(rows, F32)
    dst = buffers[1][:rows * head_size].reshape(rows, head_size)
    num_keys = min(m + rows, kv_size) if is_causal else kv_size
    with np.errstate(all="ignore"):
        for n in range(0, num_keys, _KV_SPLIT):
            cols = min(_KV_SPLIT, kv_size - n)
            qk = buffers[0][:rows * cols].reshape(rows, cols)
            routines.gemm(True, False, cols, rows, head_size, 1.0, k[n:], _ld(k, 0), q,
                          _ld(q, 0), 0.0, qk, cols)
            if is_causal and num_keys - n <= _KV_SPLIT:
                last = m + np.arange(rows) - n
                qk[np.arange(cols)[None, :] > last[:, None]] = -np.inf
            if mask is not None:
                scores = fma32(qk, factor, mask[:, n:n + cols])
            else:
                scores = qk * factor
            block_max = np.maximum(row_max, scores.max(axis=1))
            live = block_max != -np.inf
            e, sums = _exp_rows(scores - block_max[:, None])
            e[~live] = 0.0
            qk[...] = e
            rescale = expf(row_max - block_max)
            row_sum = np.where(live, fma32(rescale, row_sum, sums), row_sum)
            if n > 0:
                dst[...] = np.where(live[:, None], dst * rescale[:, None], dst)
            row_max = np.where(live, block_max, row_max)
            routines.gemm(False, False, head_size, rows, cols, 1.0, v[n:], _ld(v, 0), qk, cols,
                          0.0 if n == 0 else 1.0, dst, head_size)
        row_sum = np.where(row_sum == 0, F32(1.0), row_sum)
        row_max = np.where(row_max == -np.inf, F32(0.0), row_max)
        return dst * (F32(1.0) / row_sum)[:, None], row_max + logf(row_sum)
