"""Nodes the recurrent layers build besides the common ops: UnsafeSplitBackward0 (the gates'
unsafe_chunk), TransposeBackward1 (transpose_ of a batch_first output) and a float32 LSTM
layer's MkldnnRnnLayerBackward0."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.functions.pointwise import unary
from gradsh.engine import dtypes, threads
from gradsh.engine.grad_mode import is_grad_enabled
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import lstm


def _is_bf16(array: Any) -> bool:
    """A bfloat16 array, without importing ml_dtypes (which only bfloat16's use loads)."""
    return array.dtype.name == "bfloat16"


__all__ = ["UnsafeSplitBackward0", "TransposeBackward1", "MkldnnRnnLayerBackward0",
           "PackPaddedSequenceBackward0"]


class UnsafeSplitBackward0(Function):
    """One chunk of unsafe_chunk: the input's memory, but not a view to autograd (no base, its
    own version counter), as PyTorch's unsafe variant; the cells update the chunks in place."""

    node_name = "UnsafeSplitBackward0"

    def forward(self, a: Tensor, dim: int, start: int, length: int) -> Array:
        self.dim, self.start, self.length = dim, start, length
        self.full = a.shape[dim]
        index = [slice(None)] * a.ndim
        index[dim] = slice(start, start + length)
        return a._data[tuple(index)]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        after = self.full - self.start - self.length
        # F.pad's order: (before, after) pairs from the last dimension backwards
        pad = [0, 0] * (grad.ndim - 1 - self.dim) + [self.start, after]
        return (F.constant_pad(grad, pad, None),)


class TransposeBackward1(Function):
    """transpose_ of a result nobody else holds (the batch_first output of an RNN)."""

    node_name = "TransposeBackward1"

    def forward(self, a: Tensor, dim0: int, dim1: int) -> Array:
        self.dim0, self.dim1 = dim0, dim1
        return xp_of(a._data).swapaxes(a._data, dim0, dim1)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.transpose(grad, self.dim0, self.dim1),)


class PackPaddedSequenceBackward0(Function):
    """_pack_padded_sequence's data: the valid rows of a padded (time, batch, *) input, time
    step after time step (batch_first inputs are read transposed). Backward puts each step's
    rows back into a zero-padded input (_pack_padded_sequence_backward)."""

    node_name = "PackPaddedSequenceBackward0"

    def forward(self, a: Tensor, batch_sizes: tuple[int, ...], batch_first: bool) -> Array:
        self.batch_sizes, self.batch_first = batch_sizes, batch_first
        x = xp_of(a._data).swapaxes(a._data, 0, 1) if batch_first else a._data
        self.width = x.shape[1]
        steps = [x[t, :size] for t, size in enumerate(batch_sizes)]
        return xp_of(x).concatenate(steps, axis=0)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        parts, offset = [], 0
        for size in self.batch_sizes:
            step = F.narrow(grad, 0, offset, size)
            pad = [0, 0] * (grad.ndim - 1) + [0, self.width - size]
            parts.append(F.unsqueeze(F.constant_pad(step, pad, None), 0))
            offset += size
        out = F.cat(parts, 0)
        return (F.transpose(out, 0, 1) if self.batch_first else out,)


def _sigmoid(x: Array) -> Array:
    return unary("sigmoid", np.ascontiguousarray(x))


def _tanh(x: Array) -> Array:
    return unary("tanh", np.ascontiguousarray(x))


def _affine(x: Array, w: Array, b: Array | None) -> Array:
    """x @ w.T (+ b): the product first, then the bias, as addmm's result reads."""
    out = x @ w.T
    return out + b if b is not None else out


class MkldnnRnnLayerBackward0(MultiOutputFunction):
    """One layer and direction of a float32 LSTM, as PyTorch runs it through oneDNN on the
    CPU (mkldnn_rnn_layer): one node whose outputs are the layer's output sequence, h_n and
    c_n, with edges to (input, w_ih, w_hh, b_ih, b_hh, hx, cx). The forward has oneDNN's bits
    for float32 NumPy arrays (vecmath/lstm.py), the textbook arithmetic otherwise; backward is
    backpropagation through time in NumPy's arithmetic (not oneDNN's)."""

    node_name = "MkldnnRnnLayerBackward0"
    num_outputs = 3
    differentiable = (True, True, True)

    def forward(self, x: Tensor, w_ih: Tensor, w_hh: Tensor,  # type: ignore[override]
                b_ih: Tensor, b_hh: Tensor, hx: Tensor, cx: Tensor,
                reverse: bool) -> tuple[Array, ...]:
        for name, t in (("input", x), ("weight0", w_ih), ("weight1", w_hh), ("weight2", b_ih),
                        ("weight3", b_hh), ("hx_", hx), ("cx_", cx)):
            self.save(name, t)
        self.reverse = reverse
        wi, wh = w_ih._data, w_hh._data
        bi = b_ih._data if b_ih.numel() else None
        bh = b_hh._data if b_hh.numel() else None
        steps, batch = x.shape[0], x.shape[1]
        hidden = wh.shape[1]
        arrays = (x._data, wi, wh, hx._data, cx._data)
        if all(type(a) is np.ndarray and _is_bf16(a) for a in arrays + (
                b_ih._data, b_hh._data)):
            return self._bfloat16_forward(arrays, bi, bh, reverse)
        if all(type(a) is np.ndarray and a.dtype == np.float32 for a in arrays):
            with _quiet():  # ATen adds the biases once (zeros without them)
                bias = bi + bh if bi is not None else np.zeros(4 * hidden, np.float32)
            out, h, c, self.trace = lstm.layer_forward(x._data, wi, wh, bias, hx._data,
                                                       cx._data, reverse, is_grad_enabled())
            self.onednn = True
            return out, h, c
        with _quiet():
            projected = _affine(x._data.reshape(steps * batch, -1), wi, bi).reshape(
                steps, batch, 4 * hidden)
            h, c = hx._data, cx._data
            self.trace: list[tuple[Array, ...]] = []
            out = np.empty((steps, batch, hidden), dtype=x._data.dtype)
            for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
                gates = _affine(h, wh, bh) + projected[t]
                i, f = _sigmoid(gates[:, :hidden]), _sigmoid(gates[:, hidden:2 * hidden])
                g, o = _tanh(gates[:, 2 * hidden:3 * hidden]), _sigmoid(gates[:, 3 * hidden:])
                c_next = f * c + i * g
                tanh_c = _tanh(c_next)
                self.trace.append((t, h, c, i, f, g, o, tanh_c))
                h, c = o * tanh_c, c_next
                out[t] = h
        return out, h, c

    def _bfloat16_forward(self, arrays: tuple[Array, ...], bi: Array | None, bh: Array | None,
                          reverse: bool) -> tuple[Array, ...]:
        """mkldnn_rnn_layer on bfloat16 tensors (an LSTM under CPU autocast): ATen's bias
        b_ih + b_hh in bfloat16, oneDNN's float32 chain on the bfloat16 values, h and c
        rounded to bfloat16 at each step (vecmath/lstm.py)."""
        x, wi, wh, hx, cx = (a.astype(np.float32) for a in arrays)
        bf16 = dtypes.bfloat16.np
        hidden = wh.shape[1]
        bias = (bi + bh).astype(np.float32) if bi is not None else np.zeros(4 * hidden,
                                                                             np.float32)
        out, h, c, self.trace = lstm.layer_forward(
            x, wi, wh, bias, hx, cx, reverse, is_grad_enabled(),
            rounded=lambda a: a.astype(bf16).astype(np.float32))
        self.onednn = True
        return out.astype(bf16), h.astype(bf16), c.astype(bf16)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        g_out, g_hy, g_cy = (None if g is None else np.asarray(
            g._data if isinstance(g, Tensor) else g) for g in grads)
        if any(g is not None and _is_bf16(g) for g in (g_out, g_hy, g_cy)):
            return self._bfloat16_backward(F, g_out, g_hy, g_cy)
        arrays = [self.saved(name, F) for name in
                  ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")]
        x, wi, wh, bi, bh, hx, cx = (a._data if isinstance(a, Tensor) else a for a in arrays)
        if getattr(self, "onednn", False) and all(
                g is None or g.dtype == np.float32 for g in (g_out, g_hy, g_cy)):
            dx, dwi, dwh, db, dh, dc = lstm.layer_backward(
                x, wi, wh, self.trace, g_out, g_hy, g_cy, self.reverse, threads.torch_threads())
            return self._results(F, (dx, dwi, dwh, db if bi.size else None,
                                     db.copy() if bh.size else None, dh, dc))
        hidden = wh.shape[1]
        dtype = x.dtype
        dx = np.zeros_like(x)
        dwi, dwh = np.zeros_like(wi), np.zeros_like(wh)
        dgates_sum = np.zeros(4 * hidden, dtype)
        dh = np.zeros_like(hx) if g_hy is None else g_hy.astype(dtype, copy=True)
        dc = np.zeros_like(cx) if g_cy is None else g_cy.astype(dtype, copy=True)
        with _quiet():
            for t, h_prev, c_prev, i, f, g, o, tanh_c in reversed(self.trace):
                if g_out is not None:
                    dh = dh + g_out[t]
                do = dh * tanh_c * o * (1 - o)
                dc = dc + dh * o * (1 - tanh_c * tanh_c)
                di = dc * g * i * (1 - i)
                df = dc * c_prev * f * (1 - f)
                dg = dc * i * (1 - g * g)
                dgates = np.concatenate([di, df, dg, do], axis=1)
                dwh += dgates.T @ h_prev
                dwi += dgates.T @ x[t]
                dgates_sum += dgates.sum(axis=0)
                dx[t] = dgates @ wi
                dh = dgates @ wh
                dc = dc * f
        return self._results(F, (dx, dwi, dwh, dgates_sum if bi.size else None,
                                 dgates_sum.copy() if bh.size else None, dh, dc))

    def _bfloat16_backward(self, F: Any, g_out: Array | None, g_hy: Array | None,
                           g_cy: Array | None) -> tuple[Any, ...]:
        """The bfloat16 layer's backward: the float32 one on the float32 values, each
        gradient rounded to bfloat16 (the inputs' dtype). oneDNN's bf16 backward rounds at
        points not found yet: these gradients are within a few bfloat16 units of PyTorch's,
        not its bits."""
        x, wi, wh, bi, bh = (np.asarray(self.saved(name, F)._data if F.as_tensor else
                                        self.saved(name, F)).astype(np.float32)
                             for name in ("input", "weight0", "weight1", "weight2", "weight3"))
        up = [None if g is None else g.astype(np.float32) for g in (g_out, g_hy, g_cy)]
        dx, dwi, dwh, db, dh, dc = lstm.layer_backward(
            x, wi, wh, self.trace, up[0], up[1], up[2], self.reverse, threads.torch_threads())
        bf16 = dtypes.bfloat16.np
        return self._results(F, tuple(None if r is None else r.astype(bf16) for r in (
            dx, dwi, dwh, db if bi.size else None, db.copy() if bh.size else None, dh, dc)))

    def _results(self, F: Any, results: tuple[Any, ...]) -> tuple[Any, ...]:
        needs = self.needs_input_grad
        device = self.output_device
        return tuple(None if r is None or not need else
                     (Tensor._make(r, device) if F.as_tensor else r)
                     for r, need in zip(results, needs, strict=True))
