"""Nodes of indexing: a[key], a[key] = v, gather, scatter, index_select, take ..."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import c_order, infer_size, laid_out, xp_of
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = [
    "IndexBackward0", "IndexPutBackward0", "GatherBackward0", "IndexSelectBackward0",
    "MaskedSelectBackward0", "TakeBackward0", "IndexFillBackward0", "ScatterBackward0",
    "ScatterBackward1", "ScatterAddBackward0", "IndexAddBackward0", "IndexFillBackward1",
    "IndexCopyBackward0", "MaskedScatterBackward0", "ScatterReduceNotImplemented",
    "ScatterReduceBackward0",
]


class IndexBackward0(Function):
    """Advanced indexing: `key` is a NumPy key of slices and int64 arrays; `indices` are the
    index tensors PyTorch saves (so the node cannot be backpropagated twice)."""

    node_name = "IndexBackward0"

    def forward(self, a: Tensor, key: tuple[Any, ...], indices: Sequence[Tensor]) -> Array:
        self.self_sizes = a.shape
        self.key = key
        for i, t in enumerate(indices):
            self.save(f"indices{i}" if i else "indices", t)
        out = a._data[key]
        if a._data.flags.c_contiguous:  # ATen's result is then row-major, NumPy's may not be
            return xp_of(out).ascontiguousarray(out)
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        for name in self._saved:
            self.saved(name, F)  # raises if freed or modified, as PyTorch does
        return (F.index_put_acc(grad, self.self_sizes, self.key),)


class IndexPutBackward0(Function):
    """`t[advanced] = values` (index_put_): self keeps the gradient outside the indexed
    positions, values receive the gradient at them."""

    node_name = "IndexPutBackward0"

    def forward(self, a: Tensor, values: Tensor, key: tuple[Any, ...],
                indices: Sequence[Tensor], accumulate: bool = False) -> Array:
        self.key, self.accumulate = key, accumulate
        for i, t in enumerate(indices):
            self.save(f"indices{i}" if i else "indices", t)
        out = a._data.copy()
        target_shape = out[key].shape
        v = values._data
        try:
            infer_size(target_shape, v.shape)
            v = xp_of(v).broadcast_to(v, target_shape) if v.shape != target_shape else v
        except TorchRuntimeError:
            raise TorchRuntimeError(
                f"shape mismatch: value tensor of shape [{', '.join(map(str, values.shape))}] "
                f"cannot be broadcast to indexing result of shape "
                f"[{', '.join(map(str, target_shape))}]"
            ) from None
        v = v.astype(out.dtype, copy=False)
        if accumulate:
            xp_of(out).add.at(out, key, v)
        else:
            out[key] = v
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        for name in self._saved:
            self.saved(name, F)
        g_self = g_values = None
        if a:
            g_self = grad if self.accumulate else F.index_fill_zero(grad, self.key)
        if b:
            g_values = F.index(grad, self.key)
        return g_self, g_values


def _gather_index(x: Array, index: Array, dim: int) -> tuple[Any, ...]:
    """The part of x that `index` addresses outside `dim` (gather allows a smaller index)."""
    return tuple(slice(None) if d == dim else slice(0, index.shape[d]) for d in range(x.ndim))


class GatherBackward0(Function):
    node_name = "GatherBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index, self.shape = dim, index._data, a.shape
        self.save("index", index)  # saved as PyTorch saves it: freed after a backward
        x = a._data
        if x.ndim == 0:
            return x[()] if index._data.ndim == 0 else x.reshape(1)[index._data]
        if index._data.ndim == 0:  # a 0-d index into a vector: one element, 0-d
            return x[index._data]
        part = x[_gather_index(x, index._data, dim)]
        return c_order(xp_of(x).take_along_axis(part, index._data, axis=dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def scatter_add(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            if not self.shape:
                return out + g.sum()
            if self.index.ndim == 0:
                xp.add.at(out, (self.index,), g)
                return out
            grid = list(xp.indices(self.index.shape, sparse=True))
            grid[self.dim] = self.index
            xp.add.at(out, tuple(grid), g)
            return out

        if F.as_tensor and self.shape and self.index.ndim:
            # gather_backward: zeros.scatter_add(dim, index, grad), recorded
            return (ScatterAddBackward0.apply(F.zeros(tuple(self.shape), grad), grad,
                                              dim=self.dim, index=self.saved("index", F)),)
        return (F.detached(scatter_add, grad),)


class IndexSelectBackward0(Function):
    node_name = "IndexSelectBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index, self.shape = dim, index._data.reshape(-1), a.shape
        self.save("index", index)  # saved as PyTorch saves it: freed after a backward
        x = a._data
        if x.ndim == 0:
            return x.reshape(1)[self.index].reshape(index._data.shape)
        return xp_of(x).take(x, self.index, axis=dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def index_add(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            if not self.shape:
                return out + g.sum()
            moved = xp.moveaxis(out, self.dim, 0)
            xp.add.at(moved, self.index, xp.moveaxis(g, self.dim, 0))
            return out

        return (F.detached(index_add, grad),)


class MaskedSelectBackward0(Function):
    node_name = "MaskedSelectBackward0"

    def forward(self, a: Tensor, mask: Tensor) -> Array:
        shape = np.broadcast_shapes(a.shape, mask.shape)
        self.shape, self.input_shape = shape, a.shape
        self.save("mask", mask)
        xp = xp_of(a._data)
        return xp.broadcast_to(a._data, shape)[xp.broadcast_to(mask._data, shape)]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        mask = self.saved("mask", F)

        def scatter(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            out[xp.broadcast_to(F.as_array(mask), self.shape)] = g
            return out

        return (F.detached(scatter, grad),)


def _scatter_array(base: Array, dim: int, index: Array, src: Any, add: bool = False,
                   multiply: bool = False) -> Array:
    """A copy of base with src written (or added, or multiplied in) at index along dim
    (scatter / scatter_add / scatter's reduce); index may be smaller than base and src outside
    dim."""
    xp = xp_of(base)
    if base.ndim == 0 or index.ndim == 0:
        # PyTorch reads a 0-d self or index as one element along dim 0
        flat = _scatter_array(base.reshape(-1), 0, index.reshape(-1),
                              src if xp.ndim(src) == 0 else src.reshape(-1), add, multiply)
        return flat.reshape(base.shape)
    out = base.copy()
    if index.size == 0:  # nothing is written (and src's shape is not read)
        return out
    grid = list(xp.indices(index.shape, sparse=True))
    grid[dim] = index
    values = src if xp.ndim(src) == 0 else src[tuple(slice(0, n) for n in index.shape)]
    if add:
        xp.add.at(out, tuple(grid), values)
    elif multiply:
        xp.multiply.at(out, tuple(grid), values)
    else:
        out[tuple(grid)] = values
    return out


def _index_fill_array(base: Array, dim: int, index: Array, value: Any) -> Array:
    out = base.copy()
    out[(slice(None),) * dim + (index,)] = value
    return out


class TakeBackward0(Function):
    node_name = "TakeBackward0"

    def forward(self, a: Tensor, index: Tensor) -> Array:
        self.save("index", index)
        self.shape = a.shape
        return a._data.reshape(-1)[index._data]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        def put(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(int(np.prod(self.shape, dtype=np.int64)), dtype=g.dtype)
            xp.add.at(out, F.as_array(self.saved("index", F)).reshape(-1), g.reshape(-1))
            return out.reshape(self.shape)

        return (F.detached(put, grad),)


class IndexFillBackward0(Function):
    node_name = "IndexFillBackward0"

    def forward(self, a: Tensor, dim: int, index: Tensor, value: Any) -> Array:
        self.dim, self.index = dim, index._data
        return _index_fill_array(a._data, dim, index._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.detached(lambda g: _index_fill_array(g, self.dim, self.index, 0), grad),)


class IndexFillBackward1(Function):
    """index_fill(dim, index, value) with a 0-d tensor value, which receives the gradient of
    every filled position."""

    operand_overlap_check = False  # (ATen reads the value first: no overlap check)

    node_name = "IndexFillBackward1"

    def forward(self, a: Tensor, value: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        return _index_fill_array(a._data, dim, index._data, value._data.reshape(()))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_value = self.needs_input_grad
        g_self = F.detached(lambda g: _index_fill_array(g, self.dim, self.index, 0),
                            grad) if need_self else None
        g_value = None
        if need_value:
            g_value = F.sum(F.index_select(grad, self.dim, self.saved("index", F)), None, False)
        return (g_self, g_value)


class IndexCopyBackward0(Function):
    """index_copy(dim, index, source): source's slices replace self's at index along dim."""

    node_name = "IndexCopyBackward0"

    def forward(self, a: Tensor, source: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        xp = xp_of(a._data)
        out = a._data.copy()
        if out.ndim == 0:
            out[...] = source._data.reshape(())
            return out
        xp.moveaxis(out, dim, 0)[index._data.reshape(-1)] = xp.moveaxis(
            source._data.reshape(source.shape or (1,)), dim if source.ndim else 0, 0)
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_source = self.needs_input_grad
        g_self = F.detached(lambda g: _index_fill_array(g, self.dim, self.index, 0),
                            grad) if need_self else None
        g_source = F.index_select(grad, self.dim, self.saved("index", F)) if need_source else None
        return (g_self, g_source)


class MaskedScatterBackward0(Function):
    """masked_scatter(mask, source): the masked positions, in order, take source's first
    elements."""

    operand_overlap_check = False  # (ATen checks no overlap with the source)

    node_name = "MaskedScatterBackward0"

    def forward(self, a: Tensor, source: Tensor, mask: Tensor) -> Array:
        xp = xp_of(a._data)
        self.mask = xp.broadcast_to(mask._data, a.shape)
        self.source_shape = source.shape
        self.save("mask", mask)
        count = int(self.mask.sum())
        if count > source.numel():
            raise TorchRuntimeError("Number of elements of source < number of ones in mask")
        out = a._data.copy()
        out[self.mask] = source._data.reshape(-1)[:count].astype(out.dtype, copy=False)
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_source = self.needs_input_grad
        self.saved("mask", F)  # raises if freed, as PyTorch's saved mask does
        mask = self.mask

        def source_grad(g: Array) -> Array:
            xp = xp_of(g)
            flat = xp.zeros(int(np.prod(self.source_shape, dtype=np.int64)), dtype=g.dtype)
            picked = g[mask]
            flat[:picked.size] = picked
            return flat.reshape(self.source_shape)

        g_self = F.detached(lambda g: xp_of(g).where(mask, 0, g).astype(g.dtype),
                            grad) if need_self else None
        return (g_self, F.detached(source_grad, grad) if need_source else None)


class ScatterBackward0(Function):
    """scatter(dim, index, src): self gets zeros where written; src gets the gathered grad."""

    node_name = "ScatterBackward0"

    def forward(self, a: Tensor, src: Tensor, dim: int, index: Tensor) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, src._data.astype(a._data.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        index = self.saved("index", F)
        g_self = _scatter_zero(F, grad, self.dim, index, self.index) if need_self else None
        g_src = F.gather(grad, self.dim, index) if need_src else None
        return (g_self, g_src)


class ScatterBackward1(Function):
    """scatter(dim, index, value) with a number."""

    node_name = "ScatterBackward1"

    def forward(self, a: Tensor, dim: int, index: Tensor, value: Any) -> Array:
        self.dim, self.index = dim, index._data
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_scatter_zero(F, grad, self.dim, self.saved("index", F), self.index),)


class ScatterReduceNotImplemented(Function):
    """scatter(dim, index, src or value, reduce="add" | "multiply"), which PyTorch gives no
    derivative: a NotImplemented node with an edge per operand that requires grad (the
    inputs), raising when backward reaches it; `a` and `src` are the operands themselves."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, *inputs: Tensor, a: Tensor, dim: int, index: Tensor, src: Any,
                reduce: str) -> Array:
        values = src._data if isinstance(src, Tensor) else src
        return _scatter_array(a._data, dim, index._data, values, add=reduce == "add",
                              multiply=reduce == "multiply")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::scatter is not implemented")


class ScatterAddBackward0(Function):
    node_name = "ScatterAddBackward0"

    def forward(self, a: Tensor, src: Tensor, dim: int, index: Tensor) -> Array:
        self.dim = dim
        self.save("index", index)
        return _scatter_array(a._data, dim, index._data, src._data.astype(a._data.dtype),
                              add=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        g_src = F.gather(grad, self.dim, self.saved("index", F)) if need_src else None
        return (grad if need_self else None, g_src)


_REDUCE_UFUNC = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum",
                 "amin": "minimum"}


def _reduce_identity(reduce: str, dtype: Any) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    xp_info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return xp_info.min if reduce == "amax" else xp_info.max


def _scatter_reduce_array(base: Array, values: Array, index: Array, dim: int, reduce: str,
                          include_self: bool) -> Array:
    """scatter_reduce on arrays: each value folded into base at its index, in index order as
    ATen's CPU loop does; without include_self the written places start from the identity."""
    xp = xp_of(base)
    grid = list(xp.indices(index.shape, sparse=True))
    grid[dim] = index
    taken = values.astype(base.dtype)[tuple(slice(0, n) for n in index.shape)]
    out = base.copy()
    if not include_self:
        out[tuple(grid)] = _reduce_identity(reduce, base.dtype)
    getattr(xp, _REDUCE_UFUNC[reduce]).at(out, tuple(grid), taken)
    if reduce == "mean":
        counts = _mean_counts(base.shape, index, dim, include_self, xp)
        if np.issubdtype(base.dtype, np.floating):
            out = (out / counts).astype(base.dtype)
        else:
            out = xp.floor_divide(out, counts).astype(base.dtype)
    return out


def _mean_counts(shape: Sequence[int], index: Array, dim: int, include_self: bool,
                 xp: Any) -> Array:
    grid = list(xp.indices(index.shape, sparse=True))
    grid[dim] = index
    counts = xp.full(tuple(shape), 1 if include_self else 0, dtype=np.int64)
    xp.add.at(counts, tuple(grid), 1)
    counts[counts == 0] = 1
    return counts


class ScatterReduceBackward0(Function):
    """scatter_reduce(dim, index, src, reduce, include_self): _scatter_reduce_array. The
    gradients are PyTorch's scatter_reduce_backward, written with F so that they are recorded
    under create_graph (amax / amin share the gradient among equal maxima; prod handles the
    zeros as PyTorch does)."""

    node_name = "ScatterReduceBackward0"

    def forward(self, a: Tensor, src: Tensor, dim: int, index: Tensor, reduce: str,
                include_self: bool) -> Array:
        self.dim, self.reduce, self.include_self = dim, reduce, include_self
        self.index = index._data
        if any(self.needs_input_grad):
            self.save("self", a)
            self.save("src", src)
            self.save("index", index)
            self.save("result", RESULT)
        return _scatter_reduce_array(a._data, src._data, index._data, dim, reduce,
                                     include_self)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        x, src = self.saved("self", F), self.saved("src", F)
        result, index = self.saved("result", F), self.saved("index", F)
        dim, reduce = self.dim, self.reduce
        plain = F.as_array(x) if not F.as_tensor else x._data
        src_plain = F.as_array(src) if not F.as_tensor else src._data
        rows = tuple(slice(0, n) for n in self.index.shape)
        if src_plain.shape != self.index.shape:  # (a src larger than index: its used part)
            src = F.index(src, rows)
            src_plain = src_plain[rows]

        def const(array: Array) -> Any:
            return Tensor._make(array, grad.device) if F.as_tensor else array

        def again(base: Any, values: Any) -> Any:  # scatter_reduce, recorded when tensors
            if F.as_tensor:
                return ScatterReduceBackward0.apply(base, values, dim=dim, index=index,
                                                    reduce=reduce,
                                                    include_self=self.include_self)
            return _scatter_reduce_array(base, values, self.index, dim, reduce,
                                         self.include_self)

        xp = xp_of(plain)
        dtype = plain.dtype
        if reduce == "sum":
            g_self, g_src = grad, F.gather(grad, dim, index)
        elif reduce == "mean":
            counts = const(_mean_counts(plain.shape, self.index, dim, self.include_self,
                                        xp).astype(dtype))
            g_self = grad / counts
            g_src = F.gather(grad, dim, index) / F.gather(counts, dim, index)
        elif reduce == "prod":
            masked_self = F.masked_fill(x, const(plain == 0), 1)
            g_self = grad * again(masked_self, src) / masked_self
            src_zero = src_plain == 0
            zeros = _scatter_array(xp.zeros_like(plain), dim, self.index,
                                   src_zero.astype(dtype), add=True)
            single = src_zero & (_gather_array(zeros, dim, self.index) == 1)
            masked_src = F.masked_fill(src, const(single), 1)
            g_src = F.where(const(single), F.gather(grad * again(x, masked_src), dim, index),
                            F.gather(grad * result, dim, index)
                            / F.masked_fill(src, const(src_zero), 1))
        else:  # amax / amin
            result_plain = result._data if F.as_tensor else result
            value = _gather_array(result_plain, dim, self.index)
            self_is = (plain == result_plain).astype(dtype)
            src_is = (src_plain == value).astype(dtype)
            shares = _scatter_array(self_is, dim, self.index, src_is, add=True)
            spread = grad / const(shares)
            g_self = const(self_is) * spread
            g_src = const(src_is) * F.gather(spread, dim, index)
        if not self.include_self and need_self:
            g_self = _scatter_zero(F, g_self, dim, index, self.index)
        return (g_self if need_self else None), (g_src if need_src else None)


def _gather_array(x: Array, dim: int, index: Array) -> Array:
    return xp_of(x).take_along_axis(x[_gather_index(x, index, dim)], index, axis=dim)


def _scatter_zero(F: Any, g: Any, dim: int, index: Any, index_array: Array) -> Any:
    """g.scatter(dim, index, 0): ScatterBackward1 when recorded."""
    if F.as_tensor:
        return ScatterBackward1.apply(g, dim=dim, index=index, value=0)
    return _scatter_array(g, dim, index_array, 0)


class IndexAddBackward0(Function):
    node_name = "IndexAddBackward0"

    def forward(self, a: Tensor, source: Tensor, dim: int, index: Tensor, alpha: Any) -> Array:
        self.dim, self.alpha, self.source_shape = dim, alpha, tuple(source.shape)
        self.save("index", index)
        xp = xp_of(a._data)
        out = a._data.copy()
        src = source._data.astype(a._data.dtype) * alpha if alpha != 1 else source._data
        moved = xp.moveaxis(out, dim, 0)
        xp.add.at(moved, index._data.reshape(-1), xp.moveaxis(src.reshape(
            source.shape if source.ndim else (1,)), dim if source.ndim else 0, 0))
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_self, need_src = self.needs_input_grad
        g_src = None
        if need_src:
            g_src = F.index_select(grad, self.dim, self.saved("index", F))
            g_src = F.expand(g_src, self.source_shape)  # (expand_as(source), as PyTorch's)
            g_src = g_src if self.alpha == 1 else g_src * self.alpha
        return (grad if need_self else None, g_src)


# index_put and index_fill write into self.clone(preserve_format): a dense input's strides
for _cls in (IndexPutBackward0, IndexFillBackward0, IndexFillBackward1):
    laid_out("preserve")(_cls)
