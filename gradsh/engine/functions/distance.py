"""Nodes of torch.cdist: the p-norm kernel (CdistBackward0, DistanceOpsKernel.cpp's loops) and
the matrix-product form PyTorch uses for p = 2 with more than 25 rows (EuclideanDistBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.linalg import product
from gradsh.engine.functions.pointwise import unary
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.vecmath import libm, sleef, sleef_double
from gradsh.engine.vecmath.fp import fma32

__all__ = ["CdistBackward0", "CdistBackwardBackward0", "EuclideanDistBackward0"]


def _scalar_pow(x: Array, p: float) -> Array:
    """std::pow(x, p) on the kernel's scalar_t: glibc's powf for float (p rounded to float), its
    pow for double; NumPy's power elsewhere (CuPy)."""
    if x.__class__ is np.ndarray and sleef_double.available():
        if x.dtype == np.float32:
            return libm.powf(x, np.full(x.shape, p, np.float32)).reshape(x.shape)
        return sleef_double.libm2("pow", x, np.full(x.shape, float(p)))
    return xp_of(x).power(x, x.dtype.type(p))


def _vec_pow(x: Array, p: float) -> Array:
    """Vectorized<scalar_t>::pow (the backward's): SLEEF's powf / pow (u10)."""
    if x.__class__ is np.ndarray and sleef_double.available():
        if x.dtype == np.float32:
            return sleef.powf_u10(x, np.full(x.shape, p, np.float32)).reshape(x.shape)
        return sleef_double.sleef2("pow", x, np.full(x.shape, float(p)))
    return xp_of(x).power(x, x.dtype.type(p))


def _fma(a: Array, b: Array, c: Array) -> Array:
    """agg + d * d as GCC contracted the kernel's scalar loop: one fused multiply-add."""
    if a.__class__ is not np.ndarray:
        return c + a * b
    if a.dtype == np.float32:
        return fma32(a, b, c)
    return sleef_double.fma(a, b, c)


def _squares_sum(diff: Array) -> Array:
    """The p = 2 kernel's sum of squares over the last axis as GCC vectorised its scalar loop
    (read from libtorch_cpu's AVX2 Dist<float>/<double>::run_parallel_cdist<tdist_calc>): whole
    blocks of 8 floats (4 doubles) squared in a vector (each square rounded) and their lanes
    added to the sum one by one in order, then at most one block of 4 (2) the same way, the rest
    fused one by one (sum + d * d rounded once)."""
    if diff.__class__ is not np.ndarray:
        return (diff * diff).sum(-1)
    m = diff.shape[-1]
    total = np.zeros(diff.shape[:-1], diff.dtype)
    pos = 0
    wide, narrow = (8, 4) if diff.dtype == np.float32 else (4, 2)
    blocks = [wide] * ((m - pos) // wide)
    if m - len(blocks) * wide >= narrow:
        blocks.append(narrow)
    for width in blocks:
        block = diff[..., pos:pos + width]
        squares = block * block
        for lane in range(width):
            total = total + squares[..., lane]
        pos += width
    for k in range(pos, m):
        total = _fma(diff[..., k], diff[..., k], total)
    return total


def cdist_array(x1: Array, x2: Array, p: float) -> Array:
    """(..., r1, m) and (..., r2, m) -> (..., r1, r2): per pair, the column terms added one
    after another in the input's dtype (p = 2: _squares_sum), then the finish (sqrt, or
    pow(agg, 1.0 / p) in double)."""
    xp = xp_of(x1)
    diff = xp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    agg = xp.zeros(diff.shape[:-1], dtype=diff.dtype)
    with _quiet():
        for k in range(diff.shape[-1]):
            d = diff[..., k]
            if p == 0:
                agg = agg + (d != 0).astype(diff.dtype)
            elif p == 1:
                agg = agg + d
            elif p == 2:
                return xp.sqrt(_squares_sum(diff))
            elif math.isinf(p):
                agg = xp.maximum(agg, d)
            else:
                agg = agg + _scalar_pow(xp.ascontiguousarray(d), p)
        if p == 2:
            return xp.sqrt(agg)
        if p in (0, 1) or math.isinf(p):
            return agg
        # std::pow(agg, 1.0 / p): the double pow of the float sum
        exponent = 1.0 / float(agg.dtype.type(p))
        return _scalar_pow(agg.astype(np.float64), exponent).astype(agg.dtype)


def cdist_backward_array(grad: Array, x1: Array, x2: Array, p: float, dist: Array) -> Array:
    """The gradient for x1: per row of x1, the pair terms added over x2's rows in order
    (Dist::backward_down_column_cdist); for x2, the same with the roles swapped."""
    xp = xp_of(x1)
    out = xp.zeros(x1.shape, dtype=x1.dtype)
    if p == 0:
        return out
    one = x1.dtype.type(1)
    with _quiet():
        for j in range(x2.shape[-2]):
            diff = x1 - x2[..., j:j + 1, :]
            g = grad[..., j:j + 1]
            dj = dist[..., j:j + 1]
            sign = xp.sign(diff)
            if p == 1:
                term = g * sign
            elif p < 2:
                value = sign * _vec_pow(xp.abs(diff), p - 1) * g / _vec_pow(dj, p - 1)
                term = xp.where((dj == 0) | ((diff == 0) & (p < 1)), 0, value)
            elif p == 2:
                term = xp.where(dj == 0, 0, g * diff / dj)
            elif math.isinf(p):
                term = g * sign * (one - xp.minimum(one, xp.ceil(xp.abs(xp.abs(diff) - dj))))
            else:
                value = diff * _vec_pow(xp.abs(diff), p - 2) * g / _vec_pow(dj, p - 1)
                term = xp.where(dj == 0, 0, value)
            out = out + term.astype(x1.dtype)
    return out


class CdistBackward0(Function):
    node_name = "CdistBackward0"

    def forward(self, x1: Tensor, x2: Tensor, p: float) -> Array:
        self.p = p
        self.save("x1", x1)
        self.save("x2", x2)
        self.save("result", RESULT)
        return cdist_array(x1._data, x2._data, p)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need1, need2 = self.needs_input_grad
        x1, x2 = self.saved("x1", F), self.saved("x2", F)
        result = self.saved("result", F)
        if F.as_tensor:
            return (CdistBackwardBackward0.apply(grad, x1, x2, result, p=self.p, first=True)
                    if need1 else None,
                    CdistBackwardBackward0.apply(grad, x1, x2, result, p=self.p, first=False)
                    if need2 else None)
        return _cdist_gradients(grad, x1, x2, result, self.p, need1, need2)


def _cdist_gradients(grad: Array, x1: Array, x2: Array, dist: Array, p: float, need1: bool,
                     need2: bool) -> tuple[Any, Any]:
    xp = xp_of(x1)
    shape = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    a = xp.broadcast_to(x1, shape + x1.shape[-2:])
    b = xp.broadcast_to(x2, shape + x2.shape[-2:])
    g1 = cdist_backward_array(grad, a, b, p, dist) if need1 else None
    g2 = (cdist_backward_array(xp.swapaxes(grad, -1, -2), b, a, p, xp.swapaxes(dist, -1, -2))
          if need2 else None)
    return g1, g2


class CdistBackwardBackward0(Function):
    """_cdist_backward recorded under create_graph; PyTorch has no derivative for it."""

    node_name = "CdistBackwardBackward0"

    def forward(self, grad: Tensor, x1: Tensor, x2: Tensor, dist: Tensor, p: float,
                first: bool) -> Array:
        g1, g2 = _cdist_gradients(grad._data, x1._data, x2._data, dist._data, p, first,
                                  not first)
        return g1 if first else g2

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchNotImplementedError("the derivative for '_cdist_backward' is not implemented.")


class EuclideanDistBackward0(Function):
    """_euclidean_dist: sqrt(clamp_min(|x1|^2 - 2 x1.x2 + |x2|^2, 0)) through one matrix
    product, as PyTorch computes it for p = 2 with more than 25 rows."""

    node_name = "EuclideanDistBackward0"

    def forward(self, x1: Tensor, x2: Tensor) -> Array:
        self.save("x1", x1)
        self.save("x2", x2)
        self.save("result", RESULT)
        a, b = x1._data, x2._data
        xp = xp_of(a)
        a_norm = torch_sum(a * a, -1, True, a.dtype)
        b_norm = torch_sum(b * b, -1, True, b.dtype)
        left = xp.concatenate([a * a.dtype.type(-2), a_norm, xp.ones_like(a_norm)], -1)
        right = xp.concatenate([b, xp.ones_like(b_norm), b_norm], -1)
        with _quiet():  # clamp_min_(0).sqrt_(): sqrt as the engine's (MKL's vsSqrt for float)
            return unary("sqrt", xp.maximum(product(left, xp.swapaxes(right, -1, -2)), 0))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need1, need2 = self.needs_input_grad
        x1, x2, res = self.saved("x1", F), self.saved("x2", F), self.saved("result", F)
        if not F.as_tensor:
            return _euclidean_gradients(grad, x1, x2, res, need1, need2)
        with _quiet():
            ratio = F.masked_fill(grad / res, res == 0, 0.0)
        g1 = (x1 * F.sum(ratio, (ratio.ndim - 1,), True) - ratio @ x2) if need1 else None
        if need2:
            column = F.sum(ratio, (ratio.ndim - 2,), False)
            g2 = x2 * F.reshape(column, tuple(column.shape) + (1,)) - F.transpose(
                ratio, ratio.ndim - 1, ratio.ndim - 2) @ x1
        else:
            g2 = None
        return g1, g2


def _euclidean_gradients(grad: Array, x1: Array, x2: Array, res: Array, need1: bool,
                         need2: bool) -> tuple[Any, Any]:
    """_euclidean_dist_backward on arrays with ATen's sums (cascade_sum) and products (MKL):
    ratio = grad / res (0 where res is), x1 * ratio.sum(-1) - ratio @ x2 and x2 *
    ratio.sum(-2) - ratio^T @ x1."""
    xp = xp_of(grad)
    with _quiet():
        ratio = xp.where(res == 0, grad.dtype.type(0), grad / res)
        g1 = g2 = None
        if need1:
            g1 = x1 * torch_sum(ratio, -1, True, ratio.dtype) - product(ratio, x2)
        if need2:
            column = torch_sum(ratio, -2, False, ratio.dtype)[..., None]
            g2 = x2 * column - product(xp.swapaxes(ratio, -1, -2), x1)
    return g1, g2
