"""Embedding lookups: embedding (padding_idx, max_norm, scale_grad_by_freq)."""

from __future__ import annotations

from gradsh.engine import backend, dtypes, limits
from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.embeddings import EmbeddingBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.copies import tensor_type
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["embedding"]


def _renorm_rows(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    """embedding_renorm_: the rows looked up whose norm exceeds max_norm are scaled down to it,
    in place (not recorded by autograd)."""
    data = weight._data
    xp = xp_of(data)
    rows = xp.unique(indices._data.reshape(-1))
    picked = data[rows]
    norms = xp.sum(xp.abs(picked) ** norm_type, axis=1) ** (1.0 / norm_type)
    over = norms > max_norm
    if not bool(over.any()):
        return
    scale = (max_norm / (norms[over] + 1e-7)).astype(data.dtype)
    updated = data.copy()
    updated[rows[over]] = picked[over] * scale[:, None]
    weight._inplace_data(updated)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,  # noqa: A002
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """F.embedding: rows of weight picked by the integer tensor input."""
    input = _check_tensor(input, "embedding")
    weight = _check_tensor(weight, "embedding", "weight", 2)
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.shape[0] + padding_idx
    else:
        padding_idx = -1
    if input.dtype not in (dtypes.int64, dtypes.int32):
        raise TorchRuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {tensor_type(input)} instead (while checking "
            "arguments for embedding)")
    if weight.ndim != 2:
        raise TorchRuntimeError("'weight' must be 2-D")
    if sparse:
        raise TorchRuntimeError("gradsh does not implement sparse gradients (sparse=True)")
    limits.check((*input.shape, weight.shape[1]), weight._data.dtype.itemsize)
    host = backend.to_host(input._data)
    if host.size and (int(host.max()) >= weight.shape[0] or int(host.min()) < 0):
        raise TorchIndexError("index out of range in self")
    if max_norm is not None:
        with no_grad():
            _renorm_rows(weight, input, max_norm, norm_type)
    return EmbeddingBackward0.apply(weight, padding_idx=padding_idx,  # type: ignore[call-arg]
                                    indices=input, scale_grad_by_freq=scale_grad_by_freq)
