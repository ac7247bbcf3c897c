"""The nodes of F.interpolate(..., antialias=True): ATen's _upsample_bilinear2d_aa and
_upsample_bicubic2d_aa on float32 and float64 (UpSampleKernel.cpp, Pillow's resampling).

Weights (HelperInterpBase::_compute_indices_weights_aa, in the input's dtype): per output
index i, center = scale * (i + 0.5), support = interp_size / 2 (times scale when shrinking),
the taps xmin .. xmin + xsize - 1 weighed by the filter at (j + xmin - center + 0.5) / scale
(1 / scale only when shrinking), then divided by their sum. The filters are Pillow's: the
triangle 1 - |x| for bilinear, Keys' cubic with a = -0.5 for bicubic, whose polynomials
the compiler contracts into fused multiply-adds (measured against torch).

Forward: separable, the width first, then the height, a dimension whose size does not change
skipped. Each output is t0 w0 + t1 w1 + ... summed in tap order; the kernel's loop is compiled
in blocks of one 16-byte vector of taps (4 floats, 2 doubles) that multiply then add, and a
tail whose multiply-adds are fused (measured: for 8 taps of float, 1 + 4 plain + 3 fused).

Backward (cpu_upsample_genNd_backward_aa): for every output (row, col) in order, every input
of its window gets grad_input += (wx * wy) * grad, fused.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.upsampling import _array_only
from gradsh.engine.functions.upsampling_cubic import _fma
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["UpsampleBilinear2DAaBackward0", "UpsampleBicubic2DAaBackward0", "aa_weights"]


def _filter(x: np.ndarray, cubic: bool) -> np.ndarray:
    """Pillow's filter at x, in x's dtype: the triangle, or the a = -0.5 cubic contracted as
    compiled: fma(fma(a + 2, x, -(a + 3)) * x, x, 1) below 1, fma(fma(fma(a, x, -5a), x, 8a),
    x, -4a) below 2."""
    kind = x.dtype.type
    x = np.abs(x)
    if not cubic:
        return np.where(x < 1, kind(1) - x, kind(0)).astype(x.dtype)

    def const(value: float) -> np.ndarray:
        return np.full_like(x, value)

    a = -0.5
    near = _fma(_fma(const(a + 2), x, const(-(a + 3))) * x, x, const(1))
    far = _fma(_fma(_fma(const(a), x, const(-5 * a)), x, const(8 * a)), x, const(-4 * a))
    return np.where(x < 1, near, np.where(x < 2, far, kind(0))).astype(x.dtype)


def aa_weights(input_size: int, output_size: int, align_corners: bool, scale: float | None,
               cubic: bool, dtype: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(xmin, xsize, weights[output, max_taps]) of one dimension, zero past each xsize."""
    op = np.dtype(dtype)
    kind = op.type
    interp = 4 if cubic else 2
    if align_corners:
        ratio = kind(input_size - 1) / kind(output_size - 1) if output_size > 1 else kind(0)
    elif scale is not None and scale > 0:
        ratio = kind(1.0 / scale)
    else:
        ratio = kind(input_size) / kind(output_size)
    shrinking = ratio >= 1.0
    support = kind(interp * 0.5 * float(ratio)) if shrinking else kind(interp * 0.5)
    taps = int(math.ceil(support)) * 2 + 1
    invscale = kind(1.0 / float(ratio)) if shrinking else kind(1.0)
    with _quiet():
        center = (float(ratio) * (np.arange(output_size) + 0.5)).astype(op)
        xmin = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
        xmax = ((center + support).astype(np.float64) + 0.5).astype(np.int64)
        xsize = np.clip(np.minimum(xmax, input_size) - xmin, 0, taps)
        j = np.arange(taps)
        offset = (j[None, :] + xmin[:, None]).astype(op) - center[:, None]
        arg = ((offset.astype(np.float64) + 0.5) * float(invscale)).astype(op)
        inside = j[None, :] < xsize[:, None]
        weights = np.where(inside, _filter(arg, cubic), kind(0)).astype(op)
        total = np.zeros(output_size, op)
        for k in range(taps):
            total = (total + weights[:, k]).astype(op)
        divisor = np.where(total == 0, kind(1), total)
        weights = (weights / divisor[:, None]).astype(op)
    return xmin, xsize, weights


def _resample(data: Array, axis: int, xmin: np.ndarray, xsize: np.ndarray,
              weights: np.ndarray) -> Array:
    """One dimension's pass: each output the sum of its taps in order, a full 16-byte block
    of taps multiplied then added, the tail fused."""
    xp = xp_of(data)
    moved = xp.moveaxis(data, axis, -1)
    last = moved.shape[-1] - 1
    block = 16 // moved.dtype.itemsize
    plain_upto = (xsize - 1) // block * block
    with _quiet():
        acc = moved[..., np.minimum(xmin, last)] * weights[:, 0]
        for k in range(1, weights.shape[1]):
            taps = moved[..., np.minimum(xmin + k, last)]
            w = weights[:, k]
            plain = acc + taps * w
            fused = _fma(taps, np.broadcast_to(w, taps.shape), acc)
            acc = np.where(k < xsize, np.where(k <= plain_upto, plain, fused), acc)
    return xp.ascontiguousarray(xp.moveaxis(acc.astype(moved.dtype), -1, axis))


class _UpsampleAa(Function):
    """_upsample_{bilinear,bicubic}2d_aa over the last two dimensions."""

    cubic = False

    def forward(self, x: Tensor, output_size: tuple[int, int], align_corners: bool,
                scales: tuple[float | None, float | None]) -> Array:
        data = result = x._data
        self.input_shape, self.output_size = tuple(data.shape), output_size
        self.align_corners, self.scales = align_corners, scales
        height, width = self.input_shape[-2:]
        dtype = data.dtype
        if output_size[1] != width:
            result = _resample(result, -1, *aa_weights(width, output_size[1], align_corners,
                                                       scales[1], self.cubic, dtype))
        if output_size[0] != height:
            result = _resample(result, -2, *aa_weights(height, output_size[0], align_corners,
                                                       scales[0], self.cubic, dtype))
        return xp_of(data).array(result, copy=True) if result is data else result

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        height, width = self.input_shape[-2:]
        out_h, out_w = self.output_size
        dtype = grad.dtype
        ymin, ysize, wy = aa_weights(height, out_h, self.align_corners, self.scales[0],
                                     self.cubic, dtype)
        xmin, xsize, wx = aa_weights(width, out_w, self.align_corners, self.scales[1],
                                     self.cubic, dtype)
        flat = np.asarray(grad).reshape(-1, out_h, out_w)
        result = np.zeros((flat.shape[0], height, width), dtype)
        with _quiet():
            for row in range(out_h):
                rows = slice(ymin[row], ymin[row] + ysize[row])
                row_w = wy[row, :ysize[row]]
                for col in range(out_w):
                    cols = slice(xmin[col], xmin[col] + xsize[col])
                    both = (row_w[:, None] * wx[col, :xsize[col]][None, :]).astype(dtype)
                    window = result[:, rows, cols]
                    g = np.broadcast_to(flat[:, row, col][:, None, None], window.shape)
                    result[:, rows, cols] = _fma(np.broadcast_to(both, window.shape), g,
                                                 window)
        return (result.reshape(*self.input_shape),)


class UpsampleBilinear2DAaBackward0(_UpsampleAa):
    node_name = "UpsampleBilinear2DAaBackward0"


class UpsampleBicubic2DAaBackward0(_UpsampleAa):
    node_name = "UpsampleBicubic2DAaBackward0"
    cubic = True
