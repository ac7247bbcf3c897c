"""Nodes the recurrent layers build besides the common ops: UnsafeSplitBackward0 (the gates'
unsafe_chunk), TransposeBackward1 (transpose_ of a batch_first output) and
MkldnnRnnLayerBackward0 (a float32 LSTM layer on the CPU, as oneDNN runs it)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchNotImplementedError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.linalg_decompositions import MultiOutputFunction
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["UnsafeSplitBackward0", "TransposeBackward1", "MkldnnRnnLayerBackward0"]


class UnsafeSplitBackward0(Function):
    """One chunk of unsafe_chunk: a copy, not a view (the cells update it in place)."""

    node_name = "UnsafeSplitBackward0"

    def forward(self, a: Tensor, dim: int, start: int, length: int) -> Array:
        self.dim, self.start, self.length = dim, start, length
        self.full = a.shape[dim]
        index = [slice(None)] * a.ndim
        index[dim] = slice(start, start + length)
        return a._data[tuple(index)].copy()

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


class MkldnnRnnLayerBackward0(MultiOutputFunction):
    """One direction of one layer of a float32 LSTM on the CPU, as PyTorch runs it through
    oneDNN (mkldnn_rnn_layer): one node for the whole sequence, outputs (output, h_n, c_n), inputs
    (input, w_ih, w_hh, b_ih, b_hh, hx, cx). The steps are computed here in NumPy (the gates
    i, f, g, o as PyTorch orders them); the backward is backpropagation through time. Values
    agree with oneDNN's within float32 rounding (its GEMMs sum in another order)."""

    node_name = "MkldnnRnnLayerBackward0"
    num_outputs = 3
    differentiable = (True, True, True)

    def forward(self, x: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor,  # type: ignore[override]
                b_hh: Tensor, hx: Tensor, cx: Tensor, reverse: bool) -> tuple[Array, ...]:
        xs, wi, wh = x._data, w_ih._data, w_hh._data
        xp = xp_of(xs)
        steps, hidden = xs.shape[0], wh.shape[1]
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        bias = b_ih._data + b_hh._data
        projected = xs @ wi.T + bias  # every step's input part at once, as the kernel does
        h, c = hx._data, cx._data
        out = xp.empty(xs.shape[:2] + (hidden,), dtype=xs.dtype)
        gates = xp.empty(xs.shape[:2] + (4 * hidden,), dtype=xs.dtype)
        cells = xp.empty(xs.shape[:2] + (hidden,), dtype=xs.dtype)
        with _quiet():
            for t in order:
                z = projected[t] + h @ wh.T
                act = gates[t]
                act[:, :2 * hidden] = 1 / (1 + xp.exp(-z[:, :2 * hidden]))  # i, f
                act[:, 2 * hidden:3 * hidden] = xp.tanh(z[:, 2 * hidden:3 * hidden])  # g
                act[:, 3 * hidden:] = 1 / (1 + xp.exp(-z[:, 3 * hidden:]))  # o
                i, f = act[:, :hidden], act[:, hidden:2 * hidden]
                g, o = act[:, 2 * hidden:3 * hidden], act[:, 3 * hidden:]
                c = f * c + i * g
                cells[t] = c
                h = o * xp.tanh(c)
                out[t] = h
        self.reverse = reverse
        if any(self.needs_input_grad):
            device = x.device
            for name, tensor in (("input", x), ("weight0", w_ih), ("weight1", w_hh),
                                 ("hx_", hx), ("cx_", cx)):
                self.save(name, tensor)
            self.save("workspace", Tensor._make(gates, device))
            self.save("cells", Tensor._make(cells, device))
            self.save("output", Tensor._make(out, device))
        return out, h.copy(), c.copy()

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        if F.as_tensor:
            raise TorchNotImplementedError(
                "the derivative for 'mkldnn_rnn_layer_backward' is not implemented.")
        d_out, d_hy, d_cy = grads
        xs, wi, wh = self.saved("input", F), self.saved("weight0", F), self.saved("weight1", F)
        h0, c0 = self.saved("hx_", F), self.saved("cx_", F)
        gates, cells = self.saved("workspace", F), self.saved("cells", F)
        out = self.saved("output", F)
        xp = xp_of(xs)
        steps, hidden = xs.shape[0], wh.shape[1]
        order = list(range(steps - 1, -1, -1) if self.reverse else range(steps))
        dh = xp.zeros_like(h0) if d_hy is None else d_hy.astype(h0.dtype, copy=True)
        dc = xp.zeros_like(c0) if d_cy is None else d_cy.astype(c0.dtype, copy=True)
        dz = xp.empty_like(gates)
        with _quiet():
            for position in range(steps - 1, -1, -1):  # the forward's steps, last first
                t = order[position]
                if d_out is not None:
                    dh = dh + d_out[t]
                act = gates[t]
                i, f = act[:, :hidden], act[:, hidden:2 * hidden]
                g, o = act[:, 2 * hidden:3 * hidden], act[:, 3 * hidden:]
                c_prev = cells[order[position - 1]] if position > 0 else c0
                tanh_c = xp.tanh(cells[t])
                dc = dc + dh * o * (1 - tanh_c * tanh_c)
                step = dz[t]
                step[:, :hidden] = dc * g * i * (1 - i)
                step[:, hidden:2 * hidden] = dc * c_prev * f * (1 - f)
                step[:, 2 * hidden:3 * hidden] = dc * i * (1 - g * g)
                step[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
                dc = dc * f
                dh = step @ wh
        needs = self.needs_input_grad
        flat = dz.reshape(-1, 4 * hidden)
        previous = xp.empty_like(out)  # the hidden state each step started from
        for position, t in enumerate(order):
            previous[t] = out[order[position - 1]] if position > 0 else h0
        d_bias = flat.sum(0) if needs[3] or needs[4] else None
        return (
            dz @ wi if needs[0] else None,
            flat.T @ xs.reshape(-1, xs.shape[-1]) if needs[1] else None,
            flat.T @ previous.reshape(-1, hidden) if needs[2] else None,
            d_bias if needs[3] else None,
            d_bias if needs[4] else None,
            dh if needs[5] else None,
            dc if needs[6] else None,
        )
