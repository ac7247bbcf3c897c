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
and MKL then runs on one thread, as `_gemm_threads` arranges here. Everything vectorises over
the (batch, head) pairs: one gemm call per pair and block, the element-wise steps on all of
them at once.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.vecmath import blas, libm, mkl, sleef, sleef_double
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


@contextlib.contextmanager
def _gemm_threads(items: int) -> Iterator[None]:
    """MKL on one thread while PyTorch's parallel_for would run the items in an OpenMP region
    (more than one item and thread: MKL inside a parallel region runs sequentially)."""
    lib = mkl.library()
    if lib is None or threads.torch_threads() <= 1 or items <= 1:
        yield
        return
    local = lib.MKL_Set_Num_Threads_Local
    local.argtypes, local.restype = [ctypes.c_int], ctypes.c_int
    before = local(1)
    try:
        yield
    finally:
        local(before)


def _elements(a: np.ndarray) -> tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


class _Gemm:
    """cpublas::gemm (column-major, normalize_last_dims) for one dtype through MKL."""

    def __init__(self, dtype: np.dtype) -> None:
        self.call = blas._calls(np.empty(0, dtype)).gemm
        self.dtype = dtype

    def __call__(self, ta: bool, tb: bool, m: int, n: int, k: int, alpha: float,
                 a: np.ndarray, lda: int, b: np.ndarray, ldb: int, beta: float,
                 c: np.ndarray, ldc: int) -> None:
        lds = blas._normalized(ta, tb, m, n, k, lda, ldb, ldc)
        if lds is None:
            raise RuntimeError("flash attention: leading dimensions BLAS does not take")
        self.call(ta, tb, m, n, k, alpha, a, lds[0], b, lds[1], beta, c, lds[2])


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


def _std_exp(x: np.ndarray) -> np.ndarray:
    return libm.expf(x) if x.dtype == F32 else sleef_double.libm("exp", x)


def _std_log(x: np.ndarray) -> np.ndarray:
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
    if full < n:
        out[:, full:] = _std_exp(np.ascontiguousarray(shifted[:, full:]))
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
    if mask is None:
        return None
    block = np.broadcast_to(mask, shape)[:, :, m:m + q_block, n:n + kv_block]
    return block.astype(dtype).reshape(-1, q_block, kv_block)


def forward(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
            is_causal: bool, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """cpu_flash_attention: (output (B, H, Lq, D), logsumexp (B, H, Lq)) for (B, H, L, D)
    arrays of one dtype with unit last stride; `mask` broadcasts to (B, H, Lq, Lk)."""
    dtype = q.dtype
    batch, heads, q_len, dim = q.shape
    kv_len = k.shape[2]
    q_split, kv_split = split_sizes(q_len)
    q_split, kv_split = min(q_split, q_len), min(kv_split, kv_len)
    gemm = _Gemm(dtype)
    s = dtype.type(scale)
    full_shape = (batch, heads, q_len, kv_len)
    pairs = batch * heads
    qs, ks, vs = _pairs(q), _pairs(k), _pairs(v)
    q_ld, k_ld, v_ld = _elements(q)[2], _elements(k)[2], _elements(v)[2]
    out = np.empty((pairs, q_len, dim), dtype)
    lse = np.empty((pairs, q_len), dtype)
    slices = -(-q_len // q_split)
    with _gemm_threads(pairs * slices), np.errstate(all="ignore"):
        for m in range(0, q_len, q_split):
            qb = min(q_split, q_len - m)
            row_max = np.full((pairs, qb), -np.inf, dtype)
            row_sum = np.zeros((pairs, qb), dtype)
            dst = np.zeros((pairs, qb, dim), dtype)
            num_keys = min(m + qb, kv_len) if is_causal else kv_len
            for n in range(0, num_keys, kv_split):
                kvb = min(kv_split, kv_len - n)
                qk = np.empty((pairs, qb, kvb), dtype)
                for p in range(pairs):
                    gemm(True, False, kvb, qb, dim, 1.0, ks[p][n:], k_ld, qs[p][m:], q_ld, 0.0,
                         qk[p], kvb)
                if is_causal and num_keys - n <= kv_split:
                    qk = np.where(_causal_keep(m, n, qb, kvb), qk, dtype.type(-np.inf))
                block_mask = _mask_block(mask, full_shape, m, qb, n, kvb, dtype)
                qk = qk * s if block_mask is None else _fma(qk, s, block_mask)
                rows = qk.reshape(pairs * qb, kvb)
                old_max = row_max.reshape(-1)
                new_max = np.maximum(rows.max(axis=1), old_max)
                new_max = np.where(old_max > new_max, old_max, new_max)
                live = new_max != -np.inf
                probs, sums = _exp_reduce_sum(rows, np.where(live, new_max, 0))
                probs[~live] = 0
                factor = _std_exp(old_max - new_max)
                total = _fma(factor, row_sum.reshape(-1), sums)
                row_sum = np.where(live, total, row_sum.reshape(-1)).reshape(pairs, qb)
                row_max = np.where(live, new_max, old_max).reshape(pairs, qb)
                if n > 0:
                    scaled = dst * factor.reshape(pairs, qb, 1)
                    dst = np.where(live.reshape(pairs, qb, 1), scaled, dst)
                probs = probs.reshape(pairs, qb, kvb)
                for p in range(pairs):
                    gemm(False, False, dim, qb, kvb, 1.0, vs[p][n:], v_ld, probs[p], kvb,
                         0.0 if n == 0 else 1.0, dst[p], dim)
            row_max = np.where(row_max == -np.inf, dtype.type(0), row_max)
            row_sum = np.where(row_sum == 0, dtype.type(1), row_sum)
            out[:, m:m + qb] = dst * (dtype.type(1) / row_sum)[:, :, None]
            lse[:, m:m + qb] = row_max + _std_log(row_sum)
    return out.reshape(batch, heads, q_len, dim), lse.reshape(batch, heads, q_len)


def backward(grad: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray, out: np.ndarray,
             lse: np.ndarray, mask: np.ndarray | None, is_causal: bool, scale: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """cpu_flash_attention_backward: (grad_q, grad_k, grad_v), each (B, H, L, D) laid out as
    PyTorch's (zeros of (B, L, H, D), transposed)."""
    dtype = q.dtype
    batch, heads, q_len, dim = q.shape
    kv_len = k.shape[2]
    q_split, kv_split = split_sizes(q_len)
    q_split, kv_split = min(q_split, q_len), min(kv_split, kv_len)
    gemm = _Gemm(dtype)
    s = float(dtype.type(scale))
    full_shape = (batch, heads, q_len, kv_len)
    pairs = batch * heads
    # grad_out.transpose(1, 2).contiguous(), and the results' zeros, in (B, L, H, D) order
    go = np.ascontiguousarray(grad.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
    g_q = np.zeros((batch, q_len, heads, dim), dtype).transpose(0, 2, 1, 3)
    g_k = np.zeros((batch, kv_len, heads, dim), dtype).transpose(0, 2, 1, 3)
    g_v = np.zeros((batch, kv_len, heads, dim), dtype).transpose(0, 2, 1, 3)
    qs, ks, vs, gos, gqs, gks, gvs = (_pairs(a) for a in (q, k, v, go, g_q, g_k, g_v))
    q_ld, k_ld, v_ld = _elements(q)[2], _elements(k)[2], _elements(v)[2]
    go_ld, gq_ld, gk_ld = _elements(go)[2], _elements(g_q)[2], _elements(g_k)[2]
    gv_ld = _elements(g_v)[2]
    d_sum = _row_dots(np.ascontiguousarray(go).reshape(-1, dim),
                      np.ascontiguousarray(out).reshape(-1, dim)).reshape(pairs, q_len)
    norm = lse.reshape(pairs, q_len)
    with _gemm_threads(pairs), np.errstate(all="ignore"):
        for m in range(0, q_len, q_split):
            qb = min(q_split, q_len - m)
            num_keys = min(m + qb, kv_len) if is_causal else kv_len
            for n in range(0, num_keys, kv_split):
                kvb = min(kv_split, kv_len - n)
                attn = np.empty((pairs, qb, kvb), dtype)
                for p in range(pairs):
                    gemm(True, False, kvb, qb, dim, s, ks[p][n:], k_ld, qs[p][m:], q_ld, 0.0,
                         attn[p], kvb)
                block_mask = _mask_block(mask, full_shape, m, qb, n, kvb, dtype)
                if block_mask is not None:
                    attn = attn + block_mask
                attn = _vec_exp(attn - norm[:, m:m + qb, None])
                if is_causal and num_keys - n <= kv_split:
                    attn = np.where(_causal_keep(m, n, qb, kvb), attn, dtype.type(0))
                attn = np.ascontiguousarray(attn)
                g_attn = np.empty((pairs, qb, kvb), dtype)
                for p in range(pairs):
                    gemm(False, True, dim, kvb, qb, 1.0, gos[p][m:], go_ld, attn[p], kvb, 1.0,
                         gvs[p][n:], gv_ld)
                    gemm(True, False, kvb, qb, dim, 1.0, vs[p][n:], v_ld, gos[p][m:], go_ld,
                         0.0, g_attn[p], kvb)
                g_attn = attn * (g_attn - d_sum[:, m:m + qb, None])
                for p in range(pairs):
                    gemm(False, False, dim, qb, kvb, s, ks[p][n:], k_ld, g_attn[p], kvb, 1.0,
                         gqs[p][m:], gq_ld)
                    gemm(False, True, dim, kvb, qb, s, qs[p][m:], q_ld, g_attn[p], kvb, 1.0,
                         gks[p][n:], gk_ld)
    return g_q, g_k, g_v
