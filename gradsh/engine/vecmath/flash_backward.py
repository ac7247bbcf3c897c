"""The backward of ATen's CPU flash attention (cpu_flash_attention_backward in
FlashAttentionKernel.cpp) for float32, step for step: per (batch, head), per block of query rows
and of keys,

* dsum = rowsum(grad_out * out) by vec::map2_reduce_all;
* the probabilities rebuilt as exp(scale * q k^T + mask - logsumexp) (MKL's sgemm with the
  scale as alpha, Sleef's expf), zero past the diagonal when causal;
* grad_v += P^T grad_out, grad_P = grad_out v^T, grad_S = P * (grad_P - dsum),
  grad_q += scale * grad_S k, grad_k += scale * grad_S^T q, each an sgemm called as ATen calls
  it, into zeroed (batch, rows, heads, head size) gradients and the thread's 64-byte-aligned
  scratch buffer.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine import threads
from gradsh.engine.vecmath.flash import _KV_SPLIT, _ld, kernel_setup, mkl_sequential
from gradsh.engine.vecmath.fp import F32
from gradsh.engine.vecmath.lapack_decompositions import _aligned
from gradsh.engine.vecmath.sleef import expf_u10
from gradsh.engine.vecmath.vecreduce import dot_last


def _zeros(shape: tuple[int, ...]) -> np.ndarray:
    out = _aligned(shape, np.dtype(F32))
    out[...] = 0.0
    return out


def attention_backward(grad_out: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                       out: np.ndarray, lse: np.ndarray, mask: np.ndarray | None,
                       is_causal: bool, scale: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(grad_q, grad_k, grad_v) of the flash attention of (batch, heads, rows, head size)
    float32 arrays, as ATen computes them; None where MKL is not loaded or the strides are
    not ones sgemm takes."""
    setup = kernel_setup(q, k, v, mask, scale) if grad_out.dtype == F32 else None
    if setup is None:
        return None
    routines, mask, factor, q_split, kv_split = setup
    batch, heads, q_size, head_size = q.shape
    kv_size = k.shape[2]
    # grad_out.transpose(1, 2).contiguous(), and the gradients zeroed in that layout
    go = _aligned((batch, q_size, heads, head_size), np.dtype(F32))
    go[...] = grad_out.transpose(0, 2, 1, 3)
    go = go.transpose(0, 2, 1, 3)
    grads = [_zeros((batch, size, heads, head_size)).transpose(0, 2, 1, 3)
             for size in (q_size, kv_size, kv_size)]
    count = threads.torch_threads()
    blocks = batch * heads
    chunk = -(-blocks // min(count, blocks))
    per_thread = 2 * q_split * kv_split
    buf = _aligned((count * per_thread,), np.dtype(F32))
    with mkl_sequential(blocks, count), np.errstate(all="ignore"):
        for index in range(blocks):
            i, j = divmod(index, heads)
            start = index // chunk * per_thread
            scratch = (buf[start:start + q_split * kv_split],
                       buf[start + q_split * kv_split:start + per_thread])
            head_mask = None if mask is None else mask[i, j]
            for m in range(0, q_size, q_split):
                rows = min(q_split, q_size - m)
                dsum = dot_last(go[i, j, m:m + rows], out[i, j, m:m + rows])  # unfused: probed
                _block(routines, (q[i, j], k[i, j], v[i, j], go[i, j]),
                       tuple(g[i, j] for g in grads), scratch, (m, rows),
                       lse[i, j, m:m + rows], dsum, head_mask, is_causal, factor)
    return grads[0], grads[1], grads[2]


def _block(routines: type, inputs: tuple[np.ndarray, ...], grads: tuple[np.ndarray, ...],
           scratch: tuple[np.ndarray, np.ndarray], rows_at: tuple[int, int],
           lse: np.ndarray, dsum: np.ndarray, mask: np.ndarray | None, is_causal: bool,
           factor: np.float32) -> None:
    """One block of query rows against every block of keys, accumulating into the grads."""
    q, k, v, go = inputs
    grad_q, grad_k, grad_v = grads
    m, rows = rows_at
    kv_size, head_size = k.shape
    num_keys = min(m + rows, kv_size) if is_causal else kv_size
    gemm = routines.gemm
    for n in range(0, num_keys, _KV_SPLIT):
        cols = min(_KV_SPLIT, kv_size - n)
        attn = scratch[0][:rows * cols].reshape(rows, cols)
        grad_attn = scratch[1][:rows * cols].reshape(rows, cols)
        gemm(True, False, cols, rows, head_size, factor, k[n:], _ld(k, 0), q[m:], _ld(q, 0),
             0.0, attn, cols)
        scores = attn if mask is None else attn + mask[m:m + rows, n:n + cols]
        attn[...] = expf_u10(scores - lse[:, None])
        if is_causal and num_keys - n <= _KV_SPLIT:
            last = m + np.arange(rows) - n
            attn[np.arange(cols)[None, :] > last[:, None]] = 0.0
        gemm(False, True, head_size, cols, rows, 1.0, go[m:], _ld(go, 0), attn, cols, 1.0,
             grad_v[n:], _ld(grad_v, 0))
        gemm(True, False, cols, rows, head_size, 1.0, v[n:], _ld(v, 0), go[m:], _ld(go, 0),
             0.0, grad_attn, cols)
        grad_attn[...] = attn * (grad_attn - dsum[:, None])
        gemm(False, False, head_size, rows, cols, factor, k[n:], _ld(k, 0), grad_attn, cols,
             1.0, grad_q[m:], _ld(grad_q, 0))
        gemm(False, True, head_size, cols, rows, factor, q[m:], _ld(q, 0), grad_attn, cols,
             1.0, grad_k[n:], _ld(grad_k, 0))
