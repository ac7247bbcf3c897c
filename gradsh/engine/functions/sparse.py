"""Sparse COO tensors (torch.sparse_coo) and their nodes.

A SparseCOO is a Tensor whose `_data` is the dense array it stands for (shape, dtype, device
and every value read by a dense op come from it) and which also keeps its COO form: indices
(sparse_dim, nnz) int64, values (nnz, *dense sizes), and whether they are coalesced (sorted, no
duplicate). The COO form lives in a side table keyed by the tensor (SparseCOO adds no slot, so a
node's result can become one in place). Values with dense dimensions (a hybrid tensor) are
nn.Embedding(sparse=True)'s gradient rows (ops/sparse_grad.py). Gradients flowing to a sparse
tensor are dense arrays of its shape: the node that made it (sparse_coo_tensor, to_sparse,
coalesce ...) reads them where its entries are.

sparse @ dense is ATen's kernel (s_addmm_out_sparse_dense_worker): the result rows start at
zero and each stored entry, in stored order, adds value * dense row to its row (BLAS axpy).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import _quiet, fma64
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import stdsort
from gradsh.engine.vecmath.fp import fma32

__all__ = [
    "SparseCOO", "SparseCooTensorWithDimsAndTensorsBackward0", "ToDenseBackward0",
    "ToSparseBackward0", "CoalesceBackward0", "ValuesBackward0", "SparseMmBackward",
    "SparseSumBackward0", "SparseFullSumBackward", "SparseScaleBackward", "SparseTBackward",
    "SparseAddBackward",
    "coo_of", "make_sparse", "coalesced_form", "sparse_dense_product", "sum_form", "densify",
]


@dataclass
class Coo:
    """The COO form of a sparse tensor."""

    indices: Array  # (sparse_dim, nnz) int64
    values: Array  # (nnz, *dense sizes)
    coalesced: bool
    # whether the values tensor is contiguous (ATen takes other paths for one that is not: an
    # embedding's gradient rows reshaped from an expanded gradient are not)
    contiguous: bool = True


_COO: dict[int, tuple[weakref.ref[Any], Coo]] = {}


class SparseCOO(Tensor):
    """A sparse COO tensor: a Tensor (its dense array in `_data`) with a COO form."""

    __slots__ = ()


def coo_of(t: Tensor) -> Coo:
    entry = _COO[id(t)]
    return entry[1]


def _forget(key: int, ref: weakref.ref[Any]) -> None:
    entry = _COO.get(key)
    if entry is not None and entry[0] is ref:
        del _COO[key]


def make_sparse(t: Tensor, coo: Coo) -> SparseCOO:
    """`t` (a node's result, its `_data` the dense array) as a SparseCOO with `coo`."""
    t.__class__ = SparseCOO
    key = id(t)
    _COO[key] = (weakref.ref(t, lambda ref, key=key: _forget(key, ref)), coo)
    return t  # type: ignore[return-value]


def densify(indices: Array, values: Array, shape: tuple[int, ...]) -> Array:
    """The dense array of a COO form (duplicates summed, in stored order)."""
    dense = np.zeros(shape, dtype=values.dtype)
    if indices.shape[1]:
        np.add.at(dense, tuple(indices), values)
    return dense


def coalesced_form(indices: Array, values: Array, shape: tuple[int, ...]) -> Coo:
    """Sorted by linear index, duplicates summed one after another in stored order (ATen's
    coalesce)."""
    if indices.shape[1] == 0:
        return Coo(indices.copy(), values.copy(), True)
    sparse_shape = shape[:indices.shape[0]]
    linear = np.ravel_multi_index(tuple(indices), sparse_shape)
    # ATen sorts the linear indices with at::sort: radix sort (stable) from 32768 entries,
    # std::sort (unstable: it decides the order duplicates are summed in) below
    order = np.argsort(linear, kind="stable") if len(linear) >= 32768 else std_sort(linear)
    keys, starts = np.unique(linear[order], return_index=True)
    ends = np.append(starts[1:], len(order))
    summed = values[order[starts]].copy()
    for k in np.nonzero(ends - starts > 1)[0]:
        acc = summed[k]
        for j in range(starts[k] + 1, ends[k]):
            acc = acc + values[order[j]]
        summed[k] = acc
    new_indices = np.array(np.unravel_index(keys, sparse_shape), dtype=np.int64).reshape(
        len(sparse_shape), len(keys))
    return Coo(new_indices, summed, True)


def sum_form(left: Coo, right: Coo, alpha: Any, shape: tuple[int, ...], same: bool) -> Coo:
    """The COO form of sparse + alpha * sparse, as ATen's add_out_sparse_contiguous: one walk
    through both entry lists, as a merge of sorted lists would (an entry of `left` whose index
    is smaller goes first; equal indices share one entry, left's values plus alpha times
    right's: BLAS axpy), so uncoalesced operands are walked as stored; coalesced when both are.
    The same tensor twice: its values times 1 + alpha, its indices as they are."""
    dtype = np.result_type(left.values, right.values)
    if same:
        return Coo(left.indices, left.values * dtype.type(1 + alpha), left.coalesced)
    if right.indices.shape[1] == 0:
        return Coo(left.indices, left.values.astype(dtype), left.coalesced)
    if left.indices.shape[1] == 0:
        return Coo(right.indices, right.values.astype(dtype) * dtype.type(alpha),
                   right.coalesced)
    if not (left.contiguous and right.contiguous):
        return _concatenated_sum(left, right, alpha, shape, dtype)
    t_keys = [tuple(column) for column in left.indices.T.tolist()]
    s_keys = [tuple(column) for column in right.indices.T.tolist()]
    t_of, s_of, keys = [], [], []
    t_i = s_i = 0
    while t_i < len(t_keys) or s_i < len(s_keys):
        if t_i >= len(t_keys):
            cmp = -1
        elif s_i >= len(s_keys):
            cmp = 1
        else:
            cmp = (t_keys[t_i] < s_keys[s_i]) - (t_keys[t_i] > s_keys[s_i])
        t_of.append(t_i if cmp >= 0 else -1)
        s_of.append(s_i if cmp <= 0 else -1)
        keys.append(t_keys[t_i] if cmp >= 0 else s_keys[s_i])
        t_i += cmp >= 0
        s_i += cmp <= 0
    t_at, s_at = np.array(t_of), np.array(s_of)
    values = np.zeros((len(keys),) + left.values.shape[1:], dtype=dtype)
    fused = fma32 if dtype == np.float32 else fma64 if dtype == np.float64 else None
    with _quiet():
        for at, source, scale in ((t_at, left.values, 1), (s_at, right.values, alpha)):
            rows = np.nonzero(at >= 0)[0]
            taken = source[at[rows]].astype(dtype)
            factor = dtype.type(scale)
            values[rows] = fused(taken, np.full_like(taken, factor), values[rows]) \
                if fused is not None else values[rows] + taken * factor
    indices = np.array(keys, dtype=np.int64).T.reshape(left.indices.shape[0], len(keys))
    return Coo(indices, values, left.coalesced and right.coalesced)


def _concatenated_sum(left: Coo, right: Coo, alpha: Any, shape: tuple[int, ...],
                      dtype: Any) -> Coo:
    """add_out_sparse_non_contiguous: the entries of both concatenated (right's values times
    alpha), coalesced only where there are more entries than elements."""
    scaled = right.values.astype(dtype) * dtype.type(alpha) if alpha != 1 else \
        right.values.astype(dtype)
    indices = np.concatenate([left.indices, right.indices], axis=1)
    values = np.concatenate([left.values.astype(dtype), scaled])
    if indices.shape[1] > int(np.prod(shape)):
        form = coalesced_form(indices, values, shape)
        indices, values = form.indices, form.values
    return Coo(indices, values, indices.shape[1] < 2)


def std_sort(keys: Array) -> Array:
    """The permutation libstdc++'s std::sort leaves, comparing keys only, as ATen's CPU sort
    does (vecmath/stdsort.py)."""
    return np.array(stdsort.plain_order([int(k) for k in keys]), np.int64)


class SparseCooTensorWithDimsAndTensorsBackward0(Function):
    """torch.sparse_coo_tensor(indices, values, size): the gradient of values is the incoming
    gradient at each entry's position."""

    node_name = "SparseCooTensorWithDimsAndTensorsBackward0"

    def forward(self, values: Tensor, indices: Array, shape: tuple[int, ...]) -> Array:
        self.indices = indices
        return densify(indices, values._data, shape)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.index(grad, tuple(self.indices)),)


class ToSparseBackward0(Function):
    """dense.to_sparse(): the same values; the gradient is the dense gradient, as it is."""

    node_name = "ToSparseBackward0"

    def forward(self, a: Tensor) -> Array:
        return a._data.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class ToDenseBackward0(ToSparseBackward0):
    node_name = "ToDenseBackward0"


class CoalesceBackward0(ToSparseBackward0):
    node_name = "CoalesceBackward0"


class ValuesBackward0(Function):
    """sparse.values(): the stored values; their gradient goes back to their positions."""

    node_name = "ValuesBackward0"

    def forward(self, a: Tensor) -> Array:
        coo = coo_of(a)
        self.indices, self.shape = coo.indices, tuple(a.shape)
        return coo.values.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.index_put_acc(grad, self.shape, tuple(self.indices)),)


def sparse_dense_product(coo: Coo, rows: int, dense: Array) -> Array:
    """s_addmm_out_sparse_dense_worker with beta 0, alpha 1: out starts at zero; each entry in
    stored order adds value * dense[col] to out[row] with one rounding (BLAS axpy's fused
    multiply-add). Entries of different rows are independent: the k-th entries of every row
    are added together."""
    dtype = np.result_type(coo.values, dense)
    out = np.zeros((rows,) + dense.shape[1:], dtype=dtype)
    row_of, col_of = coo.indices
    if not len(row_of):
        return out
    order = np.argsort(row_of, kind="stable")
    sorted_rows = row_of[order]
    starts = np.searchsorted(sorted_rows, sorted_rows, side="left")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - starts  # (each entry's place among its row's)
    values = coo.values.astype(dtype)
    fused = fma32 if dtype == np.float32 else fma64
    with _quiet():
        for k in range(int(rank.max()) + 1):
            chosen = np.nonzero(rank == k)[0]
            rows_k = row_of[chosen]
            out[rows_k] = fused(values[chosen][:, None], dense[col_of[chosen]], out[rows_k])
    return out


class SparseMmBackward(Function):
    """sparse @ dense (torch.sparse.mm: SparseAddmmBackward0; mm, matmul, @: MmBackward0)."""

    node_name = "MmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        coo = coo_of(a)
        if self.needs_input_grad[1]:
            self.transposed = Coo(coo.indices[::-1].copy(), coo.values, False)
            self.cols = a.shape[1]
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        return sparse_dense_product(coo, a.shape[0], b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        ga = gb = None
        if self.needs_input_grad[0]:
            ga = F.mm(grad, F.t(self.saved("mat2", F)))
        if self.needs_input_grad[1]:
            array = grad if not F.as_tensor else grad._data
            gb = sparse_dense_product(self.transposed, self.cols, array)
            if F.as_tensor:
                gb = Tensor._make(gb, grad.device)
        return ga, gb


class SparseAddmmBackward0(SparseMmBackward):
    node_name = "SparseAddmmBackward0"


class SparseFullSumBackward(Function):
    """torch.sparse.sum(s): the sum of the coalesced values, a dense 0-d tensor."""

    node_name = "SumBackward0"

    def forward(self, a: Tensor) -> Array:
        coo = coo_of(a)
        form = coo if coo.coalesced else coalesced_form(coo.indices, coo.values, a.shape)
        self.shape = tuple(a.shape)
        return np.asarray(torch_sum(form.values, None, False, form.values.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(grad, self.shape),)


class SparseSumBackward0(Function):
    """torch.sparse.sum(s, dim): the sum over `dims`, a sparse tensor."""

    node_name = "SparseSumBackward0"

    def forward(self, a: Tensor, dims: tuple[int, ...], form: Coo | None,
                dense: Array | None = None) -> Array:
        self.dims, self.shape = dims, tuple(a.shape)
        if form is None:  # every sparse dimension summed: the dense result itself
            return dense  # type: ignore[return-value]
        kept = tuple(n for d, n in enumerate(a.shape) if d not in dims)
        return densify(form.indices, form.values, kept)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(F.unsqueeze_dims(grad, self.dims, len(self.shape)), self.shape),)


class SparseScaleBackward(Function):
    """sparse * number: the values scaled (MulBackward0)."""

    node_name = "MulBackward0"

    def forward(self, a: Tensor, factor: Any) -> Array:
        self.factor = factor
        return a._data * np.asarray(factor, dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * self.factor,)


class SparseAddBackward(Function):
    """sparse + sparse (AddBackward0)."""

    node_name = "AddBackward0"

    def forward(self, a: Tensor, b: Tensor, alpha: Any) -> Array:
        self.alpha = alpha
        return a._data + b._data * np.asarray(alpha, dtype=b._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class SparseTBackward(Function):
    """sparse.t(): the indices' rows swapped (TBackward0)."""

    node_name = "TBackward0"

    def forward(self, a: Tensor) -> Array:
        return a._data.T.copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.t(grad),)
