"""slow_conv2d (aten/src/ATen/native/ConvolutionMM2d.cpp) through MKL on ATen's own buffers:
PyTorch's convolution wherever oneDNN does not run it (float64 always; a small single float32
sample), forward and backward.

Each sample's im2col columns (finput, (N, C*kh*kw, OH*OW), one 64-byte aligned tensor) and
its output or gradient sit at the sample's offset in a batch buffer, and MKL's gemm writes
there: a misaligned output takes MKL's peeled path, so the offsets are part of the bits (a
float64 output of 17 x 25 values puts the second sample 8 bytes off a 64-byte boundary). The
forward and the input gradient run their samples in at::parallel_for (MKL on one thread
inside it where there are several samples and threads); the weight gradient accumulates the
samples in turn into one zeroed buffer (beta 1), outside it.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import blas, gemm_calls

__all__ = ["available", "forward", "backward_columns", "backward_weights"]


def available(*arrays: np.ndarray) -> bool:
    """Whether MKL's gemm is loaded for the arrays' dtype."""
    return blas._calls(*arrays) is not None


def _batch(a: np.ndarray) -> np.ndarray:
    """A copy of (N, rows, cols) `a` in one aligned buffer, as a fresh ATen tensor."""
    out = gemm_calls.aligned(a.shape, a.dtype)
    out[...] = a
    return out


def forward(cols: np.ndarray, w: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    """slow_conv2d_update_output_frame per sample: out (O, P) = bias (copied in, beta 1) +
    weight (O, K) @ columns (K, P); (N, O, P)."""
    n, k, p = cols.shape
    o = w.shape[0]
    finput = _batch(cols)
    weights = np.ascontiguousarray(w.reshape(o, k))
    out = gemm_calls.aligned((n, o, p), cols.dtype)
    if bias is not None:
        out[...] = np.asarray(bias, cols.dtype)[None, :, None]
    gemm = gemm_calls.Gemm(cols.dtype)
    with gemm_calls.sequential_in_region(n):
        for sample in range(n):
            gemm(False, False, p, o, k, 1.0, finput[sample], p, weights, k,
                 0.0 if bias is None else 1.0, out[sample], p)
    return out


def backward_columns(gy: np.ndarray, w: np.ndarray) -> np.ndarray:
    """slow_conv2d_backward_update_grad_input_frame per sample before its col2im: fgrad_input
    (K, P) = weight^T (K, O) @ grad_output (O, P); (N, K, P)."""
    n, o = gy.shape[:2]
    rows = _batch(gy.reshape(n, o, -1))  # (grad_output.contiguous())
    p = rows.shape[2]
    weights = np.ascontiguousarray(w.reshape(o, -1))
    k = weights.shape[1]
    out = gemm_calls.aligned((n, k, p), gy.dtype)
    gemm = gemm_calls.Gemm(gy.dtype)
    with gemm_calls.sequential_in_region(n):
        for sample in range(n):
            gemm(False, True, p, k, o, 1.0, rows[sample], p, weights, k, 0.0, out[sample], p)
    return out


def backward_weights(cols: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """slow_conv2d_backward_weight_frame for each sample in turn: grad_weight (O, K), zeroed,
    += grad_output (O, P) @ columns^T (P, K)."""
    n, o = gy.shape[:2]
    finput = _batch(cols)
    k, p = finput.shape[1:]
    rows = _batch(gy.reshape(n, o, p))
    out = gemm_calls.aligned((o, k), gy.dtype, zero=True)
    gemm = gemm_calls.Gemm(gy.dtype)
    for sample in range(n):
        gemm(True, False, k, o, p, 1.0, finput[sample], p, rows[sample], p, 1.0, out, k)
    return out
