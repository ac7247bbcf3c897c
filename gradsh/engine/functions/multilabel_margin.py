"""MultilabelMarginLossBackward0: the multi-label hinge loss as ATen's CPU kernel computes it
(each row's sum in float64 of float hinge terms, the batch added in float64; the gradient
added term by term in the dtype)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["MultilabelMarginLossBackward0"]


def _targets(row: np.ndarray) -> list[int]:
    """The class indices of one target row, up to the first negative entry."""
    out = []
    for value in row.tolist():
        if value < 0:
            break
        out.append(int(value))
    return out


class MultilabelMarginLossBackward0(Function):
    node_name = "MultilabelMarginLossBackward0"

    def forward(self, a: Tensor, target: Tensor, reduction: str,
                scalar_out: bool) -> Array:
        x = np.asarray(a._data)
        dim = x.shape[-1] if x.ndim else 1
        x2 = x.reshape(-1, dim)
        t2 = np.asarray(target._data).reshape(-1, dim)
        self.x2, self.t2, self.reduction = x2, t2, reduction
        self.shape, self.scalar_out = tuple(a.shape), scalar_out
        one = x2.dtype.type(1)
        sums = []
        with _quiet():
            for row, labels in zip(x2, t2, strict=True):
                chosen = _targets(labels)
                others = np.ones(dim, dtype=bool)
                others[chosen] = False
                total = 0.0
                for index in chosen:
                    z = (one - row[index]) + row[others]
                    for value in z[z > 0].tolist():
                        total += value
                sums.append(total)
        per_row = np.asarray(sums, dtype=np.float64).astype(x.dtype)
        if reduction == "none" and not scalar_out:
            return (per_row / x.dtype.type(dim)).astype(x.dtype)
        total = 0.0
        for value in per_row.tolist():
            total += value
        total /= dim
        if reduction == "mean":
            total /= x2.shape[0]
        return np.asarray(total, dtype=x.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "multilabel_margin_loss yet")
        x2, t2 = self.x2, self.t2
        nframe, dim = x2.shape
        dtype = x2.dtype.type
        g = dtype(1.0 / (nframe * dim)) if self.reduction == "mean" else dtype(1.0 / dim)
        one = dtype(1)
        result = np.zeros_like(x2)
        with _quiet():
            for row, labels, out in zip(x2, t2, result, strict=True):
                chosen = _targets(labels)
                others = np.ones(dim, dtype=bool)
                others[chosen] = False
                for index in chosen:
                    for d in np.flatnonzero(others).tolist():
                        if (one - row[index]) + row[d] > 0:
                            out[index] -= g
                            out[d] += g
            scale = np.asarray(grad, dtype=x2.dtype)
            if scale.ndim and not self.scalar_out:
                result = result * scale.reshape(-1, 1)
            else:
                result = result * scale.reshape(())
        return (result.reshape(self.shape),)
