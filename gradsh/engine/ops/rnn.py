"""The recurrent layers as PyTorch's CPU kernels compose them (aten/src/ATen/native/RNN.cpp):
linear layers, activations and unsafe_chunk per step, so every intermediate has PyTorch's
grad_fn (AddmmBackward0, UnsafeSplitBackward0, SigmoidBackward0, StackBackward0, ...).

A float32 LSTM on the CPU goes through oneDNN in PyTorch (while torch.backends.mkldnn is
enabled, the default): one MkldnnRnnLayerBackward0 node per layer and direction, as here; other
dtypes, and every GRU and RNN, get the composed graph."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from gradsh.engine import autocast, dtypes
from gradsh.engine.functions.rnn import (
    MkldnnRnnLayerBackward0,
    PackPaddedSequenceBackward0,
    TransposeBackward1,
    UnsafeSplitBackward0,
)
from gradsh.engine.ops import sampling
from gradsh.engine.ops.arguments import wrap_dim
from gradsh.engine.ops.arithmetic import add, add_, mul, mul_, sub
from gradsh.engine.ops.joining import cat, stack
from gradsh.engine.ops.linalg import linear, matmul
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.shape import contiguous, narrow, reshape, select, transpose, unbind
from gradsh.engine.ops.unary import relu, sigmoid, sigmoid_, tanh, tanh_
from gradsh.engine.tensor import Tensor

# The cells and run_rnn take PyTorch's weights as one sequence, unlike torch.lstm_cell and
# friends: torch.nn's recurrent modules import them from this module by name.
__all__ = ["unsafe_chunk"]

Hidden = Any  # a Tensor, or (h, c) for an LSTM

MKLDNN = SimpleNamespace(enabled=True)  # torch.backends.mkldnn.enabled
Params = Sequence[Tensor | None]  # w_ih, w_hh, b_ih, b_hh


def unsafe_chunk(a: Tensor, chunks: int, dim: int = 0) -> list[Tensor]:
    dim = wrap_dim(dim, a.ndim)
    size = -(-a.shape[dim] // chunks)
    return [UnsafeSplitBackward0.apply(a, dim=dim, start=start,  # type: ignore[call-arg]
                                       length=min(size, a.shape[dim] - start))
            for start in range(0, a.shape[dim], size)]


def transpose_result(a: Tensor, dim0: int, dim1: int) -> Tensor:
    """transpose_ of a result nobody else holds (TransposeBackward1)."""
    return TransposeBackward1.apply(a, dim0=dim0, dim1=dim1)


# ---------------------------------------------------------------------------------------------
# Cells (`precomputed`: the input is already multiplied by w_ih, as the CPU layers do)
# ---------------------------------------------------------------------------------------------


def _input_part(x: Tensor, params: Params, precomputed: bool) -> Tensor:
    return x if precomputed else linear(x, params[0], params[2])


def _hidden_part(h: Tensor, params: Params) -> Tensor:
    return linear(h, params[1], params[3])  # type: ignore[no-any-return]


# The cells are RNN.cpp's, in-place steps included: the gate chunks are views of one product
# (unsafe_chunk), and sigmoid_/add_/mul_ write into them, so each op sees the strided layout
# PyTorch's does (a 20-wide chunk of a 60-wide row: vectorised 16 at a time, then a scalar tail,
# which decides float32 bits).


def tanh_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    return tanh(add_(_hidden_part(h, params), _input_part(x, params, precomputed)))


def relu_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    return relu(add_(_hidden_part(h, params), _input_part(x, params, precomputed)))


def lstm_cell(x: Tensor, hidden: tuple[Tensor, Tensor], params: Params,
              precomputed: bool = False) -> tuple[Tensor, Tensor]:
    hx, cx = hidden
    gates = add_(_hidden_part(hx, params), _input_part(x, params, precomputed))
    chunks = unsafe_chunk(gates, 4, 1)
    ingate, forgetgate = sigmoid_(chunks[0]), sigmoid_(chunks[1])
    cellgate, outgate = tanh_(chunks[2]), sigmoid_(chunks[3])
    cy = add_(mul(forgetgate, cx), mul(ingate, cellgate))
    hy = mul(outgate, tanh(cy))
    if len(params) > 4 and params[4] is not None:  # CellParams::matmul_hr: the projection
        hy = matmul(hy, transpose(params[4], 0, 1))
    return hy, cy


def gru_cell(x: Tensor, h: Tensor, params: Params, precomputed: bool = False) -> Tensor:
    igates = unsafe_chunk(_input_part(x, params, precomputed), 3, 1)
    hgates = unsafe_chunk(_hidden_part(h, params), 3, 1)
    reset = sigmoid_(add_(hgates[0], igates[0]))
    update = sigmoid_(add_(hgates[1], igates[1]))
    new = tanh_(add(igates[2], mul_(hgates[2], reset)))
    return add_(mul_(sub(h, new), update), new)  # type: ignore[no-any-return]


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
    steps = unbind(linear(inputs, params[0], params[2]), 0)
    outputs = []
    for step in (reversed(steps) if reverse else steps):
        hidden = cell(step, hidden, params, True)
        outputs.append(_output_of(hidden))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


def run_rnn(mode: str, input: Tensor, hx: Hidden, weights: Sequence[Tensor | None],  # noqa
            num_layers: int, dropout: float, train: bool, bidirectional: bool,
            batch_first: bool) -> tuple[Tensor, Hidden]:
    """_VF.rnn_tanh / rnn_relu / lstm / gru: (output, h_n) or (output, (h_n, c_n)).
    `weights` holds w_ih, w_hh, b_ih, b_hh per layer and direction (None for absent biases),
    then w_hr for an LSTM with projections (which never runs through oneDNN)."""
    cell = CELLS[mode]
    directions = 2 if bidirectional else 1
    if mode == "LSTM" and _use_mkldnn(input, weights):
        if len(weights) > 4 * num_layers * directions:
            _warn_projections()
        else:
            return _mkldnn_lstm(input, hx, weights, num_layers, dropout, train, directions,
                                batch_first)
    layer_input = transpose(input, 0, 1) if batch_first else input
    output, h_n = _stacked(mode, layer_input, hx, weights, num_layers, dropout, train,
                           directions, layer_input.ndim - 1,
                           lambda x, hidden, params, reverse: _layer(cell, x, hidden, params,
                                                                     reverse))
    if batch_first:  # ATen's LSTM returns a transposed view, the others transpose_ in place
        output = transpose(output, 0, 1) if mode == "LSTM" else transpose_result(output, 0, 1)
    return output, h_n


def _stacked(mode: str, layer_input: Tensor, hx: Hidden, weights: Sequence[Tensor | None],
             num_layers: int, dropout: float, train: bool, directions: int, join_dim: int,
             run_layer: Callable[[Tensor, Hidden, Sequence[Tensor | None], bool],
                                 tuple[Tensor, Hidden]]) -> tuple[Tensor, Hidden]:
    """The layers and directions of a stacked RNN: each layer's directions run on the layer
    below's output (joined along join_dim), dropout between layers in training; (the last
    layer's output, h_n or (h_n, c_n))."""
    if mode == "LSTM":
        hiddens: list[Hidden] = list(zip(unbind(hx[0], 0), unbind(hx[1], 0), strict=True))
    else:
        hiddens = list(unbind(hx, 0))
    finals: list[Hidden] = []
    per = len(weights) // (num_layers * directions)  # 4, or 5 with an LSTM's projections
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            params = weights[per * index:per * index + per]
            out, final = run_layer(layer_input, hiddens[index], params, direction == 1)
            outputs.append(out)
            finals.append(final)
        layer_input = outputs[0] if directions == 1 else cat(outputs, join_dim)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = sampling.dropout(layer_input, dropout, True)
    if mode == "LSTM":
        return layer_input, (stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0))
    return layer_input, stack(finals, 0)


# ---------------------------------------------------------------------------------------------
# Packed sequences (PackedLayer / ReversedPackedLayer): the batch shrinks as sequences end
# ---------------------------------------------------------------------------------------------


def pack_padded(input: Tensor, batch_sizes: Sequence[int], batch_first: bool) -> Tensor:  # noqa
    """_pack_padded_sequence's data for the given batch sizes (PackPaddedSequenceBackward0)."""
    return PackPaddedSequenceBackward0.apply(  # type: ignore[call-arg]
        input, batch_sizes=tuple(batch_sizes), batch_first=batch_first)


def _slice_hidden(hidden: Hidden, start: int, end: int) -> Hidden:
    if isinstance(hidden, tuple):
        return tuple(narrow(h, 0, start, end - start) for h in hidden)
    return narrow(hidden, 0, start, end - start)


def _concat_hidden(hiddens: Sequence[Hidden]) -> Hidden:
    if isinstance(hiddens[0], tuple):
        return tuple(cat([h[i] for h in hiddens], 0) for i in range(len(hiddens[0])))
    return cat(list(hiddens), 0)


def _packed_layer(cell: Callable[..., Any], data: Tensor, batch_sizes: Sequence[int],
                  hidden: Hidden, params: Params, reverse: bool) -> tuple[Tensor, Hidden]:
    """One direction over a packed sequence. Forward: a sequence that ends hands its rows of
    the hidden state to the final state. Reverse: starts with the shortest batch and takes the
    initial state's rows of each sequence as it begins."""
    projected = linear(data, params[0], params[2])
    outputs = []
    if not reverse:
        finished, offset, last = [], 0, batch_sizes[0]
        for size in batch_sizes:
            step = narrow(projected, 0, offset, size)
            offset += size
            if size < last:
                finished.append(_slice_hidden(hidden, size, last))
                hidden = _slice_hidden(hidden, 0, size)
            last = size
            hidden = cell(step, hidden, params, True)
            outputs.append(_output_of(hidden))
        finished.append(hidden)
        return cat(outputs, 0), _concat_hidden(finished[::-1])
    initial, offset, last = hidden, data.shape[0], batch_sizes[-1]
    hidden = _slice_hidden(initial, 0, last)
    for size in reversed(batch_sizes):
        if size > last:
            hidden = _concat_hidden([hidden, _slice_hidden(initial, last, size)])
        step = narrow(projected, 0, offset - size, size)
        offset -= size
        last = size
        hidden = cell(step, hidden, params, True)
        outputs.append(_output_of(hidden))
    return cat(outputs[::-1], 0), hidden


def run_packed_rnn(mode: str, data: Tensor, batch_sizes: Sequence[int], hx: Hidden,
                   weights: Sequence[Tensor | None], num_layers: int, dropout: float,
                   train: bool, bidirectional: bool) -> tuple[Tensor, Hidden]:
    """_VF.rnn_tanh / rnn_relu / lstm / gru on a PackedSequence's data: the packed output data
    and h_n (or (h_n, c_n)). A float32 LSTM whose sequences all have the same length runs
    through oneDNN as the padded batch would (bit for bit the unpacked LSTM's, measured against
    torch 2.13); other packed sequences through RNN.cpp's PackedLayer."""
    cell = CELLS[mode]
    directions = 2 if bidirectional else 1
    if (mode == "LSTM" and len(set(batch_sizes)) == 1 and _use_mkldnn(data, weights)
            and len(weights) == 4 * num_layers * directions):
        steps, batch = len(batch_sizes), batch_sizes[0]
        output, h_n = _mkldnn_lstm(reshape(data, (steps, batch, data.shape[-1])), hx, weights,
                                   num_layers, dropout, train, directions, False)
        return reshape(output, (steps * batch, output.shape[-1])), h_n
    return _stacked(mode, data, hx, weights, num_layers, dropout, train, directions, -1,
                    lambda x, hidden, params, reverse: _packed_layer(cell, x, batch_sizes,
                                                                     hidden, params, reverse))


_WARNED = SimpleNamespace(projections=False)


def _warn_projections() -> None:
    """ATen's TORCH_WARN_ONCE when a float32 LSTM with projections skips oneDNN."""
    if not _WARNED.projections:
        _WARNED.projections = True
        warnings.warn("LSTM with projections is not supported with oneDNN. Using default "
                      "implementation.", UserWarning, stacklevel=4)


def _use_mkldnn(input: Tensor, weights: Sequence[Tensor | None]) -> bool:  # noqa: A002
    """ATen's use_mkldnn: oneDNN on, CPU tensors, a float32 input with elements."""
    return (MKLDNN.enabled and input.dtype is dtypes.float32 and input.device == "cpu"
            and input.numel() != 0 and all(w is None or w.device == "cpu" for w in weights))


def _mkldnn_lstm(input: Tensor, hx: Hidden, weights: Sequence[Tensor | None],  # noqa: A002
                 num_layers: int, dropout: float, train: bool, directions: int,
                 batch_first: bool) -> tuple[Tensor, Hidden]:
    """ATen's mkldnn_rnn path: per layer and direction one mkldnn_rnn_layer (hx[index] and
    cx[index] selected from the stacked states), dropout between layers, cat for two
    directions, the final states stacked."""
    # oneDNN reads a contiguous sequence: a batch_first input's transpose is cloned
    layer_input = contiguous(transpose(input, 0, 1) if batch_first else input)
    no_bias = zeros(0)
    hs, cs = [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w_ih, w_hh, b_ih, b_hh = weights[4 * index:4 * index + 4]
            # (mkldnn_rnn_layer is on CPU autocast's lower-precision list)
            args = autocast.lower(layer_input, w_ih, w_hh, no_bias if b_ih is None else b_ih,
                                  no_bias if b_hh is None else b_hh, select(hx[0], 0, index),
                                  select(hx[1], 0, index))
            out, hy, cy = MkldnnRnnLayerBackward0.apply_all(*args, reverse=direction == 1)
            outputs.append(out)
            hs.append(hy)
            cs.append(cy)
        layer_input = outputs[0] if directions == 1 else cat(outputs, outputs[0].ndim - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = sampling.dropout(layer_input, dropout, True)
    output = transpose(layer_input, 0, 1) if batch_first else layer_input
    return output, (stack(hs, 0), stack(cs, 0))
