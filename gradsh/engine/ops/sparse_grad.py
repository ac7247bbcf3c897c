"""Sparse gradients: nn.Embedding(sparse=True)'s gradient (a hybrid COO tensor: one sparse
dimension, the rows as values), how AccumulateGrad keeps it in .grad, and the arithmetic the
optimizers do with it (dense += sparse, sparse_mask, sparse *= number, sparse += sparse, the
same in their ATen order so that the float bits are PyTorch's).

dense += alpha * sparse is ATen's add_out_dense_sparse_cpu: each stored entry in stored order
adds alpha * its values to its place with BLAS axpy (one rounding: a fused multiply-add), so a
place stored twice gets two additions, one after the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, fma64
from gradsh.engine.functions.sparse import (
    Coo,
    SparseCOO,
    coalesced_form,
    coo_of,
    make_sparse,
    sum_form,
)
from gradsh.engine.tensor import Array, Tensor
from gradsh.engine.vecmath.fp import fma32

__all__ = ["sparse_tensor_of", "embedding_sparse_grad", "accumulate_sparse", "add_dense_sparse",
           "sparse_mask", "install_sparse_grad_methods"]


def sparse_tensor_of(coo: Coo, shape: tuple[int, ...], device: str) -> SparseCOO:
    """A sparse tensor (no history) of `coo`, its dense image summed as to_dense sums."""
    dense = add_dense_sparse(np.zeros(shape, coo.values.dtype), coo)
    return make_sparse(Tensor._make(dense, device), coo)


def embedding_sparse_grad(flat: Array, grad: Array, num_weights: int, padding_idx: int,
                          scale_grad_by_freq: bool, device: str) -> SparseCOO:
    """embedding_sparse_backward: the lookups' indices (1, n) and their gradient rows (n, dim),
    the padding_idx lookups left out; uncoalesced unless fewer than two."""
    if scale_grad_by_freq:
        raise TorchRuntimeError("embedding_backward: scale_grad_by_freq not supported with "
                                "sparse gradients")
    dim = grad.shape[-1]
    rows = np.asarray(grad).reshape(-1, dim)
    flat = np.asarray(flat).reshape(-1).astype(np.int64)
    if padding_idx != -1:
        keep = flat != padding_idx
        flat, rows = flat[keep], rows[keep]
    coo = Coo(flat.reshape(1, -1).copy(), rows, len(flat) < 2,
              bool(rows.flags.c_contiguous) or rows.size == 0)
    return sparse_tensor_of(coo, (num_weights, dim), device)


def _entry_rounds(coo: Coo, shape: tuple[int, ...]) -> list[Array]:
    """The entries as rounds: round k holds the k-th entry stored at each place (places of one
    round are distinct, so a round is one vectorized step)."""
    nnz = coo.indices.shape[1]
    if nnz == 0:
        return []
    sparse_dim = coo.indices.shape[0]
    linear = np.ravel_multi_index(tuple(coo.indices), shape[:sparse_dim]) if sparse_dim else \
        np.zeros(nnz, np.int64)
    order = np.argsort(linear, kind="stable")
    ordered = linear[order]
    starts = np.searchsorted(ordered, ordered, side="left")
    rank = np.empty(nnz, dtype=np.int64)
    rank[order] = np.arange(nnz) - starts
    return [np.nonzero(rank == k)[0] for k in range(int(rank.max()) + 1)]


def add_dense_sparse(dense: Array, coo: Coo, alpha: Any = 1) -> Array:
    """add_out_dense_sparse_cpu: `dense` (a new array) plus alpha times each stored entry in
    stored order."""
    out = np.array(dense, copy=True)
    if coo.indices.shape[1] == 0:
        return out
    if not coo.contiguous:  # ATen's slow path: coalesced first
        coo = coalesced_form(coo.indices, coo.values, out.shape)
    dtype = out.dtype
    values = coo.values.astype(dtype, copy=False)
    scale = dtype.type(alpha)
    fused = fma32 if dtype == np.float32 else fma64 if dtype == np.float64 else None
    with _quiet():
        for chosen in _entry_rounds(coo, out.shape):
            place = tuple(coo.indices[:, chosen])
            if fused is not None:
                out[place] = fused(values[chosen], np.full_like(values[chosen], scale),
                                   out[place])
            else:
                out[place] = out[place] + values[chosen] * scale
    return out


def sparse_mask(dense: Tensor, mask: Tensor) -> SparseCOO:
    """dense.sparse_mask(sparse): the dense values at the mask's stored places, as a sparse
    tensor with the mask's indices."""
    if not isinstance(mask, SparseCOO):
        raise TorchRuntimeError("sparse_mask expected sparse coordinate tensor layout but got "
                                "Strided")
    coo = coo_of(mask)
    if tuple(dense.shape) != tuple(mask.shape):
        raise TorchRuntimeError(f"sparse_mask(): operands have incompatible sizes; self has "
                                f"size {list(dense.shape)} but mask has size "
                                f"{list(mask.shape)}.")
    values = np.asarray(dense._data)[tuple(coo.indices)].copy()
    return sparse_tensor_of(Coo(coo.indices.copy(), values, coo.coalesced), tuple(dense.shape),
                            dense.device)


def accumulate_sparse(leaf: Tensor, new: Tensor) -> None:
    """AccumulateGrad (no create_graph) where the old .grad or the new gradient is sparse: a
    first sparse gradient is kept as it is (a shallow copy), sparse += sparse concatenates (or
    merges two coalesced), dense += sparse adds in stored order, sparse + dense is dense."""
    old = leaf._grad
    if old is None:  # (a shallow copy, or a clone where the values are not contiguous)
        coo = coo_of(new)
        leaf._grad = sparse_tensor_of(Coo(coo.indices, np.ascontiguousarray(coo.values),
                                          coo.coalesced), tuple(new.shape), leaf.device)
    elif isinstance(old, SparseCOO) and isinstance(new, SparseCOO):
        add_sparse_(old, new, 1)
    elif isinstance(new, SparseCOO):
        old._inplace_data(add_dense_sparse(old._data, coo_of(new), 1))
    else:
        leaf._grad = Tensor._make(add_dense_sparse(new._data, coo_of(old), 1), leaf.device)


def buffer_sum(previous: Any, g: Any) -> Any:
    """InputBuffer::accumulate's sum where a gradient is sparse: sparse + sparse is sparse
    (add_out_sparse_cpu, the new one first: `var + old_var`), dense + sparse dense (the dense
    one first, whichever came first)."""
    old_sparse, new_sparse = isinstance(previous, SparseCOO), isinstance(g, SparseCOO)
    if old_sparse and new_sparse:
        return sparse_tensor_of(sum_form(coo_of(g), coo_of(previous), 1, tuple(g.shape), False),
                                tuple(g.shape), g.device)
    dense, sparse = (g, previous) if old_sparse else (previous, g)
    if isinstance(dense, Tensor):
        return Tensor._make(add_dense_sparse(dense._data, coo_of(sparse), 1), dense.device)
    return add_dense_sparse(dense, coo_of(sparse), 1)


def _set_form(t: SparseCOO, coo: Coo) -> SparseCOO:
    """`t` now holds `coo` (an in-place op on a sparse tensor)."""
    make_sparse(t, coo)
    t._data = add_dense_sparse(np.zeros(t.shape, t._data.dtype), coo)
    t._inplace_written()
    return t


def add_sparse_(a: SparseCOO, b: Any, alpha: Any = 1) -> SparseCOO:
    """sparse.add_(sparse, alpha): add_out_sparse_cpu written into `a`."""
    if not isinstance(b, SparseCOO):
        raise TorchRuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                                "instead.")
    return _set_form(a, sum_form(coo_of(a), coo_of(b), alpha, tuple(a.shape), b is a))


def _scaled(coo: Coo, factor: Any) -> Coo:
    return Coo(coo.indices, coo.values * coo.values.dtype.type(factor), coo.coalesced)


def _mul_(a: SparseCOO, factor: Any) -> SparseCOO:
    """sparse.mul_(number): the values scaled."""
    if isinstance(factor, Tensor) or isinstance(factor, bool) or not isinstance(
            factor, (int, float)):
        raise TorchRuntimeError("mul_: gradsh's sparse tensors multiply by numbers only")
    return _set_form(a, _scaled(coo_of(a), factor))


def _clone(a: SparseCOO, *args: Any, **kwargs: Any) -> SparseCOO:
    coo = coo_of(a)
    return sparse_tensor_of(Coo(coo.indices.copy(), np.ascontiguousarray(coo.values).copy(),
                                coo.coalesced), tuple(a.shape), a.device)


def _detach(a: SparseCOO) -> SparseCOO:
    coo = coo_of(a)
    out = make_sparse(Tensor._make(a._data, a.device), coo)
    return out


def _neg(a: SparseCOO) -> SparseCOO:
    coo = coo_of(a)
    return sparse_tensor_of(Coo(coo.indices, -coo.values, coo.coalesced), tuple(a.shape),
                            a.device)


def _zero_(a: SparseCOO) -> SparseCOO:
    """sparse.zero_(): no entries left (nnz 0), the values' dense shape kept."""
    coo = coo_of(a)
    return _set_form(a, Coo(coo.indices[:, :0].copy(), coo.values[:0].copy(), True))


def coalesced(a: SparseCOO) -> Coo:
    """The coalesced form of a sparse tensor (its own where already coalesced)."""
    coo = coo_of(a)
    return coo if coo.coalesced else coalesced_form(coo.indices, coo.values, tuple(a.shape))


def install_sparse_grad_methods() -> None:
    """The sparse tensor methods the optimizers and programs use on a sparse .grad."""
    for name, method in {"mul_": _mul_, "add_": add_sparse_, "clone": _clone,
                         "detach": _detach, "neg": _neg, "__neg__": _neg,
                         "zero_": _zero_}.items():
        setattr(SparseCOO, name, method)
    Tensor.sparse_mask = sparse_mask  # type: ignore[attr-defined]
