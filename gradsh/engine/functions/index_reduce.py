"""IndexReduceBackward0: Tensor.index_reduce (prod, mean, amax, amin of the source rows sent to
each indexed position, with or without the position's own value) and ATen's
index_reduce_backward, on arrays (its double backward is not implemented)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["IndexReduceBackward0", "index_reduce_array"]

_IDENTITY = {"prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf}
_UFUNC = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def _moved(array: Array, dim: int) -> Array:
    return np.moveaxis(array, dim, 0)


def index_reduce_array(base: Array, dim: int, index: Array, source: Array, reduce: str,
                       include_self: bool) -> Array:
    """ATen's CPU kernel: each source slice in turn combined into its indexed slice (which
    starts from the reduction's identity without include_self); mean divides by the count."""
    out = base.copy()
    view, src = _moved(out, dim), _moved(source, dim)
    dtype = out.dtype
    with _quiet():
        if not include_self:
            identity = _IDENTITY[reduce]
            if dtype.kind in "iu" and reduce in ("amax", "amin"):
                info = np.iinfo(dtype)
                identity = info.min if reduce == "amax" else info.max
            view[index] = identity
        _UFUNC[reduce].at(view, index, src)
        if reduce == "mean":
            counts = np.full(view.shape[0], 1 if include_self else 0, dtype=np.int64)
            np.add.at(counts, index, 1)
            counts[counts == 0] = 1
            shaped = counts.reshape((-1,) + (1,) * (view.ndim - 1)).astype(dtype)
            view[...] = view // shaped if dtype.kind in "iu" else view / shaped
    return out


class IndexReduceBackward0(Function):
    node_name = "IndexReduceBackward0"

    def forward(self, a: Tensor, source: Tensor, dim: int, index: Array, reduce: str,
                include_self: bool) -> Array:
        self.dim, self.index, self.reduce, self.include_self = dim, index, reduce, include_self
        out = index_reduce_array(a._data, dim, index, source._data, reduce, include_self)
        if any(self.needs_input_grad):
            self.self_data, self.source_data, self.result_data = a._data.copy(), \
                source._data.copy(), out
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "index_reduce")
        with _quiet():
            grad_self, grad_src = self._grads(grad)
        need_self, need_src = self.needs_input_grad
        return (grad_self if need_self else None), (grad_src if need_src else None)

    def _select(self, array: Array) -> Array:
        return np.take(array, self.index, axis=self.dim)

    def _index_add(self, base: Array, values: Array) -> Array:
        out = base.copy()
        np.add.at(_moved(out, self.dim), self.index, _moved(values, self.dim))
        return out

    def _grads(self, grad: Array) -> tuple[Array, Array]:
        x, src, result, dim = self.self_data, self.source_data, self.result_data, self.dim
        t = x.dtype.type
        if self.reduce == "prod":
            masked_self = np.where(x == 0, t(1), x)
            masked_result = index_reduce_array(masked_self, dim, self.index, src, "prod",
                                               self.include_self)
            grad_self = grad * masked_result / masked_self
            src_zero = src == 0
            zeros = self._index_add(np.zeros_like(x), src_zero.astype(x.dtype))
            single = src_zero & (self._select(zeros) == 1)
            masked_src = np.where(single, t(1), src)
            masked_src_result = index_reduce_array(x, dim, self.index, masked_src, "prod",
                                                   self.include_self)
            grad_src = np.where(single, self._select(grad * masked_src_result),
                                self._select(grad * result) / np.where(src_zero, t(1), src))
        elif self.reduce == "mean":
            n = np.ones_like(grad) if self.include_self else np.zeros_like(grad)
            n = self._index_add(n, np.ones_like(src))
            n = np.where(n == 0, t(1), n)
            grad_self = grad / n
            grad_src = self._select(grad) / self._select(n)
        else:
            value = self._select(result)
            self_is = (x == result).astype(x.dtype)
            source_is = (src == value).astype(x.dtype)
            distributed = grad / self._index_add(self_is, source_is)
            grad_self = self_is * distributed
            grad_src = source_is * self._select(distributed)
        if not self.include_self:
            grad_self = grad_self.copy()
            _moved(grad_self, dim)[self.index] = 0
        return grad_self, grad_src
