"""The nodes of embedding lookups: EmbeddingBackward0 and EmbeddingBagBackward0."""

from __future__ import annotations

from typing import Any

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["EmbeddingBackward0", "EmbeddingBagBackward0"]


class EmbeddingBackward0(Function):
    """weight[indices]; the gradient of each row is the sum of the gradients of its lookups
    (nothing for padding_idx, divided by the lookup count with scale_grad_by_freq)."""

    node_name = "EmbeddingBackward0"

    def forward(self, weight: Tensor, indices: Tensor, padding_idx: int,
                scale_grad_by_freq: bool, sparse: bool = False) -> Array:
        self.save("indices", indices)
        self.sparse = sparse
        self.num_weights = weight.shape[0]
        self.padding_idx = padding_idx
        self.scale_grad_by_freq = scale_grad_by_freq
        return xp_of(weight._data).take(weight._data, indices._data, axis=0)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        flat = F.as_array(self.saved("indices", F)).reshape(-1)
        if self.sparse:  # a sparse COO gradient (embedding_sparse_backward)
            from gradsh.engine.ops.sparse_grad import embedding_sparse_grad

            return (embedding_sparse_grad(flat, F.as_array(grad), self.num_weights,
                                          self.padding_idx, self.scale_grad_by_freq,
                                          self.output_device),)
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


def bag_ids(offsets: Array, count: int, bags: int) -> Array:
    """The bag each of `count` lookups falls in (bag b holds offsets[b] .. offsets[b+1])."""
    xp = xp_of(offsets)
    marks = xp.zeros(count + 1, dtype=xp.int64)
    starts = offsets[1:bags] if bags > 1 else offsets[:0]
    xp.add.at(marks, xp.clip(starts, 0, count), 1)
    return xp.cumsum(marks)[:count]


def _frequency_divisors(indices: Array, num_weights: int) -> Array:
    """scale_grad_by_freq's divisor of each lookup as ATen's embedding_bag backward computes it:
    counts[sorted[u]], u the rank of the lookup's index among the distinct indices (its loop
    reads indices_data[i] with the group number i, not the group's own index)."""
    xp = xp_of(indices)
    counts = xp.bincount(indices, minlength=num_weights)
    ordered = xp.sort(indices)
    distinct = xp.unique(indices)
    rank = xp.searchsorted(distinct, indices)
    return counts[ordered[rank]].astype(xp.float64)


class EmbeddingBagBackward0(Function):
    """Sum, mean or max of the weight rows of each bag (padding_idx lookups left out, an empty
    bag 0); per_sample_weights scale each row (sum mode)."""

    node_name = "EmbeddingBagBackward0"

    def forward(self, weight: Tensor, *per_sample: Tensor, indices: Array, offsets: Array,
                mode: int, padding_idx: int, scale_grad_by_freq: bool,
                sparse: bool = False) -> Array:
        w = weight._data
        self.sparse, self.padding_idx = sparse, padding_idx
        xp = xp_of(w)
        bags = offsets.shape[0]
        ids = bag_ids(offsets, indices.shape[0], bags)
        keep = indices != padding_idx
        self.indices, self.ids, self.keep, self.mode = indices, ids, keep, mode
        self.num_weights, self.bags = w.shape[0], bags
        self.scale_grad_by_freq = scale_grad_by_freq
        rows = w[indices]
        if per_sample:
            self.save("per_sample_weights", per_sample[0])
            self.rows = rows
            rows = rows * per_sample[0]._data[:, None]
        out = xp.zeros((bags, w.shape[1]), dtype=w.dtype)
        self.counts = xp.bincount(ids[keep], minlength=bags)
        if mode == 2:  # max: the first largest row entry of each bag, per column
            self.argmax = xp.full((bags, w.shape[1]), -1, dtype=xp.int64)
            for position in xp.nonzero(keep)[0]:
                b = ids[position]
                better = (self.argmax[b] < 0) | (rows[position] > out[b])
                out[b] = xp.where(better, rows[position], out[b])
                self.argmax[b] = xp.where(better, position, self.argmax[b])
            return out
        xp.add.at(out, ids[keep], rows[keep])
        if mode == 1:
            out = out / xp.maximum(self.counts, 1).astype(w.dtype)[:, None]
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            from gradsh.engine.exceptions import TorchRuntimeError

            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "embedding_bag yet")
        xp = xp_of(grad)
        dim = grad.shape[1]
        out = xp.zeros((self.num_weights, dim), dtype=grad.dtype)
        keep = self.keep
        per_sample = self.needs_input_grad[1] if len(self.needs_input_grad) > 1 else False
        if self.mode == 2:
            found = self.argmax >= 0
            columns = xp.broadcast_to(xp.arange(dim), self.argmax.shape)[found]
            xp.add.at(out, (self.indices[self.argmax[found]], columns), grad[found])
            return (out,)
        rows = grad[self.ids]
        g_weights = None
        # ATen's per-lookup scale, in double, then one multiply-add of the bag's gradient row
        scale = xp.ones(self.indices.shape[0], dtype=xp.float64)
        if len(self.needs_input_grad) > 1:
            weights = self.saved("per_sample_weights", F)
            if per_sample:
                g_weights = xp.where(keep, (rows * self.rows).sum(axis=1), 0).astype(
                    weights.dtype)
            scale = scale * weights.astype(xp.float64)
        if self.sparse:
            several = len(self.needs_input_grad) > 1
            return (self._sparse_grad(grad, rows, weights if several else None),) + (
                (g_weights,) if several else ())
        if self.scale_grad_by_freq:
            scale = scale / _frequency_divisors(self.indices, self.num_weights)
        if self.mode == 1:
            scale = scale / xp.maximum(self.counts, 1)[self.ids]
        rows = rows * scale.astype(grad.dtype)[:, None]
        xp.add.at(out, self.indices[keep], rows[keep])
        if len(self.needs_input_grad) > 1:
            return out, g_weights
        return (out,)

    def _sparse_grad(self, grad: Array, rows: Array, weights: Array | None) -> Any:
        """_embedding_bag_sparse_backward: each lookup's bag gradient row (divided by the bag's
        size in mean mode, times its per-sample weight), as embedding's sparse gradient."""
        from gradsh.engine.ops.sparse_grad import embedding_sparse_grad

        xp = xp_of(grad)
        if self.mode == 1:
            rows = rows / xp.maximum(self.counts, 1).astype(grad.dtype)[self.ids][:, None]
        if weights is not None:
            rows = rows * weights[:, None]
        return embedding_sparse_grad(self.indices, rows, self.num_weights, self.padding_idx,
                                     self.scale_grad_by_freq, self.output_device)
