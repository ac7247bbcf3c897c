"""grid_sample(mode="bicubic") on 2-D inputs: ATen's vectorized CPU kernel
(ApplyGridSample<..., Bicubic, ...> in GridSamplerKernel.cpp), whose node is
GridSampler2DBackward0 like the other modes.

Each grid point is unnormalized without padding; its 4 x 4 taps around floor(x), floor(y) are
each padded (border: clipped, reflection: reflected then clipped; zeros: a tap outside reads
0) and weighed by Keys' cubic coefficients with A = -0.75. The multiply-adds as GCC
contracted them (measured against torch, float32 and float64): the |x| <= 1 coefficients
fused throughout, the 1 < |x| < 2 ones and the derivative coefficients not; along x
fma(c0, v0, c1 v1) + c2 v2 + c3 v3, then along y c0 r0 followed by fused multiply-adds.

The backward scatters (gOut * cx[i]) * cy[j] into the input chunk by chunk of one vector of
grid points (8 floats, 4 doubles), per channel by tap (x tap outer, y tap inner) and point;
the grid's gradient accumulates gx -= ((v * gOut) * cx'[i]) * cy[j] fused, over channels
and taps in that order, times the unnormalizing scale.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.grid_sampling import GridSampler2DBackward0 as _Sampler
from gradsh.engine.functions.grid_sampling import _VEC_BYTES, _reflect
from gradsh.engine.special_math import _fma
from gradsh.engine.tensor import Array, Tensor

__all__ = ["GridSampler2DBackward0"]

_A = -0.75


def _fma_like(a: Any, b: Any, c: Any) -> np.ndarray:
    a = np.asarray(a)
    return _fma(a, np.asarray(b, a.dtype), np.asarray(c, a.dtype))


def _unnormalize(coord: Array, size: int, align_corners: bool) -> tuple[Array, Any]:
    """ComputeLocationBase::unnormalize (no padding) and its scaling factor."""
    kind = coord.dtype.type
    if align_corners:
        scale = kind(size - 1) / kind(2)
        return ((coord + kind(1)) * scale).astype(coord.dtype), scale
    scale = kind(size) / kind(2)
    return _fma(coord + kind(1), scale, kind(-0.5)), scale


def _coefficients(t: Array) -> list[Array]:
    """get_cubic_coefficients(t) as compiled (see the module's docstring)."""
    kind = t.dtype.type
    a = kind(_A)

    def near(x: Array) -> Array:  # ((A + 2) x - (A + 3)) x x + 1
        return _fma_like(_fma_like(np.full_like(x, a + 2), x, -(a + 3)) * x, x, 1)

    def far(x: Array) -> Array:  # ((A x - 5A) x + 8A) x - 4A
        return ((a * x - kind(5) * a) * x + kind(8) * a) * x - kind(4) * a

    return [far(t + kind(1)), near(t), near(kind(1) - t), far(kind(2) - t)]


def _coefficient_grads(t: Array) -> list[Array]:
    """get_cubic_coefficients_grad(t), unfused."""
    kind = t.dtype.type
    a = kind(_A)
    x0, x1, x2, x3 = kind(-1) - t, kind(0) - t, kind(1) - t, kind(2) - t
    return [(kind(-3) * a * x0 - kind(10) * a) * x0 - kind(8) * a,
            (kind(-3) * (a + kind(2)) * x1 - kind(2) * (a + kind(3))) * x1,
            (kind(3) * (a + kind(2)) * x2 - kind(2) * (a + kind(3))) * x2,
            (kind(3) * a * x3 - kind(10) * a) * x3 + kind(8) * a]


def _tap(coord: Array, size: int, padding: str, align_corners: bool) -> tuple[Array, Array]:
    """compute_coordinates of one tap, as an index, and whether it lies inside (else it
    reads 0)."""
    kind = coord.dtype.type
    if padding == "reflection":
        coord, _ = (_reflect(coord, 0.0, 2.0 * (size - 1)) if align_corners
                    else _reflect(coord, -0.5, 2.0 * size))
    if padding in ("border", "reflection"):
        coord = np.minimum(np.where(coord > 0, coord, kind(0)), kind(size - 1))
    inside = (coord > -1) & (coord < size)
    return np.clip(np.nan_to_num(coord, nan=-1.0), -1, size).astype(np.int64), inside


class GridSampler2DBackward0(_Sampler):
    """The bicubic mode of grid_sampling.GridSampler2DBackward0 (PyTorch names both nodes
    alike)."""

    def forward(self, x: Tensor, grid: Tensor, mode: str, padding: str,  # type: ignore
                align_corners: bool) -> Array:
        data, points = x._data, grid._data
        height, width = data.shape[-2:]
        self.shapes = (tuple(data.shape), tuple(points.shape))
        self.save("input", x)
        with _quiet():
            px, self.sx = _unnormalize(points[..., 0], width, align_corners)
            py, self.sy = _unnormalize(points[..., 1], height, align_corners)
            ix, iy = np.floor(px), np.floor(py)
            self.tx, self.ty = (px - ix).astype(px.dtype), (py - iy).astype(py.dtype)
            kind = px.dtype.type
            self.xs = [_tap(ix + kind(k - 1), width, padding, align_corners) for k in range(4)]
            self.ys = [_tap(iy + kind(k - 1), height, padding, align_corners)
                       for k in range(4)]
            cx, cy = _coefficients(self.tx), _coefficients(self.ty)
            out = None
            for j, (yy, oky) in enumerate(self.ys):
                v = [self._gather(data, xx, yy, okx & oky) for xx, okx in self.xs]
                w = [c[:, None] for c in cx]
                row = _fma_like(w[0], v[0], w[1] * v[1]) + w[2] * v[2] + w[3] * v[3]
                out = row * cy[j][:, None] if out is None else \
                    _fma_like(np.broadcast_to(cy[j][:, None], row.shape), row, out)
        return out

    def _grads(self, data: Array, grad: Array, shape: tuple[int, ...],
               grid_shape: tuple[int, ...]) -> tuple[Any, Any]:
        need_input, need_grid = self.needs_input_grad
        cx, cy = _coefficients(self.tx), _coefficients(self.ty)
        g_input = self._bicubic_input_grad(grad, cx, cy, shape) if need_input else None
        g_grid = self._bicubic_grid_grad(data, grad, cx, cy) if need_grid else None
        return g_input, g_grid

    def _bicubic_input_grad(self, grad: Array, cx: list[Array], cy: list[Array],
                            shape: tuple[int, ...]) -> Array:
        n, c, height, width = shape
        points = grad.shape[2] * grad.shape[3]
        vec = _VEC_BYTES // grad.dtype.itemsize
        flat_grad = grad.reshape(n, c, points)
        targets, inside, values = [], [], []
        for i, (xx, okx) in enumerate(self.xs):
            for j, (yy, oky) in enumerate(self.ys):
                cols, rows = np.clip(xx, 0, width - 1), np.clip(yy, 0, height - 1)
                targets.append((rows * width + cols).reshape(n, points))
                inside.append((okx & oky).reshape(n, points))
                weight = (flat_grad * cx[i].reshape(n, 1, points)) * cy[j].reshape(n, 1, points)
                values.append(weight)
        p = np.arange(points)
        key = np.concatenate([(p // vec) * (16 * vec) + k * vec + p % vec for k in range(16)])
        order = np.argsort(key, kind="stable")
        all_targets = np.concatenate(targets, axis=1)[:, order]
        all_inside = np.concatenate(inside, axis=1)[:, order]
        all_values = np.concatenate(values, axis=2)[:, :, order]
        g_input = np.zeros((n, c, height * width), dtype=grad.dtype)
        for b in range(n):
            keep = all_inside[b]
            np.add.at(g_input[b], (slice(None), all_targets[b][keep]), all_values[b][:, keep])
        return g_input.reshape(shape)

    def _bicubic_grid_grad(self, data: Array, grad: Array, cx: list[Array],
                           cy: list[Array]) -> Array:
        gcx, gcy = _coefficient_grads(self.tx), _coefficient_grads(self.ty)
        gx = np.zeros(grad.shape[:1] + grad.shape[2:], dtype=grad.dtype)
        gy = np.zeros_like(gx)
        taps = [[self._gather(data, xx, yy, okx & oky) for yy, oky in self.ys]
                for xx, okx in self.xs]
        for ch in range(grad.shape[1]):
            g = grad[:, ch]
            for i in range(4):
                for j in range(4):
                    vg = taps[i][j][:, ch] * g
                    gx = _fma_like(-(vg * gcx[i]), cy[j], gx)
                    gy = _fma_like(-(vg * gcy[j]), cx[i], gy)
        return np.stack([gx * self.sx, gy * self.sy], axis=-1).astype(grad.dtype)
