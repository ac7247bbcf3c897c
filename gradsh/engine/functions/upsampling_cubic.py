"""The node of F.interpolate(mode="bicubic") without antialiasing: ATen's upsample_bicubic2d.

The forward is UpSampleKernel.cpp's non-separable kernel: per output, four rows of four
inputs, each row weighed along the width (see _weigh), the rows likewise along the height;
the weights come from get_cubic_upsample_coefficients (A = -0.75) at the source index, with
the indices clamped to the input. The backward is UpSampleBicubic2d.cpp's scalar loop (a file
compiled without fused multiply-adds): every output adds (g * y_coeff) * x_coeff into its
sixteen clamped inputs, in the loop's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.upsampling import _array_only, _scale, floor_index
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import sleef_double
from gradsh.engine.vecmath.fp import fma32

__all__ = ["UpsampleBicubic2DBackward0", "cubic_weights"]

_A = -0.75


def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c rounded once, in a's dtype (float32 or float64), broadcast."""
    a, b, c = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    if a.dtype == np.float64:
        return sleef_double.fma(a, b, c)
    return fma32(a.astype(np.float32), b.astype(np.float32), c.astype(np.float32))


def _coefficients(t: np.ndarray, fused: bool) -> list[np.ndarray]:
    """get_cubic_upsample_coefficients(t): cubic_convolution2(t + 1), cubic_convolution1(t),
    cubic_convolution1(1 - t), cubic_convolution2(2 - t), in t's dtype. `fused`: as the
    vectorised kernel file computes them, every multiply-add but the last of each polynomial
    contracted (measured, float and double: the inner ones fused, `q * x - 4A` and
    `p * x * x + 1` not); otherwise as written."""
    one = t.dtype.type(1)
    a = t.dtype.type(_A)

    def conv1(x: np.ndarray) -> np.ndarray:  # ((A + 2) * x - (A + 3)) * x * x + 1
        p = _fma(x, a + 2, -(a + 3)) if fused else (a + 2) * x - (a + 3)
        return (p * x) * x + one

    def conv2(x: np.ndarray) -> np.ndarray:  # ((A * x - 5A) * x + 8A) * x - 4A
        if fused:
            return _fma(_fma(x, a, -5 * a), x, 8 * a) * x - 4 * a
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [conv2(t + one), conv1(t), conv1(one - t), conv2((one - t) + one)]


def cubic_weights(input_size: int, output_size: int, align_corners: bool,
                  scale: float | None, dtype: Any, fused: bool
                  ) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """(input_index, the 4 clamped indices, the 4 weights) of each output index: the
    source index (no clamping at 0 for cubic), guard_index_and_lambda, the coefficients;
    `fused`: computed as the vectorised kernel file does (contracted multiply-adds), else as
    the backward's plainly compiled file does."""
    op = np.dtype(np.float64 if dtype == np.float64 else np.float32)
    out = np.arange(output_size).astype(op)
    with _quiet():
        if align_corners:
            ratio = (op.type(input_size - 1) / op.type(output_size - 1)) if output_size > 1 \
                else op.type(0)
            real = (ratio * out).astype(op)
        else:
            ratio = _scale(input_size, output_size, scale, op)
            half = op.type(0.5)
            if fused:
                real = _fma(np.full_like(out, ratio), out + half, np.full_like(out, -half))
            else:
                real = (ratio * (out + half) - half).astype(op)
        index = floor_index(real, input_size)
        lam = np.clip(real - index.astype(op), op.type(0), op.type(1)).astype(op)
        coeffs = [c.astype(op) for c in _coefficients(lam, fused)]
    indices = [np.clip(index + j - 1, 0, input_size - 1) for j in range(4)]
    return index, indices, coeffs


def _weigh(values: list[Array], weights: list[np.ndarray]) -> Array:
    """The kernel's sum of four weighted values, as GCC contracted it: v1 w1 first, then
    v0 w0, v2 w2, v3 w3 fused in (measured)."""
    total = values[1] * weights[1]
    for k in (0, 2, 3):
        total = _fma(values[k], weights[k], total)
    return total


class UpsampleBicubic2DBackward0(Function):
    """upsample_bicubic2d (align_corners, no antialiasing) over the last two dimensions."""

    node_name = "UpsampleBicubic2DBackward0"

    def forward(self, x: Tensor, output_size: tuple[int, int], align_corners: bool,
                scales: tuple[float | None, float | None]) -> Array:
        data = x._data
        self.input_shape = tuple(data.shape)
        self.align_corners, self.scales, self.output_size = align_corners, scales, output_size
        (height, width), dtype = data.shape[-2:], data.dtype
        _, rows, row_w = cubic_weights(height, output_size[0], align_corners, scales[0], dtype,
                                       True)
        _, cols, col_w = cubic_weights(width, output_size[1], align_corners, scales[1], dtype,
                                       True)
        with _quiet():
            lines = [_weigh([data[..., r[:, None], c[None, :]] for c in cols], col_w)
                     for r in rows]
            total = _weigh(lines, [w[:, None] for w in row_w])
        return xp_of(data).ascontiguousarray(total)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        height, width = self.input_shape[-2:]
        out_h, out_w = self.output_size
        dtype = grad.dtype
        _, rows, row_w = cubic_weights(height, out_h, self.align_corners, self.scales[0],
                                       dtype, False)
        _, cols, col_w = cubic_weights(width, out_w, self.align_corners, self.scales[1],
                                       dtype, False)
        lead = grad.shape[:-2]
        flat_grad = np.asarray(grad).reshape(-1, out_h, out_w)
        # per output (y, x), in order: ii over the x taps, jj over the y taps
        targets = np.empty((out_h, out_w, 4, 4), np.int64)
        values = np.empty((flat_grad.shape[0], out_h, out_w, 4, 4), dtype)
        with _quiet():
            for ii in range(4):
                for jj in range(4):
                    targets[:, :, ii, jj] = rows[jj][:, None] * width + cols[ii][None, :]
                    scaled = flat_grad * row_w[jj][None, :, None].astype(dtype)
                    values[:, :, :, ii, jj] = scaled * col_w[ii][None, None, :].astype(dtype)
        result = np.zeros((flat_grad.shape[0], height * width), dtype)
        np.add.at(result, (slice(None), targets.reshape(-1)),
                  values.reshape(flat_grad.shape[0], -1))
        return (result.reshape(*lead, height, width),)
