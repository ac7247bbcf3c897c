"""Nodes of torch.cdist: the p-norm kernel (CdistBackward0, DistanceOpsKernel.cpp's loops) and
the matrix-product form PyTorch uses for p = 2 with more than 25 rows (EuclideanDistBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = ["CdistBackward0", "CdistBackwardBackward0", "EuclideanDistBackward0"]


def _pow32(x: Array, p: float) -> Array:
    """powf(x, p) for float32 (glibc's is correctly rounded: float64 then one rounding)."""
    xp = xp_of(x)
    if x.dtype == np.float64:
        return xp.power(x, p)
    return xp.power(x.astype(np.float64), float(np.float32(p))).astype(x.dtype)


def cdist_array(x1: Array, x2: Array, p: float) -> Array:
    """(..., r1, m) and (..., r2, m) -> (..., r1, r2): per pair, the column terms added one
    after another in the input's dtype, then the finish (sqrt, or pow(agg, 1.0 / p) in double)."""
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
                agg = agg + d * d
            elif math.isinf(p):
                agg = xp.maximum(agg, d)
            else:
                agg = agg + _pow32(d, p)
        if p == 2:
            return xp.sqrt(agg)
        if p in (0, 1) or math.isinf(p):
            return agg
        return xp.power(agg.astype(np.float64), 1.0 / float(np.float32(p))).astype(agg.dtype)


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
                value = sign * _pow32(xp.abs(diff), p - 1) * g / _pow32(dj, p - 1)
                term = xp.where((dj == 0) | ((diff == 0) & (p < 1)), 0, value)
            elif p == 2:
                term = xp.where(dj == 0, 0, g * diff / dj)
            elif math.isinf(p):
                term = g * sign * (one - xp.minimum(one, xp.ceil(xp.abs(xp.abs(diff) - dj))))
            else:
                value = diff * _pow32(xp.abs(diff), p - 2) * g / _pow32(dj, p - 1)
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
        a_norm = (a * a).sum(-1, keepdims=True)
        b_norm = (b * b).sum(-1, keepdims=True)
        left = xp.concatenate([a * -2, a_norm, xp.ones_like(a_norm)], -1)
        right = xp.concatenate([b, xp.ones_like(b_norm), b_norm], -1)
        with _quiet():
            return xp.sqrt(xp.maximum(left @ xp.swapaxes(right, -1, -2), 0))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need1, need2 = self.needs_input_grad
        x1, x2, res = self.saved("x1", F), self.saved("x2", F), self.saved("result", F)
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
