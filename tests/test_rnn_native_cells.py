"""The recurrent cells PyTorch composes from ops on the CPU (GRU, RNN, GRUCell, LSTMCell, an
LSTM over a PackedSequence), float32, bit for bit with PyTorch at one and two threads:
the gate chunks are views of one product updated in place (RNN.cpp's unsafe_chunk, add_,
sigmoid_, mul_), so each op runs over PyTorch's strided layout (its vectorised blocks and
scalar tails). Before, the chunks were copies: 417 of 2,400 GRU outputs differed. (A float64
LSTM still differs now and then: float64 sigmoid is not SLEEF's vector exp.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

RNG = np.random.default_rng(7)
X = RNG.standard_normal((9, 5, 7)).astype(np.float32)


def _gru(torch: Any) -> list[Any]:
    torch.manual_seed(0)
    gru = torch.nn.GRU(7, 13, num_layers=2, bidirectional=True)
    out, h = gru(torch.tensor(X))
    (out.pow(2).mean() + h.abs().mean()).backward()
    return [out, h, gru.weight_ih_l0.grad, gru.weight_hh_l1_reverse.grad, gru.bias_hh_l0.grad]


def _rnn(torch: Any) -> list[Any]:
    torch.manual_seed(1)
    rnn = torch.nn.RNN(7, 6, nonlinearity="relu", batch_first=True)
    x = torch.tensor(X).requires_grad_()
    out, h = rnn(x)
    out.sum().backward()
    return [out, h, x.grad, rnn.weight_hh_l0.grad]


def _cells(torch: Any) -> list[Any]:
    torch.manual_seed(2)
    gru, lstm = torch.nn.GRUCell(7, 20), torch.nn.LSTMCell(7, 20)
    hx = torch.zeros(5, 20)
    hy, cy = torch.zeros(5, 20), torch.zeros(5, 20)
    for step in torch.tensor(X):
        hx = gru(step, hx)
        hy, cy = lstm(step, (hy, cy))
    (hx.sum() + hy.sum() + cy.sum()).backward()
    return [hx, hy, cy, gru.weight_hh.grad, lstm.weight_ih.grad]


def _lstm_native(torch: Any) -> list[Any]:
    torch.manual_seed(3)
    lstm = torch.nn.LSTM(7, 11)
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(X), [9, 7, 5, 3, 2])
    out, (h, c) = lstm(packed)
    padded, _ = torch.nn.utils.rnn.pad_packed_sequence(out)
    (padded.sum() + h.sum()).backward()
    return [padded, h, c, lstm.weight_ih_l0.grad]


CASES = {f.__name__[1:]: f for f in (_gru, _rnn, _cells, _lstm_native)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_cells_give_torchs_bits(name: str, torch: Any, thread_count: int) -> None:
    theirs = [t.detach().numpy() for t in CASES[name](torch)]
    ours = [t.detach().numpy() for t in CASES[name](gtorch)]
    for a, b in zip(ours, theirs, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
