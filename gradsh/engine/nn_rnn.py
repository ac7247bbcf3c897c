"""The recurrent layers as PyTorch's CPU kernels compose them (aten/src/ATen/native/RNN.cpp):
linear layers, activations and unsafe_chunk per step, so every intermediate has PyTorch's
grad_fn (AddmmBackward0, UnsafeSplitBackward0, SigmoidBackward0, StackBackward0, ...).

NOTE: PyTorch runs a float32 LSTM through oneDNN on the CPU, one MkldnnRnnLayerBackward0 node
per layer; gradsh shows the composed graph PyTorch builds for float64 (or without oneDNN)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, ops
from gradsh.engine.tensor import Array, Function, GradOps, Tensor

Hidden = Any  # a Tensor, or (h, c) for an LSTM
Params = Sequence[Tensor | None]  # w_ih, w_hh, b_ih, b_hh


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)



class UnsafeSplitBackward0(Function):
    """One chunk of unsafe_chunk: a copy, not a view (the cells update it in place)."""

    node_name = "UnsafeSplitBackward0"

    def forward(self, a: Tensor, dim: int, start: int, length: int) -> Array:
        self.dim, self.start, self.length = dim, start, length
        self.full = a.shape[dim]
        index = [slice(None)] * a.ndim
        index[dim] = slice(start, start + length)
        return a._data[tuple(index)].copy()

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        after = self.full - self.start - self.length
        if F.as_tensor:
            pad = [0, 0] * (grad.ndim - 1 - self.dim) + [self.start, after]
            return (ops.pad(grad, pad),)
        widths = [(0, 0)] * grad.ndim
        widths[self.dim] = (self.start, after)
        return (_xp(grad).pad(grad, widths),)


def unsafe_chunk(a: Tensor, chunks: int, dim: int = 0) -> list[Tensor]:
    dim = ops.wrap_dim(dim, a.ndim)
    size = -(-a.shape[dim] // chunks)
    return [UnsafeSplitBackward0.apply(a, dim=dim, start=start,  # type: ignore[call-arg]
                                       length=min(size, a.shape[dim] - start))
            for start in range(0, a.shape[dim], size)]


class TransposeBackward1(Function):
    """transpose_ of a result nobody else holds (the batch_first output of an RNN)."""

    node_name = "TransposeBackward1"

    def forward(self, a: Tensor, dim0: int, dim1: int) -> Array:
        self.dim0, self.dim1 = dim0, dim1
        return _xp(a._data).swapaxes(a._data, dim0, dim1)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (ops.transpose(grad, self.dim0, self.dim1),)
        return (_xp(grad).swapaxes(grad, self.dim0, self.dim1),)


def transpose_result(a: Tensor, dim0: int, dim1: int) -> Tensor:
    return TransposeBackward1.apply(a, dim0=dim0, dim1=dim1)


# ---------------------------------------------------------------------------------------------
# Cells (`precomputed`: the input is already multiplied by w_ih, as the CPU layers do)
# ---------------------------------------------------------------------------------------------


def _input_part(x: Tensor, params: Params, precomputed: bool) -> Tensor:
    return x if precomputed else ops.linear(x, params[0], params[2])


def _hidden_part(h: Tensor, params: Params) -> Tensor:
    return ops.linear(h, params[1], params[3])  # type: ignore[no-any-return]


def tanh_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    return ops.tanh(ops.add(_hidden_part(h, params), _input_part(x, params, precomputed)))


def relu_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    return ops.relu(ops.add(_hidden_part(h, params), _input_part(x, params, precomputed)))


def lstm_cell(x: Tensor, hidden: tuple[Tensor, Tensor], params: Params,
              precomputed: bool = False) -> tuple[Tensor, Tensor]:
    hx, cx = hidden
    gates = ops.add(_hidden_part(hx, params), _input_part(x, params, precomputed))
    chunks = unsafe_chunk(gates, 4, 1)
    ingate, forgetgate = ops.sigmoid(chunks[0]), ops.sigmoid(chunks[1])
    cellgate, outgate = ops.tanh(chunks[2]), ops.sigmoid(chunks[3])
    cy = ops.add(ops.mul(forgetgate, cx), ops.mul(ingate, cellgate))
    hy = ops.mul(outgate, ops.tanh(cy))
    return hy, cy


def gru_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    igates = unsafe_chunk(_input_part(x, params, precomputed), 3, 1)
    hgates = unsafe_chunk(_hidden_part(h, params), 3, 1)
    reset = ops.sigmoid(ops.add(hgates[0], igates[0]))
    update = ops.sigmoid(ops.add(hgates[1], igates[1]))
    new = ops.tanh(ops.add(igates[2], ops.mul(hgates[2], reset)))
    return ops.add(ops.mul(ops.sub(h, new), update), new)  # type: ignore[no-any-return]


CELLS: dict[str, Callable[..., Any]] = {
    "RNN_TANH": tanh_cell, "RNN_RELU": relu_cell, "LSTM": lstm_cell, "GRU": gru_cell,
}


# ---------------------------------------------------------------------------------------------
# Layers and the stack of layers
# ---------------------------------------------------------------------------------------------


def _output_of(hidden: Hidden) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden  # type: ignore[no-any-return]


def _layer(cell: Callable[..., Any], inputs: Tensor, hidden: Hidden, params: Params,
           reverse: bool) -> tuple[Tensor, Hidden]:
    """One direction over the sequence, the input projection done for all steps at once (as
    the CPU kernels do); the reverse direction walks the steps backwards."""
    steps = ops.unbind(ops.linear(inputs, params[0], params[2]), 0)
    outputs = []
    for step in (reversed(steps) if reverse else steps):
        hidden = cell(step, hidden, params, True)
        outputs.append(_output_of(hidden))
    if reverse:
        outputs.reverse()
    return ops.stack(outputs, 0), hidden


def run_rnn(mode: str, input: Tensor, hx: Hidden, weights: Sequence[Tensor | None],  # noqa
            num_layers: int, dropout: float, train: bool, bidirectional: bool,
            batch_first: bool) -> tuple[Tensor, Hidden]:
    """_VF.rnn_tanh / rnn_relu / lstm / gru: (output, h_n) or (output, (h_n, c_n)).
    `weights` holds w_ih, w_hh, b_ih, b_hh per layer and direction (None for absent biases)."""
    cell = CELLS[mode]
    directions = 2 if bidirectional else 1
    if mode == "LSTM":
        hiddens: list[Hidden] = list(zip(ops.unbind(hx[0], 0), ops.unbind(hx[1], 0),
                                         strict=True))
    else:
        hiddens = list(ops.unbind(hx, 0))
    layer_input = ops.transpose(input, 0, 1) if batch_first else input
    finals: list[Hidden] = []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            params = weights[4 * index:4 * index + 4]
            out, final = _layer(cell, layer_input, hiddens[index], params, direction == 1)
            outputs.append(out)
            finals.append(final)
        layer_input = outputs[0] if directions == 1 else ops.cat(outputs, outputs[0].ndim - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = ops.dropout(layer_input, dropout, True)
    output = transpose_result(layer_input, 0, 1) if batch_first else layer_input
    if mode == "LSTM":
        return output, (ops.stack([h for h, _ in finals], 0), ops.stack([c for _, c in finals], 0))
    return output, ops.stack(finals, 0)
