"""PyTorch's CPU flash attention (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp), step for
step, for float32 and float64: F.scaled_dot_product_attention's bits on 4-D inputs.

The forward cuts the queries into blocks of 32, 64 or 256 rows (by the query length: under 192,
under 768, from 768) and the keys into blocks of 512; per (batch, head, query block) it runs an
online softmax over the key blocks: MKL's gemm for q k^T, the scale (a fused multiply-add with
the mask where there is one), the row maximum, `exp_u20(x - max)` summed in vector lanes (the
row's tail through the C library's exp), the running sum rescaled by `exp(old max - new max)`,
MKL's gemm accumulating p v; at the end `dst * (1 / sum)` and the logsumexp `max + log(sum)`.
The backward recomputes each block's probabilities from the logsumexp (SLEEF's exp) and
accumulates grad_v, grad_q, grad_k with MKL's gemm, per (batch, head) in order of the blocks.

Each block's numbers are the same at any thread count; PyTorch's loop over (batch, head,
block) runs inside an OpenMP region where there is more than one item and more than one thread,
and MKL then runs on one thread, as `gemm_calls.sequential_in_region` arranges here. Everything vectorises over
the (batch, head) pairs: one gemm call per pair and block, the element-wise steps on all of
them at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.vecmath import blas, gemm_calls, libm, sleef, sleef_double
from gradsh.engine.vecmath.fp import F32, F64, fma32
from gradsh.engine.vecmath.vecreduce import _tree, add, add64

__all__ = ["available", "forward", "backward"]

_KV_SPLIT = 512
# exp_u20's constants, by their bits: ln(FLT_MIN), ln(FLT_MAX), log2(e), ln(2)
_LN_FLT_MIN, _LN_FLT_MAX, _LOG2E, _LN2 = np.array(
    [0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218], np.uint32).view(F32)


def split_sizes(q_len: int) -> tuple[int, int]:
    """flash_attention_kernel_impl's (q_split_size, kv_split_size) for a query length."""
    if q_len >= 768:
        return 256, _KV_SPLIT
    if q_len >= 192:
        return 64, _KV_SPLIT
    return 32, _KV_SPLIT


def available(*arrays: np.ndarray) -> bool:
    """Whether MKL's gemm is there for the arrays' dtype (float32 or float64)."""
    return blas._calls(*arrays) is not None and (
        arrays[0].dtype == F32 or sleef_double.available())


def _thread_of(items: int) -> list[int]:
    """The OpenMP thread at::parallel_for (grain 1) gives each of `items`: contiguous chunks of
    ceil(items / threads); all on thread 0 where it runs inline (one item or one thread)."""
    count = threads.torch_threads()
    if count <= 1 or items <= 1:
        return [0] * items
    chunk = -(-items // min(count, items))
    return [i // chunk for i in range(items)]


def _placed(shape: tuple[int, ...], dtype: np.dtype, offsets: list[int],
            zero: bool = False) -> list[np.ndarray]:
    """One array of `shape` per item, each `offsets[i]` elements past a 64-byte boundary: where
    the kernel's per-thread buffer (at::empty({num_thread, size_per_thread}), 64-byte aligned)
    puts that item's block. MKL's gemm peels a misaligned output's first columns into another
    code path, so the block's alignment is part of its bits (an odd key count misaligns dst)."""
    size = int(np.prod(shape)) * dtype.itemsize
    slot = -(-size // 64) * 64 + 64
    raw = gemm_calls.aligned((len(offsets) * slot,), np.dtype(np.uint8), zero)
    return [raw[i * slot + start:i * slot + start + size].view(dtype).reshape(shape)
            for i, start in enumerate(off * dtype.itemsize % 64 for off in offsets)]


def exp_u20(x: np.ndarray) -> np.ndarray:
    """Vectorized<float>::exp_u20 (AVX-512): 2^n times a degree-5 polynomial in the remainder,
    fused multiply-adds throughout; float64's is SLEEF's exp."""
    if x.dtype == F64:
        return sleef_double.sleef("exp", x)
    with np.errstate(all="ignore"):
        below = x < _LN_FLT_MIN
        src = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
        fx = fma32(src, _LOG2E, F32(0.5))
        fx = np.floor(fx).astype(np.int32).astype(F32)
        r = fma32(-fx, _LN2, src)
        res = fma32(r, F32(0.00828929059), F32(0.0418978221))
        for c in (F32(0.166676521), F32(0.499991506), F32(0.999999701), F32(1.0)):
            res = fma32(r, res, c)
        power = ((fx - F32(1)).astype(np.int32) + 127) << 23
        two_n = np.where(below, F32(0), power.view(F32))
        return (res * two_n * F32(2)).astype(F32, copy=False)


def _tail_exp(x: np.ndarray) -> np.ndarray:
    """`exp(a[i] - val)` on a row's tail in _exp_reduce_sum_fusion_kernel: for float, C's
    double exp rounded to float (measured: glibc's expf there differs from torch's bits on a
    few elements in ten thousand, the rounded double exp on none)."""
    wide = sleef_double.libm("exp", np.asarray(x, F64))
    return wide if x.dtype == F64 else wide.astype(F32)


def _std_exp(x: np.ndarray) -> np.ndarray:
    """std::exp (the rescaling factor exp(old max - new max)): glibc's expf for float."""
    return libm.expf(x) if x.dtype == F32 else sleef_double.libm("exp", x)


def _std_log(x: np.ndarray) -> np.ndarray:
    """std::log (the logsumexp's log of the sum): glibc's logf for float."""
    return libm.logf(x) if x.dtype == F32 else sleef_double.libm("log", x)


def _vec_exp(x: np.ndarray) -> np.ndarray:
    return sleef.expf_u10(x) if x.dtype == F32 else sleef_double.sleef("exp", x)


def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    if np.asarray(a).dtype == F32:
        return fma32(*np.broadcast_arrays(np.asarray(a), np.asarray(b, F32),
                                          np.asarray(c, F32)))
    return sleef_double.fma(a, b, c)


def _lanes(dtype: np.dtype) -> int:
    return 16 if dtype == F32 else 8


def _exp_reduce_sum(rows: np.ndarray, row_max: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_exp_reduce_sum_fusion_kernel over each row: (exp(row - max), its sum); whole vectors
    through exp_u20 summed lane-wise then folded, the rest through exp, added in order."""
    lanes = _lanes(rows.dtype)
    fold = add if rows.dtype == F32 else add64
    n = rows.shape[1]
    full = n - n % lanes
    with np.errstate(all="ignore"):
        shifted = rows - row_max[:, None]
    out = np.empty_like(rows)
    total = np.zeros(rows.shape[0], rows.dtype)
    if full:
        out[:, :full] = exp_u20(shifted[:, :full])
        acc = np.zeros((rows.shape[0], lanes), rows.dtype)
        for d in range(0, full, lanes):
            acc = fold(acc, out[:, d:d + lanes])
        total = _tree(acc, fold, lanes)
    if full < n:  # the tail element by element, added in order
        out[:, full:] = _tail_exp(shifted[:, full:])
        for j in range(full, n):
            total = fold(total, out[:, j])
    return out, total


def _row_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """vec::map2_reduce_all(x * y, x + y) over each row (the backward's rowsum(grad_out * out))."""
    products = a * b
    lanes = _lanes(a.dtype)
    fold = add if a.dtype == F32 else add64
    n = products.shape[1]
    if n < lanes:
        total = products[:, 0].copy()
        for j in range(1, n):
            total = fold(total, products[:, j])
        return total
    full = n - n % lanes
    acc = products[:, :lanes].copy()
    for d in range(lanes, full, lanes):
        acc = fold(acc, products[:, d:d + lanes])
    if full < n:
        acc[:, :n - full] = fold(acc[:, :n - full], products[:, full:])
    return _tree(acc, fold, lanes)


def _causal_keep(m: int, n: int, q_block: int, kv_block: int) -> np.ndarray:
    """The (q_block, kv_block) positions a causal block keeps: column <= m + row - n."""
    return np.arange(kv_block)[None, :] <= (m - n + np.arange(q_block))[:, None]


def _pairs(a: np.ndarray) -> list[np.ndarray]:
    """The (T, D) views of a (B, H, T, D) array's (batch, head) pairs, in PyTorch's order (their
    memory untouched: gemm reads them with the array's own leading dimension)."""
    return [a[b, h] for b in range(a.shape[0]) for h in range(a.shape[1])]


def _mask_block(mask: np.ndarray | None, shape: tuple[int, ...], m: int, q_block: int, n: int,
                kv_block: int, dtype: np.dtype) -> np.ndarray | None:
    """The mask's (pairs, q_block, kv_block) block at (m, n), in the query's dtype."""
    if mask is None:
        return None
    block = np.broadcast_to(mask, shape)[:, :, m:m + q_block, n:n + kv_block]
    return block.astype(dtype).reshape(-1, q_block, kv_block)


class _Problem:
    """One call's sizes, splits, gemm and the (T, D) views of every (batch, head) pair; key and
    value heads shared by `groups` query heads (grouped-query attention) are looked up by the
    query pair's kv_of entry."""

    def __init__(self, q: np.ndarray, k: np.ndarray, mask: np.ndarray | None,
                 is_causal: bool, scale: float) -> None:
        self.dtype = q.dtype
        self.batch, self.heads, self.q_len, self.dim = q.shape
        self.kv_len, kv_heads = k.shape[2], k.shape[1]
        self.groups = self.heads // kv_heads
        q_split, kv_split = split_sizes(self.q_len)
        self.q_split, self.kv_split = min(q_split, self.q_len), min(kv_split, self.kv_len)
        self.gemm = gemm_calls.Gemm(self.dtype)
        self.mask, self.is_causal = mask, is_causal
        self.scale = self.dtype.type(scale)
        self.pairs = self.batch * self.heads
        self.kv_of = [b * kv_heads + h // self.groups
                      for b in range(self.batch) for h in range(self.heads)]

    def blocks(self) -> Iterator[tuple[int, int, int]]:
        """(m, query block size, number of keys) per query block."""
        for m in range(0, self.q_len, self.q_split):
            qb = min(self.q_split, self.q_len - m)
            yield m, qb, min(m + qb, self.kv_len) if self.is_causal else self.kv_len

    def scores_mask(self, m: int, qb: int, n: int, kvb: int) -> np.ndarray | None:
        return _mask_block(self.mask, (self.batch, self.heads, self.q_len, self.kv_len), m, qb,
                           n, kvb, self.dtype)

    def causal_block(self, m: int, qb: int, n: int, kvb: int, num_keys: int) -> bool:
        return self.is_causal and num_keys - n <= self.kv_split


def forward(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
            is_causal: bool, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """cpu_flash_attention: (output (B, H, Lq, D), logsumexp (B, H, Lq)) for (B, H, L, D)
    arrays of one dtype with unit last stride (k and v may have H / groups heads); `mask`
    broadcasts to (B, H, Lq, Lk)."""
    pr = _Problem(q, k, mask, is_causal, scale)
    dtype, pairs, dim, gemm, kv_of = pr.dtype, pr.pairs, pr.dim, pr.gemm, pr.kv_of
    qs, ks, vs = _pairs(q), _pairs(k), _pairs(v)
    q_ld, k_ld, v_ld = gemm_calls.elements(q)[2], gemm_calls.elements(k)[2], gemm_calls.elements(v)[2]
    out = np.empty((pairs, pr.q_len, dim), dtype)
    lse = np.empty((pairs, pr.q_len), dtype)
    slices = -(-pr.q_len // pr.q_split)
    # each item's per-thread buffer: qk (q_split x kv_split), max, sum, then dst (q_split x D)
    per_thread = pr.q_split * pr.kv_split + 2 * pr.q_split + pr.q_split * dim
    tids = _thread_of(pairs * slices)
    with gemm_calls.sequential_in_region(pairs * slices), np.errstate(all="ignore"):
        for index, (m, qb, num_keys) in enumerate(pr.blocks()):
            starts = [tids[p * slices + index] * per_thread for p in range(pairs)]
            row_max = np.full(pairs * qb, -np.inf, dtype)
            row_sum = np.zeros(pairs * qb, dtype)
            dst = _placed((qb, dim), dtype, [s + per_thread - pr.q_split * dim for s in starts],
                          zero=True)
            for n in range(0, num_keys, pr.kv_split):
                kvb = min(pr.kv_split, pr.kv_len - n)
                qk_blocks = _placed((qb, kvb), dtype, starts)
                for p in range(pairs):
                    gemm(True, False, kvb, qb, dim, 1.0, ks[kv_of[p]][n:], k_ld, qs[p][m:], q_ld,
                         0.0, qk_blocks[p], kvb)
                qk = np.stack(qk_blocks)
                if pr.causal_block(m, qb, n, kvb, num_keys):
                    qk = np.where(_causal_keep(m, n, qb, kvb), qk, dtype.type(-np.inf))
                block_mask = pr.scores_mask(m, qb, n, kvb)
                # no mask: qk * scale; a mask: fma(qk, scale, mask) (GCC fuses the vector code)
                qk = qk * pr.scale if block_mask is None else _fma(qk, pr.scale, block_mask)
                rows = qk.reshape(pairs * qb, kvb)
                new_max = np.maximum(rows.max(axis=1), row_max)
                new_max = np.where(row_max > new_max, row_max, new_max)
                live = new_max != -np.inf  # a row masked so far keeps zeros (no exp(-inf + inf))
                probs, sums = _exp_reduce_sum(rows, np.where(live, new_max, 0))
                probs[~live] = 0
                factor = _std_exp(row_max - new_max)
                row_sum = np.where(live, _fma(factor, row_sum, sums), row_sum)  # fused
                row_max = np.where(live, new_max, row_max)
                grow = live.reshape(pairs, qb, 1)
                scaled = factor.reshape(pairs, qb, 1)
                probs = probs.reshape(pairs, qb, kvb)
                for p in range(pairs):
                    if n > 0:
                        dst[p][...] = np.where(grow[p], dst[p] * scaled[p], dst[p])
                    qk_blocks[p][...] = probs[p]  # the kernel's exp writes over qk in place
                    gemm(False, False, dim, qb, kvb, 1.0, vs[kv_of[p]][n:], v_ld, qk_blocks[p],
                         kvb, 0.0 if n == 0 else 1.0, dst[p], dim)
            row_max = np.where(row_max == -np.inf, dtype.type(0), row_max).reshape(pairs, qb)
            row_sum = np.where(row_sum == 0, dtype.type(1), row_sum).reshape(pairs, qb)
            out[:, m:m + qb] = np.stack(dst) * (dtype.type(1) / row_sum)[:, :, None]
            lse[:, m:m + qb] = row_max + _std_log(row_sum)
    shape = (pr.batch, pr.heads, pr.q_len)
    return out.reshape(*shape, dim), lse.reshape(shape)


def backward(grad: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray, out: np.ndarray,
             lse: np.ndarray, mask: np.ndarray | None, is_causal: bool, scale: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """cpu_flash_attention_backward: (grad_q, grad_k, grad_v) shaped as q, k, v and laid out as
    PyTorch's (zeros of (B, L, H, D), transposed). Each query pair accumulates into its key and
    value heads in PyTorch's order: with grouped heads, the query heads sharing a key head take
    their turns one after another (one round per position in the group)."""
    pr = _Problem(q, k, mask, is_causal, scale)
    dtype, dim, batch = pr.dtype, pr.dim, pr.batch
    # grad_out.transpose(1, 2).contiguous(), and the results' zeros, in (B, L, H, D) order
    go = np.ascontiguousarray(grad.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
    g_q = gemm_calls.aligned((batch, pr.q_len, pr.heads, dim), dtype, True).transpose(0, 2, 1, 3)
    g_k = gemm_calls.aligned((batch, pr.kv_len, k.shape[1], dim), dtype, True).transpose(0, 2, 1, 3)
    g_v = gemm_calls.aligned((batch, pr.kv_len, k.shape[1], dim), dtype, True).transpose(0, 2, 1, 3)
    arrays = (q, k, v, go, g_q, g_k, g_v)
    views = [_pairs(a) for a in arrays]
    lds = [gemm_calls.elements(a)[2] for a in arrays]
    d_sum = _row_dots(np.ascontiguousarray(go).reshape(-1, dim),
                      np.ascontiguousarray(out).reshape(-1, dim)).reshape(pr.pairs, pr.q_len)
    norm = lse.reshape(pr.pairs, pr.q_len)
    with gemm_calls.sequential_in_region(pr.pairs), np.errstate(all="ignore"):
        for turn in range(pr.groups):
            chosen = [p for p in range(pr.pairs) if p % pr.heads % pr.groups == turn]
            _backward_pairs(pr, chosen, views, lds, d_sum[chosen], norm[chosen])
    return g_q, g_k, g_v


def _backward_pairs(pr: _Problem, chosen: list[int], views: list[list[np.ndarray]],
                    lds: list[int], d_sum: np.ndarray, norm: np.ndarray) -> None:
    """The backward's blocks for the chosen query pairs (no two sharing a key head)."""
    qs, ks, vs, gos, gqs, gks, gvs = views
    q_ld, k_ld, v_ld, go_ld, gq_ld, gk_ld, gv_ld = lds
    dtype, dim, gemm, s = pr.dtype, pr.dim, pr.gemm, float(pr.scale)
    # each pair's per-thread buffer: attn, then grad_attn (q_split x kv_split each)
    block = pr.q_split * pr.kv_split
    tids = _thread_of(pr.pairs)
    starts = [tids[p] * 2 * block for p in chosen]
    for m, qb, num_keys in pr.blocks():
        for n in range(0, num_keys, pr.kv_split):
            kvb = min(pr.kv_split, pr.kv_len - n)
            attn_blocks = _placed((qb, kvb), dtype, starts)
            for i, p in enumerate(chosen):
                gemm(True, False, kvb, qb, dim, s, ks[pr.kv_of[p]][n:], k_ld, qs[p][m:], q_ld,
                     0.0, attn_blocks[i], kvb)
            attn = np.stack(attn_blocks)
            block_mask = pr.scores_mask(m, qb, n, kvb)
            if block_mask is not None:
                attn = attn + block_mask[chosen]
            attn = _vec_exp(attn - norm[:, m:m + qb, None])
            if pr.causal_block(m, qb, n, kvb, num_keys):
                attn = np.where(_causal_keep(m, n, qb, kvb), attn, dtype.type(0))
            g_attn_blocks = _placed((qb, kvb), dtype, [start + block for start in starts])
            for i, p in enumerate(chosen):
                kv = pr.kv_of[p]
                attn_blocks[i][...] = attn[i]
                gemm(False, True, dim, kvb, qb, 1.0, gos[p][m:], go_ld, attn_blocks[i], kvb,
                     1.0, gvs[kv][n:], gv_ld)
                gemm(True, False, kvb, qb, dim, 1.0, vs[kv][n:], v_ld, gos[p][m:], go_ld, 0.0,
                     g_attn_blocks[i], kvb)
            g_attn = attn * (np.stack(g_attn_blocks) - d_sum[:, m:m + qb, None])
            for i, p in enumerate(chosen):
                kv = pr.kv_of[p]
                g_attn_blocks[i][...] = g_attn[i]
                gemm(False, False, dim, qb, kvb, s, ks[kv][n:], k_ld, g_attn_blocks[i], kvb, 1.0,
                     gqs[p][m:], gq_ld)
                gemm(False, True, dim, kvb, qb, s, qs[p][m:], q_ld, g_attn_blocks[i], kvb, 1.0,
                     gks[kv][n:], gk_ld)
