"""Nodes of spatial transformers: AffineGridGeneratorBackward0 (theta applied to the base
grid) and GridSampler2DBackward0 (bilinear or nearest sampling at grid points, zeros, border
or reflection padding), ATen's formulas on arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AffineGridGeneratorBackward0", "GridSampler2DBackward0"]


def _array_only(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


def _steps(n: int, align_corners: bool, dtype: Any) -> np.ndarray:
    """linspace_from_neg_one: -1 .. 1 in n steps, scaled by (n - 1) / n without
    align_corners."""
    if n <= 1:
        return np.zeros(max(n, 1), dtype=dtype)
    steps = np.linspace(-1, 1, n).astype(dtype)
    if not align_corners:
        steps = (steps * dtype.type(n - 1) / dtype.type(n)).astype(dtype)
    return steps


def base_grid(height: int, width: int, align_corners: bool, dtype: Any) -> np.ndarray:
    """(H, W, 3): x, y and 1 at each output position."""
    grid = np.ones((height, width, 3), dtype=dtype)
    grid[..., 0] = _steps(width, align_corners, dtype)[None, :]
    grid[..., 1] = _steps(height, align_corners, dtype)[:, None]
    return grid


class AffineGridGeneratorBackward0(Function):
    """affine_grid: base_grid (H*W, 3) @ theta^T for each batch item -> (N, H, W, 2)."""

    node_name = "AffineGridGeneratorBackward0"

    def forward(self, theta: Tensor, size: tuple[int, ...], align_corners: bool) -> Array:
        data = theta._data
        n, _, h, w = size
        self.base = base_grid(h, w, align_corners, data.dtype).reshape(1, h * w, 3)
        self.size = size
        with _quiet():
            out = xp_of(data).matmul(self.base, xp_of(data).swapaxes(data, 1, 2))
        return out.reshape(n, h, w, 2)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        n, _, h, w = self.size
        flat = grad.reshape(n, h * w, 2)
        with _quiet():
            return (xp_of(grad).matmul(xp_of(grad).swapaxes(flat, 1, 2), self.base),)


def _reflect(coord: Array, twice_low: int, twice_high: int) -> tuple[Array, Array]:
    """reflect_coordinates and the sign its derivative takes."""
    if twice_low == twice_high:
        return np.zeros_like(coord), np.zeros_like(coord)
    low = coord.dtype.type(twice_low / 2)
    span = coord.dtype.type((twice_high - twice_low) / 2)
    shifted = coord - low
    sign = np.where(shifted < 0, -1, 1).astype(coord.dtype)
    shifted = np.abs(shifted)
    extra = np.fmod(shifted, span)
    flips = np.floor(shifted / span)
    even = np.fmod(flips, 2) == 0
    reflected = np.where(even, extra + low, span - extra + low)
    return reflected.astype(coord.dtype), np.where(even, sign, -sign).astype(coord.dtype)


def source_index(coord: Array, size: int, padding: str, align_corners: bool
                 ) -> tuple[Array, Array]:
    """grid_sampler_compute_source_index_set_grad: the pixel coordinate of a grid value in
    [-1, 1] and d(pixel)/d(grid value)."""
    dtype = coord.dtype.type
    if align_corners:
        scale = dtype((size - 1) / 2)
        pixel = (coord + dtype(1)) * scale
    else:
        scale = dtype(size / 2)
        pixel = ((coord + dtype(1)) * dtype(size) - dtype(1)) / dtype(2)
    mult = np.full_like(coord, scale)
    if padding == "reflection":
        if align_corners:
            pixel, sign = _reflect(pixel, 0, 2 * (size - 1))
        else:
            pixel, sign = _reflect(pixel, -1, 2 * size - 1)
        mult = mult * sign
    if padding in ("border", "reflection"):
        inside = (pixel > 0) & (pixel < size - 1)
        mult = np.where(inside, mult, dtype(0))
        pixel = np.clip(pixel, dtype(0), dtype(size - 1))
    return pixel.astype(coord.dtype), mult.astype(coord.dtype)


class GridSampler2DBackward0(Function):
    """grid_sample of (N, C, H, W) at (N, Ho, Wo, 2) points: each output the bilinear blend of
    its four neighbours (the ones outside the image count 0) or its nearest pixel."""

    node_name = "GridSampler2DBackward0"

    def forward(self, x: Tensor, grid: Tensor, mode: str, padding: str,
                align_corners: bool) -> Array:
        data, points = x._data, grid._data
        height, width = data.shape[-2:]
        with _quiet():
            ix, mx = source_index(points[..., 0], width, padding, align_corners)
            iy, my = source_index(points[..., 1], height, padding, align_corners)
        self.shapes = (tuple(data.shape), tuple(points.shape))
        self.mode, self.ix, self.iy, self.mx, self.my = mode, ix, iy, mx, my
        self.save("input", x)
        out = np.zeros(data.shape[:2] + points.shape[1:3], dtype=data.dtype)
        for xs, ys, weight, _, _ in self._corners(ix, iy, width, height):
            out += self._gather(data, xs, ys) * weight[:, None]
        return out

    def _corners(self, ix: Array, iy: Array, width: int, height: int) -> list[Any]:
        """(x index, y index, weight, d weight/d ix, d weight/d iy) of each neighbour, the
        weight 0 where the neighbour is outside the image."""
        dtype = ix.dtype.type
        if self.mode == "nearest":
            xs, ys = np.rint(ix).astype(np.int64), np.rint(iy).astype(np.int64)
            ok = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            zero = np.zeros_like(ix)
            return [(xs, ys, ok.astype(ix.dtype), zero, zero)]
        x0, y0 = np.floor(ix), np.floor(iy)
        x1, y1 = x0 + dtype(1), y0 + dtype(1)
        corners = []
        for xs, ys, wx, wy, dwx, dwy in (
                (x0, y0, x1 - ix, y1 - iy, -(y1 - iy), -(x1 - ix)),
                (x1, y0, ix - x0, y1 - iy, y1 - iy, -(ix - x0)),
                (x0, y1, x1 - ix, iy - y0, -(iy - y0), x1 - ix),
                (x1, y1, ix - x0, iy - y0, iy - y0, ix - x0)):
            xi, yi = xs.astype(np.int64), ys.astype(np.int64)
            ok = ((xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)).astype(ix.dtype)
            corners.append((xi, yi, wx * wy * ok, dwx * ok, dwy * ok))
        return corners

    @staticmethod
    def _gather(data: Array, xs: np.ndarray, ys: np.ndarray) -> Array:
        """data[n, :, ys[n, i, j], xs[n, i, j]] as (N, C, Ho, Wo), clipped indices (their
        weight is 0 outside)."""
        n = np.arange(data.shape[0])[:, None, None]
        ys = np.clip(ys, 0, data.shape[2] - 1)
        xs = np.clip(xs, 0, data.shape[3] - 1)
        return np.moveaxis(data[n, :, ys, xs], -1, 1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        data = self.saved("input", F)
        (n, c, height, width), grid_shape = self.shapes
        need_input, need_grid = self.needs_input_grad
        g_input = np.zeros((n, c, height, width), dtype=grad.dtype) if need_input else None
        gix = np.zeros(grid_shape[:3], dtype=grad.dtype)
        giy = np.zeros(grid_shape[:3], dtype=grad.dtype)
        batch = np.broadcast_to(np.arange(n)[:, None, None], grid_shape[:3])
        with _quiet():
            for xs, ys, weight, dwx, dwy in self._corners(self.ix, self.iy, width, height):
                if need_input:
                    inside = weight != 0
                    contribution = np.moveaxis(grad * weight[:, None], 1, -1)[inside]
                    flat = g_input.reshape(n, c, -1)
                    target = (ys * width + xs)[inside]
                    np.add.at(np.moveaxis(flat, 1, -1), (batch[inside], target), contribution)
                if need_grid and self.mode != "nearest":
                    values = (self._gather(data, xs, ys) * grad).sum(axis=1)
                    gix += values * dwx
                    giy += values * dwy
        g_grid = None
        if need_grid:
            g_grid = np.stack([gix * self.mx, giy * self.my], axis=-1).astype(grad.dtype)
        return g_input, g_grid
