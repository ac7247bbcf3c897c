"""slow_conv2d on channels-last data (ConvolutionMM2d.cpp with thnn_conv_use_channels_last: the
input or the weight channels-last), through MKL on ATen's own buffers as conv_slow.py does for
NCHW: PyTorch's float32 convolution of a small single sample, or a 1x1 kernel on fewer than 16
samples at one thread, where oneDNN does not run it.

The columns are unfolded2d_channels_last_copy's, (N, OH*OW, kh*kw*C): per output pixel its
window, channels fastest; the weight is (O, kh*kw*C) (channels-last). Forward per sample: out
(P, O) = bias (beta 1) + columns @ weight^T (gemm T, N with m = O); input gradient: columns
(P, K) = grad_output (P, O) @ weight (gemm N, N with m = K), then unfolded2d_acc_channels_last
adds each pixel's window into the input in pixel order (so each element's kernel positions in
reverse); weight gradient: (O, K) += grad_output^T @ columns per sample in turn (gemm N, T).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import gemm_calls

Pair = tuple[int, int]


def columns(x: np.ndarray, kernel: Pair, padding: Pair, stride: Pair) -> np.ndarray:
    """unfolded2d_channels_last_copy of x (N, C, H, W): (N, OH*OW, kh*kw*C), zeros in the
    padding, in one aligned buffer."""
    n, c = x.shape[:2]
    (kh, kw), (ph, pw), (sh, sw) = kernel, padding, stride
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    oh = (padded.shape[2] - kh) // sh + 1
    ow = (padded.shape[3] - kw) // sw + 1
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw), axis=(2, 3))
    windows = windows[:, :, ::sh, ::sw]  # (N, C, OH, OW, kh, kw)
    out = gemm_calls.aligned((n, oh * ow, kh * kw * c), x.dtype)
    out.reshape(n, oh, ow, kh, kw, c)[...] = windows.transpose(0, 2, 3, 4, 5, 1)
    return out


def _weights(w: np.ndarray) -> np.ndarray:
    """The weight (O, C, kh, kw) as channels-last (O, kh*kw*C)."""
    return np.ascontiguousarray(w.transpose(0, 2, 3, 1)).reshape(w.shape[0], -1)


def forward(cols: np.ndarray, w: np.ndarray, bias: np.ndarray | None,
            out_size: Pair) -> np.ndarray:
    """slow_conv2d_update_output_frame (channels-last) per sample; (N, O, OH, OW) values."""
    n, p, k = cols.shape
    o = w.shape[0]
    weights = _weights(w)
    out = gemm_calls.aligned((n, p, o), cols.dtype)
    if bias is not None:
        out[...] = np.asarray(bias, cols.dtype)[None, None, :]
    gemm = gemm_calls.Gemm(cols.dtype)
    with gemm_calls.sequential_in_region(n):
        for sample in range(n):
            gemm(True, False, o, p, k, 1.0, weights, k, cols[sample], k,
                 0.0 if bias is None else 1.0, out[sample], o)
    return out.reshape(n, *out_size, o).transpose(0, 3, 1, 2)


def backward_input(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...], padding: Pair,
                   stride: Pair) -> np.ndarray:
    """slow_conv2d_backward_update_grad_input_frame (channels-last): per sample the columns'
    gradient, then each output pixel's window added into the zeroed input in pixel order."""
    n, o, oh, ow = gy.shape
    kh, kw = w.shape[2], w.shape[3]
    c = x_shape[1]
    weights = _weights(w)
    k = weights.shape[1]
    rows = gemm_calls.aligned((n, oh * ow, o), gy.dtype)
    rows[...] = gy.transpose(0, 2, 3, 1).reshape(n, -1, o)
    cols = gemm_calls.aligned((n, oh * ow, k), gy.dtype)
    gemm = gemm_calls.Gemm(gy.dtype)
    with gemm_calls.sequential_in_region(n):
        for sample in range(n):
            gemm(False, False, k, oh * ow, o, 1.0, weights, k, rows[sample], o, 0.0,
                 cols[sample], k)
    (ph, pw), (sh, sw) = padding, stride
    h, width = x_shape[2], x_shape[3]
    padded = np.zeros((n, h + 2 * ph, width + 2 * pw, c), gy.dtype)
    windows = cols.reshape(n, oh, ow, kh, kw, c)
    # the pixels in order: for one input element, the kernel positions from the last
    for i in reversed(range(kh)):
        for j in reversed(range(kw)):
            padded[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw] += \
                windows[:, :, :, i, j]
    return np.ascontiguousarray(padded[:, ph:ph + h, pw:pw + width].transpose(0, 3, 1, 2))


def backward_weights(cols: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...]) -> np.ndarray:
    """slow_conv2d_backward_weight_frame (channels-last) for each sample in turn: grad_weight
    (O, K), zeroed, += grad_output^T (O, P) @ columns (P, K); (O, C, kh, kw)."""
    n, o = gy.shape[:2]
    p, k = cols.shape[1:]
    rows = gemm_calls.aligned((n, p, o), gy.dtype)
    rows[...] = gy.transpose(0, 2, 3, 1).reshape(n, p, o)
    out = gemm_calls.aligned((o, k), gy.dtype, zero=True)
    gemm = gemm_calls.Gemm(gy.dtype)
    for sample in range(n):
        gemm(False, True, k, o, p, 1.0, cols[sample], k, rows[sample], o, 1.0, out, k)
    c, kh, kw = w_shape[1:]
    return np.ascontiguousarray(out.reshape(o, kh, kw, c).transpose(0, 3, 1, 2))
