"""Nodes of the losses ATen computes with kernels of their own: soft_margin_loss and
multi_margin_loss (their composite siblings are in ops/margin_losses.py), and at::norm's
NormBackward1, which pairwise_distance records."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.losses import _reduce_array
from gradsh.engine.functions.pointwise import unary
from gradsh.engine.functions.reductions import LinalgVectorNormBackward0
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["SoftMarginLossBackward0", "MultiMarginLossBackward0", "NormBackward1"]


class NormBackward1(LinalgVectorNormBackward0):
    """at::norm(x, p, dim, keepdim) called from C++ (pairwise_distance): the vector norm."""

    node_name = "NormBackward1"


class SoftMarginLossBackward0(Function):
    """log(1 + exp(-target * input)), computed in place as ATen does: neg, mul, exp, add, log."""

    node_name = "SoftMarginLossBackward0"

    def forward(self, a: Tensor, target: Tensor, reduction: str) -> Array:
        # the target is no differentiable input: the node has one edge, as PyTorch's
        self.reduction, self.numel = reduction, a.numel()
        self.save("self", a)
        self.save("target", target)
        x, t = a._data, target._data.astype(a._data.dtype, copy=False)
        with _quiet():
            out = unary("log", unary("exp", (-x) * t) + x.dtype.type(1))
        return xp_of(x).asarray(_reduce_array(out, reduction), dtype=x.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # soft_margin_loss_backward: -norm * target * z / (1 + z) * grad, z = exp(-target * x)
        x, t = self.saved("self", F), self.saved("target", F)
        norm = 1.0 / self.numel if self.reduction == "mean" else 1.0
        with _quiet():
            z = F.ufunc("exp", -t * x)
            g = (t * z) * -norm
            return ((g / (z + 1)) * grad,)


def _inner_sums(x: np.ndarray, idx: np.ndarray, p: int, margin: float,
                weight: np.ndarray | None) -> np.ndarray:
    """multi_margin_inner_sum_cpu for every row: the hinge terms added in column order, in
    the dtype, then divided by the number of classes."""
    rows = np.arange(x.shape[0])
    x_target = x[rows, idx]
    scale = None if weight is None else weight[idx]
    total = np.zeros(x.shape[0], dtype=x.dtype)
    for d in range(x.shape[1]):
        z = (x.dtype.type(margin) - x_target) + x[:, d]
        h = z if p == 1 else z * z
        if scale is not None:
            h = h * scale
        total = total + np.where((z > 0) & (idx != d), h, x.dtype.type(0))
    return total / x.dtype.type(x.shape[1])


class MultiMarginLossBackward0(Function):
    """The multi-class hinge loss: ATen's CPU kernel (per-row sums in the dtype, the batch
    added in float64 for mean / sum)."""

    node_name = "MultiMarginLossBackward0"

    def forward(self, a: Tensor, target: Tensor, p: int, margin: float,
                weight: Tensor | None, reduction: str, scalar_out: bool) -> Array:
        self.p, self.margin, self.reduction = p, margin, reduction
        self.weight = None if weight is None else weight._data
        self.save("self", a)
        self.save("target", target)
        x = np.asarray(a._data)
        x2 = x.reshape(-1, x.shape[-1] if x.ndim else 1)
        idx = np.asarray(target._data).reshape(-1)
        with _quiet():
            sums = _inner_sums(x2, idx, p, margin, self.weight)
            if reduction == "none" and not scalar_out:
                return sums
            total = np.cumsum(sums.astype(np.float64))[-1] if sums.size else 0.0
            if reduction == "mean":
                total /= x2.shape[0]
        return np.asarray(total, dtype=x.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x_t, t_t = self.saved("self", F), self.saved("target", F)
        x = x_t._data if isinstance(x_t, Tensor) else x_t
        target = t_t._data if isinstance(t_t, Tensor) else t_t

        def gradient(g_out: Array) -> Array:
            x2 = np.asarray(x).reshape(-1, x.shape[-1] if x.ndim else 1)
            idx = np.asarray(target).reshape(-1)
            nframe, dim = x2.shape
            dtype = x2.dtype.type
            g = dtype(1.0 / (nframe * dim)) if self.reduction == "mean" else dtype(1.0 / dim)
            rows = np.arange(nframe)
            with _quiet():
                z = (dtype(self.margin) - x2[rows, idx])[:, None] + x2
                h = np.full_like(x2, g) if self.p == 1 else (2 * g) * z
                if self.weight is not None:
                    h = h * self.weight[idx][:, None]
                active = (z > 0) & (np.arange(dim)[None, :] != idx[:, None])
                out = np.where(active, h, dtype(0))
                # (ATen's target entry starts at 0 and subtracts: +0.0 where none is active)
                out[rows, idx] = dtype(0) - np.cumsum(out, axis=1, dtype=x2.dtype)[:, -1]
                scale = np.asarray(g_out, dtype=x2.dtype)
                out = out * (scale.reshape(-1, 1) if scale.ndim else scale)
            return out.reshape(x.shape)

        return (F.detached(gradient, grad),)

