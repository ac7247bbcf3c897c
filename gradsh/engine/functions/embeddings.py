"""The node of embedding lookups: EmbeddingBackward0."""

from __future__ import annotations

from typing import Any

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["EmbeddingBackward0"]


class EmbeddingBackward0(Function):
    """weight[indices]; the gradient of each row is the sum of the gradients of its lookups
    (nothing for padding_idx, divided by the lookup count with scale_grad_by_freq)."""

    node_name = "EmbeddingBackward0"

    def forward(self, weight: Tensor, indices: Tensor, padding_idx: int,
                scale_grad_by_freq: bool) -> Array:
        self.save("indices", indices)
        self.num_weights = weight.shape[0]
        self.padding_idx = padding_idx
        self.scale_grad_by_freq = scale_grad_by_freq
        return xp_of(weight._data).take(weight._data, indices._data, axis=0)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        flat = F.as_array(self.saved("indices", F)).reshape(-1)
        xp = xp_of(flat)
        dim = grad.shape[-1]
        keep = flat != self.padding_idx
        scale = None
        if self.scale_grad_by_freq:
            counts = xp.bincount(flat, minlength=self.num_weights)
            scale = 1.0 / counts[flat]
        if F.as_tensor:
            rows = F.reshape(grad, (-1, dim))
            if scale is not None:
                rows = rows * Tensor._make(scale.astype(rows._data.dtype)[:, None], grad.device)
            rows = rows * Tensor._make(keep[:, None].astype(rows._data.dtype), grad.device)
            zeros = F.zeros((self.num_weights, dim), grad)
            return (F.index_add(zeros, 0, Tensor._make(flat, grad.device), rows),)
        rows = grad.reshape(-1, dim)
        if scale is not None:
            rows = rows * scale.astype(rows.dtype)[:, None]
        out = xp.zeros((self.num_weights, dim), dtype=grad.dtype)
        xp.add.at(out, flat[keep], rows[keep])
        return (out,)
