"""PdistBackward0 and LogcumsumexpBackward0, computed in float64 and rounded to the input's
dtype (within rounding of PyTorch's values, not its bits)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.common import _quiet, c_order
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath.sleef_double import libm

__all__ = ["LogcumsumexpBackward0", "PdistBackward0"]


def _no_double_backward(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


class PdistBackward0(Function):
    """The p-norm distance of every pair of rows i < j, in row-major pair order."""

    node_name = "PdistBackward0"

    def forward(self, a: Tensor, p: float) -> Array:
        x = a._data.astype(np.float64)
        n = x.shape[0]
        self.rows, self.cols = np.triu_indices(n, 1)
        self.diff = x[self.rows] - x[self.cols]
        self.p, self.dtype, self.n = p, a._data.dtype, n
        with _quiet():
            dist = self._norm(np.abs(self.diff), p)
        self.dist = dist
        return dist.astype(a._data.dtype)

    @staticmethod
    def _norm(size: np.ndarray, p: float) -> np.ndarray:
        if p == 0:
            return (size != 0).sum(axis=1).astype(np.float64)
        if p == np.inf:
            return size.max(axis=1, initial=0.0)
        if p == 1:
            return size.sum(axis=1)
        if p == 2:
            return np.sqrt((size * size).sum(axis=1))
        return np.power(np.power(size, p).sum(axis=1), 1.0 / p)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "pdist")
        diff, dist, p = self.diff, self.dist[:, None], self.p
        g = np.asarray(grad, dtype=np.float64)[:, None]
        with _quiet():
            if p == 0:
                part = np.zeros_like(diff)
            elif p == 1:
                part = np.sign(diff)
            elif p == np.inf:
                part = np.sign(diff) * (np.abs(diff) == dist)
            elif p < 2:
                part = np.sign(diff) * np.power(np.abs(diff), p - 1) / np.power(dist, p - 1)
            else:
                part = diff * np.power(np.abs(diff), p - 2) / np.power(dist, p - 1)
            part = np.where(dist == 0, 0.0, part) * g
        result = np.zeros((self.n, diff.shape[1]))
        np.add.at(result, self.rows, part)
        np.add.at(result, self.cols, -part)
        return (result.astype(self.dtype),)


def _log_add_exp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ATen's _log_add_exp_helper in double: log1p(exp(min - max)) + max, x where both are the
    same infinity."""
    low, high = np.minimum(x, y), np.maximum(x, y)
    with _quiet():  # (std::log1p and std::exp: the C library's, in double)
        gap = np.asarray(low - high, np.float64)
        flat = np.ascontiguousarray(gap.reshape(-1))
        value = libm("log1p", libm("exp", flat)).reshape(gap.shape) + high
    same_infinite = (low == high) & ~np.isfinite(low)
    return np.where(same_infinite, x, value)


def _logcumsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    moved = np.moveaxis(x, axis, 0)
    out = np.empty_like(moved)
    running = np.full(moved.shape[1:], -np.inf)
    for i in range(moved.shape[0]):
        running = _log_add_exp(moved[i], running)
        out[i] = running
    return np.moveaxis(out, 0, axis)


class LogcumsumexpBackward0(Function):
    """logcumsumexp: the forward accumulates in double (acc_type of float on the CPU) and rounds
    each result; the backward is logcumsumexp_backward's composite of tensor ops in the dtype
    (log|g|, the positive and negative parts through a reversed logcumsumexp, + self, exp)."""

    node_name = "LogcumsumexpBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        x = a._data.astype(np.float64)
        self.input, self.dim, self.dtype = a._data, dim, a._data.dtype
        if x.ndim == 0:
            return a._data.copy()
        self.output = c_order(_logcumsumexp(x, dim).astype(a._data.dtype))
        return self.output  # (a new contiguous tensor in ATen)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "logcumsumexp")
        if self.input.ndim == 0:
            return (grad,)
        dim, dtype = self.dim, self.dtype
        g = np.asarray(grad, dtype=dtype)
        lowest = np.finfo(dtype).min
        with _quiet():
            log_abs = pointwise.unary("log", np.abs(g))
            positive = np.where(g > 0, log_abs, lowest).astype(dtype)
            negative = np.where(g < 0, log_abs, lowest).astype(dtype)

            def part(t: np.ndarray) -> np.ndarray:
                flipped = np.flip((t - self.output).astype(dtype), dim).astype(np.float64)
                summed = np.flip(_logcumsumexp(flipped, dim).astype(dtype), dim)
                return pointwise.unary("exp", np.ascontiguousarray(summed + self.input))

            out = part(positive) - part(negative)
        return (out.astype(dtype),)
