"""RenormBackward0: torch.renorm's node (each slice along `dim` whose p-norm passes maxnorm
scaled down to it). The scale factors are computed by ops/numeric_extras.py (from
linalg.vector_norm, PyTorch's bits) and given to the node with the norms."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, c_order
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["RenormBackward0"]


class RenormBackward0(Function):
    """out = self * factor, factor = maxnorm / (norm + 1e-7) where norm > maxnorm, else 1.

    The gradient is ATen's renorm_backward: where the norm passes maxnorm,
    factor * grad - factor / (norm + 1e-7) * norm_backward(sum(self * grad)), else grad."""

    node_name = "RenormBackward0"

    def forward(self, a: Tensor, factor: Array, norm: Array, p: float, dims: tuple[int, ...],
                maxnorm: float) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        self.norm, self.p, self.dims, self.maxnorm = norm, p, dims, maxnorm
        with _quiet():
            return c_order(a._data * factor)  # (renorm's output is a new contiguous tensor)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of renorm")
        x = self.saved("self", F)
        norm, p, dtype = self.norm, self.p, x.dtype.type
        with _quiet():
            total = (x * grad).sum(axis=self.dims, keepdims=True, dtype=x.dtype)
            nb = _norm_backward(total, x, p, norm)
            invnorm = dtype(1) / (norm + dtype(1e-7))
            factor = invnorm * dtype(self.maxnorm)
            return (np.where(norm > dtype(self.maxnorm), factor * grad - (factor * invnorm) * nb,
                             grad),)


def _norm_backward(grad: Array, x: Array, p: float, norm: Array) -> Array:
    """ATen's norm_backward with keepdim, on arrays."""
    t = x.dtype.type
    if p == 1.0:
        return np.sign(x) * grad
    if p == 2.0:
        return grad * np.where(norm == 0, t(0), x / norm)
    if np.isinf(p):
        mask = np.abs(x) == norm
        count = mask.sum(axis=tuple(i for i in range(x.ndim) if norm.shape[i] == 1),
                         keepdims=True)
        return np.sign(x) * np.where(mask, grad / count, t(0))
    if p < 1.0:
        scaled = np.sign(x) * np.where(x == 0, t(0), np.abs(x) ** t(p - 1))
        return scaled * grad * norm ** t(1 - p)
    scaled = np.sign(x) * np.abs(x) ** t(p - 1) if p < 2.0 else x * np.abs(x) ** t(p - 2)
    scale = np.where(norm == 0, t(0), grad / norm ** t(p - 1))
    return scaled * scale
