"""nn.LSTM / GRU / RNN and their cells under torch.autocast("cpu", bfloat16) against PyTorch:
which outputs come out in bfloat16 (the LSTM's mkldnn_rnn_layer is on the CPU lower-precision
list; GRU's fused op is not; RNN's linear steps are), their grad_fns, and the LSTM's bfloat16
forward bit for bit. The LSTM's bfloat16 backward is checked for dtype and closeness only
(oneDNN's bf16 backward rounds at points not reproduced yet)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _forward(lib: Any, kind: str, kwargs: dict[str, Any], with_state: bool) -> list[Any]:
    rng = np.random.default_rng(3)
    lib.manual_seed(3)
    m = getattr(lib.nn, kind)(6, 8, **kwargs)
    batch_first = kwargs.get("batch_first", False)
    x = lib.tensor(rng.standard_normal((4, 9, 6) if batch_first else (9, 4, 6)),
                   dtype=lib.float32)
    layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    state = None
    if with_state:
        h0 = lib.tensor(rng.standard_normal((layers, 4, 8)), dtype=lib.float32)
        state = (h0, lib.tensor(rng.standard_normal((layers, 4, 8)), dtype=lib.float32)) \
            if kind == "LSTM" else h0
    with lib.autocast("cpu", dtype=lib.bfloat16):
        out, hidden = m(x, state)
    finals = hidden if isinstance(hidden, tuple) else (hidden,)
    return [str(out.dtype), type(out.grad_fn).__name__,
            out.detach().float().numpy().tobytes()] + [
        (str(t.dtype), t.detach().float().numpy().tobytes()) for t in finals]


@pytest.mark.parametrize("kind, kwargs, with_state", [
    ("LSTM", {}, False), ("LSTM", {"batch_first": True}, True),
    ("LSTM", {"num_layers": 2, "bidirectional": True}, True),
    ("LSTM", {"bias": False}, False), ("GRU", {}, False), ("RNN", {"batch_first": True}, True),
])
def test_autocast_rnn_forward_matches_torch(torch: Any, one_thread: Any, kind: str,
                                            kwargs: dict[str, Any], with_state: bool) -> None:
    assert _forward(gtorch, kind, kwargs, with_state) == _forward(torch, kind, kwargs,
                                                                  with_state)


def _cells(lib: Any) -> list[str]:
    lib.manual_seed(0)
    x = lib.randn(3, 4)
    seen = []
    for kind in ("LSTMCell", "GRUCell", "RNNCell"):
        cell = getattr(lib.nn, kind)(4, 5)
        with lib.autocast("cpu", dtype=lib.bfloat16):
            result = cell(x)
        first = result[0] if isinstance(result, tuple) else result
        seen += [kind, str(first.dtype), type(first.grad_fn).__name__, repr(first)]
    return seen


def test_autocast_cells_match_torch(torch: Any, one_thread: Any) -> None:
    assert _cells(gtorch) == _cells(torch)


def _gradients(lib: Any) -> list[Any]:
    lib.manual_seed(1)
    m = lib.nn.LSTM(5, 6)
    x = lib.tensor(np.random.default_rng(1).standard_normal((7, 3, 5)), dtype=lib.float32)
    with lib.autocast("cpu", dtype=lib.bfloat16):
        out, _ = m(x)
    (out.float() * lib.arange(6.0)).sum().backward()
    return [p.grad for p in m.parameters()]


def test_autocast_lstm_gradients_close_to_torch(torch: Any, one_thread: Any) -> None:
    for ours, theirs in zip(_gradients(gtorch), _gradients(torch), strict=True):
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=0.03, atol=0.03)
