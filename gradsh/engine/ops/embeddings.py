"""Embedding lookups: embedding (padding_idx, max_norm, scale_grad_by_freq) and embedding_bag."""

from __future__ import annotations

from gradsh.engine import backend, dtypes, limits
from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.embeddings import EmbeddingBackward0, EmbeddingBagBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.copies import tensor_type
from gradsh.engine.ops.creation import zeros
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["embedding", "embedding_bag", "renorm_embedding_rows"]


def _renorm_rows(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    """embedding_renorm_: the rows looked up whose norm exceeds max_norm are scaled down to it,
    in place (not recorded by autograd)."""
    from gradsh.engine.ops.reductions import norm  # (reductions imports a module importing this)

    data = weight._data
    xp = xp_of(data)
    rows = xp.unique(indices._data.reshape(-1))
    updated = None
    with no_grad():
        for row in rows.tolist():
            # ATen: row.norm(norm_type).item() (its float32 reduction), the scale in double,
            # `row *= scale` multiplying by the scale cast to the weight's dtype
            value = float(norm(Tensor._make(data[row], weight.device), norm_type).item())
            if value > max_norm:
                if updated is None:
                    updated = data.copy()
                updated[row] = data[row] * data.dtype.type(max_norm / (value + 1e-7))
    if updated is not None:
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
    limits.check((*input.shape, weight.shape[1]), weight._data.dtype.itemsize)
    host = backend.to_host(input._data)
    if host.size and (int(host.max()) >= weight.shape[0] or int(host.min()) < 0):
        raise TorchIndexError("index out of range in self")
    if max_norm is not None:
        with no_grad():
            _renorm_rows(weight, input, max_norm, norm_type)
    return EmbeddingBackward0.apply(weight, padding_idx=padding_idx,  # type: ignore[call-arg]
                                    indices=input, scale_grad_by_freq=scale_grad_by_freq,
                                    sparse=sparse)


def renorm_embedding_rows(weight: Tensor, indices: Tensor, max_norm: float,
                          norm_type: float) -> None:
    """embedding_renorm_ without grad, as F.embedding and F.embedding_bag call it."""
    with no_grad():
        _renorm_rows(weight, indices, max_norm, norm_type)


def embedding_bag(weight: Tensor, indices: Tensor, offsets: Tensor,
                  scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """torch.embedding_bag: (output, offset2bag, bag_size, max_indices); the bags' sums, means
    or maxima of the weight rows (EmbeddingBagBackward0)."""
    weight = _check_tensor(weight, "embedding_bag", "weight", 1)
    indices = _check_tensor(indices, "embedding_bag", "indices", 2)
    offsets = _check_tensor(offsets, "embedding_bag", "offsets", 3)
    if indices.dtype not in (dtypes.int64, dtypes.int32):
        raise TorchRuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                                "following scalar types: Long, Int; but got "
                                f"{tensor_type(indices)} instead (while checking "
                                "arguments for embedding_bag)")
    flat = indices._data.reshape(-1).astype("int64")
    starts = offsets._data.reshape(-1).astype("int64")
    if include_last_offset:
        starts = starts[:-1]
    if flat.size and (flat.min() < 0 or flat.max() >= weight.shape[0]):
        bad = int(flat[(flat < 0) | (flat >= weight.shape[0])][0])
        raise TorchIndexError(f"index {bad} is out of bounds for dimension 0 with size "
                              f"{weight.shape[0]}")
    if starts.size and starts[0] != 0:
        raise TorchRuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                                f"mini-batch has to start from position 0. However, got "
                                f"{int(starts[0])}")
    pad = -1 if padding_idx is None else padding_idx
    extra = () if per_sample_weights is None else (per_sample_weights,)
    out = EmbeddingBagBackward0.apply(weight, *extra, indices=flat, offsets=starts, mode=mode,
                                      padding_idx=pad, scale_grad_by_freq=scale_grad_by_freq,
                                      sparse=sparse)
    empty = zeros(0, dtype=dtypes.int64)
    return out, empty, empty, empty
