"""oneDNN's gemm-based convolution backward (gemm_convolution_bwd_weights_t on plain NCHW data,
"x64:gemm:jit" in ONEDNN_VERBOSE), the one PyTorch's float32 depthwise convolution takes for its
weight and bias gradients where the depthwise kernel declines (kernels wider than 3 columns,
among others).

Per group and sample, its im2col columns (kernel position x output pixel, zeros in the padding)
go through extended_sgemm("T", "N", kh*kw, 1, OH*OW), which is a gemv for one output channel:
jit_avx_gemv_t_f32_kern. Each weight's dot product runs over the pixels in blocks of 16 into
one 8-lane accumulator (two fused multiply-adds a block), reduced by vhaddps / vperm2f128 /
vhaddps, and added to the weight (beta 0 for the first sample, 1 after); the remaining pixels
in chunks of 8, 4, 2 and 1, each chunk reduced and added the same way. Each group is one
thread's, so the thread count does not matter. The bias gradient is a plain loop: each output
row summed in order from 0, then added to the channel's total (measured: no vector lanes).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32, fma32

_BLOCK, _LANES = 16, 8


def _hsum(acc: np.ndarray) -> np.ndarray:
    """vhaddps, vperm2f128 + vaddps, vhaddps over 8 lanes: ((0+1)+(4+5)) + ((2+3)+(6+7))."""
    pair = acc[..., 0::2] + acc[..., 1::2]  # (0+1), (2+3), (4+5), (6+7)
    return (pair[..., 0] + pair[..., 2]) + (pair[..., 1] + pair[..., 3])


def _gemv_t_add(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y + a . x along the last axis as jit_avx_gemv_t_f32_kern sums it (alpha 1, beta 1)."""
    k = a.shape[-1]
    a, x = np.broadcast_arrays(a, x)
    full = k - k % _BLOCK
    lanes = a.shape[:-1] + (_LANES,)
    with np.errstate(all="ignore"):
        if full:
            acc = np.zeros(lanes, F32)
            for b in range(0, full, _BLOCK):
                acc = fma32(a[..., b:b + _LANES], x[..., b:b + _LANES], acc)
                acc = fma32(a[..., b + _LANES:b + _BLOCK], x[..., b + _LANES:b + _BLOCK], acc)
            y = y + _hsum(acc)
        start = full
        for chunk in (8, 4, 2, 1):
            if (k - full) & chunk:
                acc = np.zeros(lanes, F32)
                acc[..., :chunk] = a[..., start:start + chunk] * x[..., start:start + chunk]
                y = y + _hsum(acc)
                start += chunk
    return y


def depthwise_backward_weights(x: np.ndarray, gy: np.ndarray, kernel: tuple[int, int],
                               padding: tuple[int, int], stride: tuple[int, int]
                               ) -> np.ndarray:
    """The weight gradient (C, 1, kh, kw) of a depthwise convolution (one filter a channel, no
    dilation) on float32 NCHW `x` with output gradient `gy`."""
    n, c = x.shape[:2]
    oh, ow = gy.shape[2], gy.shape[3]
    (kh, kw), (ph, pw), (sh, sw) = kernel, padding, stride
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    out = np.zeros((c, kh * kw), F32)
    for sample in range(n):
        columns = np.stack([
            padded[sample, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw]
            for i in range(kh) for j in range(kw)], axis=1).reshape(c, kh * kw, oh * ow)
        grads = np.ascontiguousarray(gy[sample], F32).reshape(c, 1, oh * ow)
        out = _gemv_t_add(columns, grads, out)
    return out.reshape(c, 1, kh, kw)


def backward_bias(gy: np.ndarray) -> np.ndarray:
    """The bias gradient (C,): per sample and output row, the row's sum in order from 0 added
    to the channel's total (np.cumsum adds strictly in order)."""
    n, c, oh, ow = gy.shape
    rows = np.cumsum(np.asarray(gy, F32), axis=3, dtype=F32)[..., -1]  # (N, C, OH)
    ordered = rows.transpose(1, 0, 2).reshape(c, n * oh)
    return np.cumsum(ordered, axis=1, dtype=F32)[:, -1]
