"""The recurrent cells PyTorch composes from ops on the CPU (GRU, RNN, GRUCell, LSTMCell, an
LSTM over a PackedSequence), float32, bit for bit with PyTorch at one and two threads:
the gate chunks are views of one product updated in place (RNN.cpp's unsafe_chunk, add_,
sigmoid_, mul_), so each op runs over PyTorch's strided layout (its vectorised blocks and
scalar tails). Before, the chunks were copies: 417 of 2,400 GRU outputs differed. (A float64
LSTM still differs now and then: float64 sigmoid is not SLEEF's vector exp.) An LSTM with
projections (proj_size) takes this path at every dtype, as in PyTorch."""

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


def _lstm_projections(torch: Any) -> list[Any]:
    """proj_size: never oneDNN; each step's h is multiplied by weight_hr (CellParams::matmul_hr),
    h0 is proj_size wide and c0 hidden_size wide; two layers, both directions, batch_first."""
    torch.manual_seed(4)
    lstm = torch.nn.LSTM(7, 11, num_layers=2, bidirectional=True, batch_first=True, proj_size=4)
    x = torch.tensor(X).requires_grad_()
    h0, c0 = torch.randn(4, 9, 4, requires_grad=True), torch.randn(4, 9, 11)
    out, (h, c) = lstm(x, (h0, c0))
    (out.pow(2).mean() + h.sum() + c.abs().mean()).backward()
    return [out, h, c, x.grad, h0.grad, lstm.weight_hr_l0.grad, lstm.weight_hr_l1_reverse.grad,
            lstm.weight_hh_l1.grad, lstm.bias_ih_l0_reverse.grad]


def _lstm_projections_packed(torch: Any) -> list[Any]:
    torch.manual_seed(5)
    lstm = torch.nn.LSTM(7, 11, proj_size=3, bias=False)
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(X), [9, 7, 5, 3, 2])
    out, (h, c) = lstm(packed)
    padded, _ = torch.nn.utils.rnn.pad_packed_sequence(out)
    (padded.sum() + h.sum() + c.sum()).backward()
    return [padded, h, c, lstm.weight_hr_l0.grad, lstm.weight_ih_l0.grad]


CASES = {f.__name__[1:]: f for f in (_gru, _rnn, _cells, _lstm_native, _lstm_projections,
                                     _lstm_projections_packed)}


def test_lstm_projections_layout_and_errors(torch: Any) -> None:
    """The parameters (names, shapes, order), the repr, the hidden-size checks and the
    constructor's errors of an LSTM with projections, as PyTorch's."""
    def describe(t: Any) -> list[str]:
        lstm = t.nn.LSTM(5, 6, num_layers=2, proj_size=2)
        lines = [repr(lstm)] + [f"{n} {tuple(p.shape)}" for n, p in lstm.named_parameters()]
        for h, c in (((2, 3, 6), (2, 3, 6)), ((2, 3, 2), (2, 3, 2)), ((2, 3, 2), (2, 3, 6))):
            try:
                out, (hn, cn) = lstm(t.zeros(4, 3, 5), (t.zeros(h), t.zeros(c)))
                lines.append(f"{tuple(out.shape)} {tuple(hn.shape)} {tuple(cn.shape)}")
            except RuntimeError as e:
                lines.append(str(e))
        for make in (lambda: t.nn.LSTM(4, 4, proj_size=4), lambda: t.nn.LSTM(4, 4, proj_size=-1),
                     lambda: t.nn.GRU(4, 4, proj_size=2), lambda: t.nn.RNN(4, 4, proj_size=2)):
            try:
                make()
            except ValueError as e:
                lines.append(str(e))
        return lines

    assert describe(gtorch) == describe(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_cells_give_torchs_bits(name: str, torch: Any, thread_count: int) -> None:
    theirs = [t.detach().numpy() for t in CASES[name](torch)]
    ours = [t.detach().numpy() for t in CASES[name](gtorch)]
    for a, b in zip(ours, theirs, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
