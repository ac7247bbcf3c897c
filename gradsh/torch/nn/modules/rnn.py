"""RNN, LSTM, GRU and their cells, with PyTorch's parameter names, initialisation and checks."""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from gradsh.engine import ops
from gradsh.engine.ops import rnn as rnn_ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn import init
from gradsh.torch.nn.modules.linear import factory
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.parameter import Parameter

__all__ = ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        directions = 2 if bidirectional else 1
        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1  # type: ignore
                or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int),
                                  ("hidden_size", hidden_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                                f"{type(value).__name__}")
            if kind is int and value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        kwargs = factory(device, dtype)
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden_size * directions
                suffix = "_reverse" if direction == 1 else ""
                params = [("weight_ih", (gate_size, layer_input)),
                          ("weight_hh", (gate_size, real_hidden_size))]
                if bias:
                    params += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    params += [("weight_hr", (proj_size, hidden_size))]
                names = [f"{kind}_l{layer}{suffix}" for kind, _ in params]
                for name, (_, shape) in zip(names, params, strict=True):
                    setattr(self, name, Parameter(ops.empty(shape, **kwargs)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor | None]:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """cuDNN's weight packing: nothing to do on gradsh's devices."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights_per_layer(self) -> list[Tensor | None]:
        """w_ih, w_hh, b_ih, b_hh for each layer and direction (None without biases), and
        w_hr after them when the LSTM has projections."""
        weights: list[Tensor | None] = []
        for names in self._all_weights:
            values: list[Tensor | None] = [getattr(self, name) for name in names]
            if not self.bias:
                values[2:2] = [None, None]
            weights += values
        return weights

    def check_input(self, input: Tensor) -> None:  # noqa: A002
        weight_dtype = self._flat_weights[0].dtype  # type: ignore[union-attr]
        if input.dtype is not weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), or "
                             f"convert model: model.to({input.dtype})")
        if input.ndim != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.ndim}")
        if self.input_size != input.shape[-1]:
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")

    def get_expected_hidden_size(self, input: Tensor) -> tuple[int, int, int]:  # noqa: A002
        batch = input.shape[0] if self.batch_first else input.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), batch,
                self.proj_size if self.proj_size > 0 else self.hidden_size)

    def get_expected_cell_size(self, input: Tensor) -> tuple[int, int, int]:  # noqa: A002
        batch = input.shape[0] if self.batch_first else input.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)

    def check_hidden_size(self, hx: Tensor, expected: tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.shape) != expected:
            raise RuntimeError(msg.format(expected, list(hx.shape)))

    def check_forward_args(self, input: Tensor, hidden: Any) -> None:  # noqa: A002
        self.check_input(input)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input))

    def _zeros(self, input: Tensor, cell: bool = False) -> Tensor:  # noqa: A002
        shape = (self.get_expected_cell_size if cell else self.get_expected_hidden_size)(input)
        return ops.zeros(shape, dtype=input.dtype, device=input.device)  # type: ignore

    def _prepare(self, input: Tensor, hx: Tensor | None, name: str) -> tuple[Tensor, Any, bool]:
        """The batched input and hidden state (zeros when not given)."""
        if input.ndim not in (2, 3):
            tail = "D tensor instead" if name == "RNN" else "D instead"
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}{tail}")
        batched = input.ndim == 3
        if not batched:
            input = ops.unsqueeze(input, 0 if self.batch_first else 1)
            if hx is not None:
                if hx.ndim != 2:
                    raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but got "
                                       f"{hx.ndim}-D tensor")
                hx = ops.unsqueeze(hx, 1)
        elif hx is not None and hx.ndim != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.ndim}-D "
                               "tensor")
        return input, (hx if hx is not None else self._zeros(input)), batched

    def _run(self, input: Tensor, hx: Any) -> tuple[Tensor, Any]:  # noqa: A002
        return rnn_ops.run_rnn(self.mode, input, hx, self._weights_per_layer(), self.num_layers,
                              self.dropout, self.training, self.bidirectional, self.batch_first)

    def _forward_packed(self, packed: Any, hx: Any) -> tuple[Any, Any]:
        """The forward of a PackedSequence: the initial state in the packed (sorted) batch
        order, the output packed again, the final state back in the caller's order."""
        from gradsh.torch.nn.utils.rnn import PackedSequence

        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = [int(v) for v in batch_sizes.tolist()]
        lstm = self.mode == "LSTM"
        if data.ndim != 2:
            raise RuntimeError(f"input must have 2 dimensions, got {data.ndim}")
        if self.input_size != data.shape[-1]:
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {data.shape[-1]}")
        expected_cell = (self.num_layers * (2 if self.bidirectional else 1), sizes[0],
                         self.hidden_size)
        expected = expected_cell[:2] + (self.proj_size or self.hidden_size,)
        if hx is None:
            zero = ops.zeros(expected, dtype=data.dtype, device=data.device)
            hx = ((zero, ops.zeros(expected_cell, dtype=data.dtype, device=data.device)) if lstm
                  else zero)
        else:
            hx = _permute_hidden(hx, sorted_indices)
        if lstm:
            self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
            self.check_hidden_size(hx[1], expected_cell, "Expected hidden[1] size {}, got {}")
        else:
            self.check_hidden_size(hx, expected)
        output, hidden = rnn_ops.run_packed_rnn(self.mode, data, sizes, hx,
                                                self._weights_per_layer(), self.num_layers,
                                                self.dropout, self.training, self.bidirectional)
        return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                _permute_hidden(hidden, unsorted_indices))

    def _forward_one_state(self, input: Tensor, hx: Tensor | None,  # noqa: A002
                           name: str) -> tuple[Tensor, Tensor]:
        """RNN's and GRU's forward (one hidden state tensor)."""
        if isinstance(input, tuple):  # a PackedSequence
            return self._forward_packed(input, hx)  # type: ignore[no-any-return]
        input, hx, batched = self._prepare(input, hx, name)
        self.check_forward_args(input, hx)
        output, hidden = self._run(input, hx)
        if not batched:
            output = ops.squeeze(output, 0 if self.batch_first else 1)
            hidden = ops.squeeze(hidden, 1)
        return output, hidden

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)


def _permute_hidden(hx: Any, permutation: Tensor | None) -> Any:
    """The hidden state's batch reordered (index_select along dim 1), as PyTorch's."""
    if permutation is None:
        return hx
    if isinstance(hx, tuple):
        return tuple(ops.index_select(h, 1, permutation) for h in hx)
    return ops.index_select(hx, 1, permutation)


class RNN(RNNBase):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa
        return self._forward_one_state(input, hx, "RNN")


class GRU(RNNBase):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa
        return self._forward_one_state(input, hx, "GRU")


class LSTM(RNNBase):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def check_forward_args(self, input: Tensor, hidden: Any) -> None:  # noqa: A002
        self.check_input(input)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Any]:  # noqa: A002
        if isinstance(input, tuple):  # a PackedSequence
            return self._forward_packed(input, hx)  # type: ignore[no-any-return]
        if input.ndim not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.ndim}D instead")
        batched = input.ndim == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = ops.unsqueeze(input, batch_dim)
        if hx is None:
            hx = (self._zeros(input), self._zeros(input, cell=True))
        else:
            want = 3 if batched else 2
            if hx[0].ndim != want or hx[1].ndim != want:
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but "
                                   f"got ({hx[0].ndim}-D, {hx[1].ndim}-D) tensors")
            if not batched:
                hx = (ops.unsqueeze(hx[0], 1), ops.unsqueeze(hx[1], 1))
        self.check_forward_args(input, hx)
        output, (h, c) = self._run(input, hx)
        if not batched:
            output = ops.squeeze(output, batch_dim)
            h, c = ops.squeeze(h, 1), ops.squeeze(c, 1)
        return output, (h, c)


class RNNCellBase(Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        kwargs = factory(device, dtype)
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(ops.empty((num_chunks * hidden_size, input_size), **kwargs))
        self.weight_hh = Parameter(ops.empty((num_chunks * hidden_size, hidden_size), **kwargs))
        if bias:
            self.bias_ih = Parameter(ops.empty(num_chunks * hidden_size, **kwargs))
            self.bias_hh = Parameter(ops.empty(num_chunks * hidden_size, **kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def _params(self) -> list[Tensor | None]:
        return [self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh]

    def _batch(self, input: Tensor, name: str) -> tuple[Tensor, bool]:  # noqa: A002
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        batched = input.ndim == 2
        return (input if batched else ops.unsqueeze(input, 0)), batched

    def _zeros(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.zeros((input.shape[0], self.hidden_size), dtype=input.dtype,  # type: ignore
                         device=input.device)


class RNNCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        input, batched = self._batch(input, "RNNCell")
        if hx is not None and hx.ndim not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.ndim}D instead")
        hx = self._zeros(input) if hx is None else (hx if batched else ops.unsqueeze(hx, 0))
        if self.nonlinearity == "tanh":
            result = rnn_ops.tanh_cell(input, hx, self._params)
        elif self.nonlinearity == "relu":
            result = rnn_ops.relu_cell(input, hx, self._params)
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return result if batched else ops.squeeze(result, 0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        input, batched = self._batch(input, "LSTMCell")
        if hx is not None:
            for i, value in enumerate(hx):
                if value.ndim not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{i}] to be 1D or 2D, got "
                                     f"{value.ndim}D instead")
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not batched:
            hx = (ops.unsqueeze(hx[0], 0), ops.unsqueeze(hx[1], 0))
        h, c = rnn_ops.lstm_cell(input, tuple(hx), self._params)  # type: ignore[arg-type]
        return (h, c) if batched else (ops.squeeze(h, 0), ops.squeeze(c, 0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        input, batched = self._batch(input, "GRUCell")
        if hx is not None and hx.ndim not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.ndim}D instead")
        hx = self._zeros(input) if hx is None else (hx if batched else ops.unsqueeze(hx, 0))
        result = rnn_ops.gru_cell(input, hx, self._params)
        return result if batched else ops.squeeze(result, 0)
