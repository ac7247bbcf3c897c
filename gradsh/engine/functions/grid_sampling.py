"""Nodes of spatial transformers: AffineGridGeneratorBackward0 (theta applied to the base
grid) and GridSampler2DBackward0 (bilinear or nearest sampling at grid points, zeros, border
or reflection padding), ATen's formulas on arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.linalg import product
from gradsh.engine.special_math import _fma as fma
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
    # torch.linspace's own values in that dtype (not NumPy's float64 ones rounded)
    from gradsh.engine import dtypes
    from gradsh.engine.ops.creation import _linspace_values

    steps = _linspace_values(-1, 1, n, dtypes.from_numpy(np.dtype(dtype)))
    if not align_corners:
        steps = (steps * dtype.type(n - 1) / dtype.type(n)).astype(dtype)
    return steps


def base_grid(height: int, width: int, align_corners: bool, dtype: Any,
              depth: int | None = None) -> np.ndarray:
    """(H, W, 3): x, y and 1 at each output position; with a depth, (D, H, W, 4): x, y, z
    and 1 (ATen's make_base_grid_4D / _5D)."""
    if depth is None:
        grid = np.ones((height, width, 3), dtype=dtype)
        grid[..., 0] = _steps(width, align_corners, dtype)[None, :]
        grid[..., 1] = _steps(height, align_corners, dtype)[:, None]
        return grid
    grid = np.ones((depth, height, width, 4), dtype=dtype)
    grid[..., 0] = _steps(width, align_corners, dtype)[None, None, :]
    grid[..., 1] = _steps(height, align_corners, dtype)[None, :, None]
    grid[..., 2] = _steps(depth, align_corners, dtype)[:, None, None]
    return grid


class AffineGridGeneratorBackward0(Function):
    """affine_grid: base_grid (H*W, 3) @ theta^T for each batch item -> (N, H, W, 2); in 3-D,
    (D*H*W, 4) @ theta^T -> (N, D, H, W, 3)."""

    node_name = "AffineGridGeneratorBackward0"

    def forward(self, theta: Tensor, size: tuple[int, ...], align_corners: bool) -> Array:
        data = theta._data
        spatial = size[2:]
        depth = spatial[0] if len(spatial) == 3 else None
        h, w = spatial[-2:]
        points = int(np.prod(spatial))
        columns = len(spatial) + 1
        self.base = base_grid(h, w, align_corners, data.dtype, depth).reshape(1, points, columns)
        self.size = size
        base = self.base
        with _quiet():
            # the terms summed in order, without FMA, as ATen's bmm of base_grid and theta^T
            # comes out ((x * t0 + y * t1) [+ z * t2]) + 1 * t_last
            out = base[..., 0:1] * data[:, None, :, 0]
            for k in range(1, columns):
                out = out + base[..., k:k + 1] * data[:, None, :, k]
        return out.reshape(size[0], *spatial, len(spatial))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        spatial = self.size[2:]
        n = self.size[0]
        flat = grad.reshape(n, int(np.prod(spatial)), len(spatial))
        xp = xp_of(grad)
        if xp is not np:
            with _quiet():
                return (xp.matmul(xp.swapaxes(flat, 1, 2), self.base),)
        # ATen's affine_grid_generator_backward: base_grid (N copies).view(N, P, k)
        # .transpose(1, 2).bmm(grad_grid), transposed back: the bmm's own summation order
        base = np.ascontiguousarray(np.broadcast_to(self.base, (n,) + self.base.shape[1:]))
        with _quiet():
            theta_t = product(base.transpose(0, 2, 1), np.ascontiguousarray(flat))
        return (theta_t.transpose(0, 2, 1),)


def _reflect(coord: Array, low: float, twice_span: float) -> tuple[Array, Array]:
    """ComputeLocationBase::reflect_coordinates_get_grad of ATen's vectorized CPU kernel:
    the coordinate folded into [low, low + span] and the sign its derivative takes."""
    dtype = coord.dtype.type
    if twice_span == 0:  # (align_corners with one pixel: everything maps to 0)
        return np.zeros_like(coord), np.zeros_like(coord)
    low_, twice = dtype(low), dtype(twice_span)
    in_minus_low = coord - low_
    negative = in_minus_low < 0
    abs_in = np.abs(in_minus_low)
    extra = abs_in - np.trunc(abs_in / twice) * twice
    reflected = twice - extra
    flip = extra > reflected
    folded = np.where(flip, reflected, extra) + low_
    return folded.astype(coord.dtype), np.where(flip ^ negative, dtype(-1), dtype(1))


def source_index(coord: Array, size: int, padding: str, align_corners: bool
                 ) -> tuple[Array, Array]:
    """ComputeLocation::apply_get_grad of ATen's vectorized CPU kernel (GridSamplerKernel.cpp,
    which the CPU's 2-D grid_sample runs): the pixel coordinate of a grid value in [-1, 1] and
    d(pixel)/d(grid value)."""
    dtype = coord.dtype.type
    if align_corners:
        scale = dtype(size - 1) / dtype(2)
        pixel = (coord + dtype(1)) * scale
    else:
        scale = dtype(size) / dtype(2)
        pixel = fma(coord + dtype(1), scale, dtype(-0.5))  # (GCC contracts it: -mfma)
    mult = np.full_like(coord, scale)
    if padding == "reflection":
        if align_corners:
            pixel, sign = _reflect(pixel, 0.0, 2.0 * (size - 1))
        else:
            pixel, sign = _reflect(pixel, -0.5, 2.0 * size)
        mult = mult * sign
    if padding in ("border", "reflection"):
        # clip_coordinates_get_grad: the borders count as outside; NaN clamps to 0
        bounded = np.where(pixel > 0, pixel, dtype(0))
        pixel = np.minimum(bounded, dtype(size - 1))
        mult = np.where((bounded != 0) & (pixel != dtype(size - 1)), mult, dtype(0))
    return pixel.astype(coord.dtype), mult.astype(coord.dtype)


# The byte width of Vectorized<scalar_t> in the kernel PyTorch's CPU dispatch runs (its AVX2
# one, also on this AVX-512 machine: measured, tests/test_nn_grid_sample.py): the backward
# scatters the corners' gradients chunk by chunk of one vector of grid points (8 floats, 4
# doubles)
_VEC_BYTES = 32


class GridSampler2DBackward0(Function):
    """grid_sample of (N, C, H, W) at (N, Ho, Wo, 2) points: each output the bilinear blend of
    its four neighbours (the ones outside the image count 0) or its nearest pixel, with the
    arithmetic of ATen's vectorized CPU kernel (ApplyGridSample in GridSamplerKernel.cpp)."""

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
        out = None
        with _quiet():
            for xs, ys, weight, ok in self._corners(ix, iy, width, height):
                # nw_val * nw + ne_val * ne + sw_val * sw + se_val * se, contracted into
                # multiply-adds as GCC builds ATen's kernel
                value = self._gather(data, xs, ys, ok)
                out = value * weight[:, None] if out is None else \
                    fma(value, weight[:, None], out)
        return out

    def _corners(self, ix: Array, iy: Array, width: int, height: int) -> list[Any]:
        """(x index, y index, weight, inside) of each neighbour (nw, ne, sw, se), the weights
        as compute_interp_params makes them."""
        if self.mode == "nearest":
            xs, ys = np.rint(ix).astype(np.int64), np.rint(iy).astype(np.int64)
            ok = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            return [(xs, ys, np.ones_like(ix), ok)]
        one = ix.dtype.type(1)
        x0, y0 = np.floor(ix), np.floor(iy)
        w, n = ix - x0, iy - y0
        e, s = one - w, one - n
        xw, yn = x0.astype(np.int64), y0.astype(np.int64)
        corners = []
        for xi, yi, weight in ((xw, yn, s * e), (xw + 1, yn, s * w),
                               (xw, yn + 1, n * e), (xw + 1, yn + 1, n * w)):
            ok = (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)
            corners.append((xi, yi, weight, ok))
        return corners

    @staticmethod
    def _gather(data: Array, xs: np.ndarray, ys: np.ndarray, ok: np.ndarray) -> Array:
        """data[n, :, ys[n, i, j], xs[n, i, j]] as (N, C, Ho, Wo), 0 outside the image
        (mask_gather)."""
        n = np.arange(data.shape[0])[:, None, None]
        ys = np.clip(ys, 0, data.shape[2] - 1)
        xs = np.clip(xs, 0, data.shape[3] - 1)
        values = np.moveaxis(data[n, :, ys, xs], -1, 1)
        return np.where(ok[:, None], values, data.dtype.type(0))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _array_only(F, self.node_name)
        data = self.saved("input", F)
        (n, c, height, width), grid_shape = self.shapes
        with _quiet():
            return self._grads(data, grad, (n, c, height, width), grid_shape)

    def _grads(self, data: Array, grad: Array, shape: tuple[int, ...],
               grid_shape: tuple[int, ...]) -> tuple[Any, Any]:
        """(the input's gradient, the grid's), each None where not needed."""
        need_input, need_grid = self.needs_input_grad
        corners = self._corners(self.ix, self.iy, shape[3], shape[2])
        g_input = self._input_grad(grad, corners, shape) if need_input else None
        g_grid = None
        if need_grid:
            g_grid = np.zeros(grid_shape, dtype=grad.dtype)
            if self.mode != "nearest":
                g_grid = self._grid_grad(data, grad, corners)
        return g_input, g_grid

    @staticmethod
    def _input_grad(grad: Array, corners: list[Any], shape: tuple[int, ...]) -> Array:
        """mask_scatter_add of weight * gOut: chunk by chunk of grid points, the nw, ne, sw
        and se contributions of a chunk in turn, each in point order."""
        n, c, height, width = shape
        g_input = np.zeros((n, c, height * width), dtype=grad.dtype)
        points = grad.shape[2] * grad.shape[3]
        p = np.arange(points)
        vec = _VEC_BYTES // grad.dtype.itemsize
        order_key = np.concatenate([(p // vec) * (4 * vec) + k * vec + p % vec
                                    for k in range(len(corners))])
        order = np.argsort(order_key, kind="stable")
        flat_grad = grad.reshape(n, c, points)
        targets = np.concatenate([(yi * width + xi).reshape(n, points)
                                  for xi, yi, _, _ in corners], axis=1)[:, order]
        inside = np.concatenate([ok.reshape(n, points) for _, _, _, ok in corners],
                                axis=1)[:, order]
        values = np.concatenate([flat_grad * weight.reshape(n, 1, points)
                                 for _, _, weight, _ in corners], axis=2)[:, :, order]
        for b in range(n):
            keep = inside[b]
            np.add.at(g_input[b], (slice(None), targets[b][keep]), values[b][:, keep])
        return g_input.reshape(n, c, height, width)

    def _grid_grad(self, data: Array, grad: Array, corners: list[Any]) -> Array:
        """gx += ((ne - nw) * s + (se - sw) * n) * gOut over the channels (gy likewise with
        e and w; multiply-adds where GCC contracts them), then times d(pixel)/d(grid
        value)."""
        (nw_x, nw_y, _, nw_ok), (ne_x, ne_y, _, ne_ok), (sw_x, sw_y, _, sw_ok), \
            (se_x, se_y, _, se_ok) = corners
        nw = self._gather(data, nw_x, nw_y, nw_ok)
        ne = self._gather(data, ne_x, ne_y, ne_ok)
        sw = self._gather(data, sw_x, sw_y, sw_ok)
        se = self._gather(data, se_x, se_y, se_ok)
        one = self.ix.dtype.type(1)
        w, nn = self.ix - np.floor(self.ix), self.iy - np.floor(self.iy)
        e, s = one - w, one - nn
        gx = np.zeros(grad.shape[:1] + grad.shape[2:], dtype=grad.dtype)
        gy = np.zeros_like(gx)
        for ch in range(grad.shape[1]):
            g = grad[:, ch]
            gx = fma(fma(se[:, ch] - sw[:, ch], nn, (ne[:, ch] - nw[:, ch]) * s), g, gx)
            gy = fma(fma(se[:, ch] - ne[:, ch], w, (sw[:, ch] - nw[:, ch]) * e), g, gy)
        return np.stack([gx * self.mx, gy * self.my], axis=-1).astype(grad.dtype)
