"""slow_conv_transpose2d (aten/src/ATen/native/NaiveConvolutionTranspose2d.cpp) through MKL
on ATen's own buffers: PyTorch's transposed convolution where oneDNN does not run it (float64;
contiguous, one group), forward, input gradient and weight gradient.

Forward, per sample: columns (C_out*kh*kw, H*W) = weight^T @ input (one gemm, the columns one
aligned buffer reused), then col2im adds the columns into the zeroed output kernel offset by
kernel offset (the order each output pixel receives them in). The input gradient: im2col of
the output gradient (skipped for a 1x1, stride 1, unpadded, undilated kernel), then
grad_input (C_in, H*W) = weight @ columns; the weight gradient accumulates
columns @ input^T over the samples in turn into one zeroed buffer (beta 1). Bit-identical to
torch (measured, tests/test_conv_transpose_float64.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from gradsh.engine.vecmath import gemm_calls

__all__ = ["forward", "backward_input", "backward_weight"]

Pair = tuple[int, int]


def _offsets(index: int, count: int, stride: int, pad: int, dilation: int,
             limit: int) -> tuple[np.ndarray, np.ndarray]:
    """im2col's image positions of one kernel offset over `count` column positions, and
    which of them lie inside the image."""
    positions = np.arange(count) * stride - pad + index * dilation
    return positions, (positions >= 0) & (positions < limit)


def _geometry(cols_hw: Pair, image_hw: Pair, kernel: Pair, stride: Pair, padding: Pair,
              dilation: Pair) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray,
                                            np.ndarray]]:
    """Per kernel offset (a, b): (a, b, image rows, valid rows, image cols, valid cols)."""
    out = []
    for a in range(kernel[0]):
        rows, row_ok = _offsets(a, cols_hw[0], stride[0], padding[0], dilation[0], image_hw[0])
        for b in range(kernel[1]):
            cols, col_ok = _offsets(b, cols_hw[1], stride[1], padding[1], dilation[1],
                                    image_hw[1])
            out.append((a, b, rows, row_ok, cols, col_ok))
    return out


def forward(x: np.ndarray, w: np.ndarray, out_hw: Pair, stride: Pair, padding: Pair,
            dilation: Pair) -> np.ndarray:
    """(N, C_out, OH, OW) of x (N, C_in, H, W) and w (C_in, C_out, kh, kw), no bias: per
    sample the gemm into the columns, then col2im, kernel offset by kernel offset, into the
    zeroed output."""
    n, c_in, h, wd = x.shape
    c_out, kh, kw = w.shape[1:]
    m, p = c_out * kh * kw, h * wd
    inputs = gemm_calls.aligned((n, c_in, p), x.dtype)
    inputs[...] = x.reshape(n, c_in, p)
    weights = gemm_calls.aligned((c_in, m), x.dtype)
    weights[...] = w.reshape(c_in, m)
    columns = gemm_calls.aligned((m, p), x.dtype, zero=True)
    gemm = gemm_calls.Gemm(x.dtype)
    out = np.zeros((n, c_out) + tuple(out_hw), x.dtype)
    offsets = _geometry((h, wd), out_hw, (kh, kw), stride, padding, dilation)
    for sample in range(n):
        gemm(False, True, p, m, c_in, 1.0, inputs[sample], p, weights, m, 0.0, columns, p)
        grid = columns.reshape(c_out, kh, kw, h, wd)
        target = out[sample]
        for a, b, rows, row_ok, cols, col_ok in offsets:
            target[:, rows[row_ok][:, None], cols[col_ok][None, :]] += \
                grid[:, a, b][:, row_ok][:, :, col_ok]
    return out


def _im2col(image: np.ndarray, columns: np.ndarray, kernel: Pair, offsets: list[Any]) -> None:
    """columns (C*kh*kw, H*W) = the image's (C, OH, OW) windows, zero outside (im2col)."""
    _, _, rows0, _, cols0, _ = offsets[0]
    grid = columns.reshape(image.shape[0], kernel[0], kernel[1], len(rows0), len(cols0))
    grid[...] = 0
    for a, b, rows, row_ok, cols, col_ok in offsets:
        grid[:, a, b, np.flatnonzero(row_ok)[:, None], np.flatnonzero(col_ok)[None, :]] = \
            image[:, rows[row_ok][:, None], cols[col_ok][None, :]]


def _gradient_columns(g: np.ndarray, x_shape: tuple[int, ...], kernel: Pair, stride: Pair,
                      padding: Pair, dilation: Pair) -> Iterator[tuple[int, np.ndarray]]:
    """Per sample, the backward gemm's operand: im2col of the output gradient (aligned, as a
    contiguous ATen tensor) into one reused columns buffer, or the gradient itself where
    slow_conv_transpose2d needs no columns (a 1x1 kernel, stride 1, no padding or
    dilation)."""
    n, c_out = g.shape[:2]
    rows = gemm_calls.aligned((n, c_out, g.shape[2] * g.shape[3]), g.dtype)
    rows[...] = g.reshape(rows.shape)
    if kernel == (1, 1) and stride == (1, 1) and padding == (0, 0) and dilation == (1, 1):
        for sample in range(n):
            yield sample, rows[sample]
        return
    offsets = _geometry(tuple(x_shape[2:]), tuple(g.shape[2:]), kernel, stride, padding,
                        dilation)
    columns = gemm_calls.aligned((c_out * kernel[0] * kernel[1], x_shape[2] * x_shape[3]),
                                 g.dtype, zero=True)
    for sample in range(n):
        _im2col(rows[sample].reshape(c_out, *g.shape[2:]), columns, kernel, offsets)
        yield sample, columns


def backward_input(g: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...], stride: Pair,
                   padding: Pair, dilation: Pair) -> np.ndarray:
    """grad_input (N, C_in, H, W): per sample weight (C_in, K) @ im2col(grad_output)."""
    n, c_in, h, wd = x_shape
    c_out, kh, kw = w.shape[1:]
    m, p = c_out * kh * kw, h * wd
    weights = gemm_calls.aligned((c_in, m), g.dtype)
    weights[...] = w.reshape(c_in, m)
    out = gemm_calls.aligned((n, c_in, p), g.dtype, zero=True)
    gemm = gemm_calls.Gemm(g.dtype)
    for sample, source in _gradient_columns(g, x_shape, (kh, kw), stride, padding, dilation):
        gemm(False, False, p, c_in, m, 1.0, source, p, weights, m, 0.0, out[sample], p)
    return out.reshape(x_shape)


def backward_weight(g: np.ndarray, x: np.ndarray, w_shape: tuple[int, ...], stride: Pair,
                    padding: Pair, dilation: Pair) -> np.ndarray:
    """grad_weight (C_in, C_out, kh, kw): the samples' im2col(grad_output) @ input^T added in
    turn into one zeroed buffer."""
    n, c_in, h, wd = x.shape
    c_out, kh, kw = w_shape[1:]
    m, p = c_out * kh * kw, h * wd
    inputs = gemm_calls.aligned((n, c_in, p), x.dtype)
    inputs[...] = x.reshape(n, c_in, p)
    out = gemm_calls.aligned((c_in, m), g.dtype, zero=True)
    gemm = gemm_calls.Gemm(g.dtype)
    for sample, source in _gradient_columns(g, x.shape, (kh, kw), stride, padding, dilation):
        gemm(True, False, m, c_in, p, 1.0, source, p, inputs[sample], p, 1.0, out, m)
    return out.reshape(w_shape)
