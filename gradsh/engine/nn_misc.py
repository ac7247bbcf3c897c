"""Engine ops for nn layers that are neither convolutions, pooling, normalisation nor RNNs:
embedding (EmbeddingBackward0) and bilinear (TrilinearBackward0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, ops
from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.ops import arguments
from gradsh.engine.tensor import Array, Function, GradOps, Tensor, no_grad


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)


# ---------------------------------------------------------------------------------------------
# Embedding
# ---------------------------------------------------------------------------------------------


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
        return _xp(weight._data).take(weight._data, indices._data, axis=0)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        indices = self.saved("indices", F)
        flat = (indices._data if F.as_tensor else indices).reshape(-1)
        dim = grad.shape[-1]
        keep = flat != self.padding_idx
        scale = None
        if self.scale_grad_by_freq:
            counts = _xp(flat).bincount(flat, minlength=self.num_weights)
            scale = 1.0 / counts[flat]
        if F.as_tensor:
            rows = ops.reshape(grad, (-1, dim))
            if scale is not None:
                rows = rows * Tensor._make(scale.astype(rows._data.dtype)[:, None], grad.device)
            rows = rows * Tensor._make(keep[:, None].astype(rows._data.dtype), grad.device)
            zeros = ops.zeros((self.num_weights, dim), dtype=grad.dtype, device=grad.device)
            return (ops.index_add(zeros, 0, Tensor._make(flat, grad.device), rows),)
        rows = grad.reshape(-1, dim)
        if scale is not None:
            rows = rows * scale.astype(rows.dtype)[:, None]
        out = _xp(grad).zeros((self.num_weights, dim), dtype=grad.dtype)
        _xp(grad).add.at(out, flat[keep], rows[keep])
        return (out,)


def _renorm_rows(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    """embedding_renorm_: the rows looked up whose norm exceeds max_norm are scaled down to it,
    in place (not recorded by autograd)."""
    data = weight._data
    xp = _xp(data)
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
    input = arguments._check_tensor(input, "embedding")
    weight = arguments._check_tensor(weight, "embedding", "weight", 2)
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
            f"types: Long, Int; but got {ops.tensor_type(input)} instead (while checking "
            "arguments for embedding)")
    if weight.ndim != 2:
        raise TorchRuntimeError("'weight' must be 2-D")
    if sparse:
        raise TorchRuntimeError("gradsh does not implement sparse gradients (sparse=True)")
    host = backend.to_host(input._data)
    if host.size and (int(host.max()) >= weight.shape[0] or int(host.min()) < 0):
        raise TorchIndexError("index out of range in self")
    if max_norm is not None:
        with no_grad():
            _renorm_rows(weight, input, max_norm, norm_type)
    return EmbeddingBackward0.apply(weight, padding_idx=padding_idx,  # type: ignore[call-arg]
                                    indices=input, scale_grad_by_freq=scale_grad_by_freq)


# ---------------------------------------------------------------------------------------------
# Bilinear
# ---------------------------------------------------------------------------------------------


class TrilinearBackward0(Function):
    """at::_trilinear as bilinear uses it: out[b, o] = sum_ij x1[b, i] w[o, i, j] x2[b, j]."""

    node_name = "TrilinearBackward0"

    def forward(self, x1: Tensor, weight: Tensor, x2: Tensor) -> Array:
        self.save("i1", x1)
        self.save("i2", weight)
        self.save("i3", x2)
        xp = _xp(x1._data)
        return xp.einsum("bi,oij,bj->bo", x1._data, weight._data, x2._data, optimize=True)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        x1, w, x2 = (self.saved(k, F) for k in ("i1", "i2", "i3"))
        n1, nw, n2 = self.needs_input_grad
        if F.as_tensor:
            gw = ops.unsqueeze(ops.unsqueeze(grad, 2), 3)  # (b, o, 1, 1)
            full = ops.mul(ops.mul(gw, ops.unsqueeze(w, 0)),
                           ops.unsqueeze(ops.unsqueeze(x2, 1), 1))  # g w x2: (b, o, i, j)
            g1 = ops.sum(full, dim=(1, 3)) if n1 else None
            outer = ops.mul(ops.unsqueeze(ops.unsqueeze(x1, 1), 3),
                            ops.unsqueeze(ops.unsqueeze(x2, 1), 1))  # (b, 1, i, j)
            g_w = ops.sum(ops.mul(gw, outer), dim=0) if nw else None
            g2 = None
            if n2:
                g2 = ops.sum(ops.mul(ops.mul(gw, ops.unsqueeze(w, 0)),
                                     ops.unsqueeze(ops.unsqueeze(x1, 1), 3)), dim=(1, 2))
            return g1, g_w, g2
        xp = _xp(grad)
        return (xp.einsum("bo,oij,bj->bi", grad, w, x2, optimize=True) if n1 else None,
                xp.einsum("bo,bi,bj->oij", grad, x1, x2, optimize=True) if nw else None,
                xp.einsum("bo,oij,bi->bj", grad, w, x1, optimize=True) if n2 else None)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """F.bilinear as ATen builds it: both inputs flattened to 2-D, the trilinear product,
    reshaped back, plus the bias."""
    if input1.ndim != input2.ndim:
        raise TorchRuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} "
                                f"and {input2.ndim}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise TorchRuntimeError(f"bilinear(): input batch dimensions do not match: got "
                                f"{list(input1.shape)} and {list(input2.shape)}")
    if input1.shape[-1] != weight.shape[1]:
        raise TorchRuntimeError(f"bilinear(): input1 size does not match weight size: got "
                                f"{input1.shape[-1]} but expected {weight.shape[1]}")
    if input2.shape[-1] != weight.shape[2]:
        raise TorchRuntimeError(f"bilinear(): input2 size does not match weight size: got "
                                f"{input2.shape[-1]} but expected {weight.shape[2]}")
    out_shape = tuple(input1.shape[:-1]) + (weight.shape[0],)
    flat1 = ops.reshape(input1, (-1, input1.shape[-1]))
    flat2 = ops.reshape(input2, (-1, input2.shape[-1]))
    output = ops.reshape(TrilinearBackward0.apply(flat1, weight, flat2), out_shape)
    return output if bias is None else ops.add(output, bias)
