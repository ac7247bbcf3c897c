"""gradsh's float32 nn.LSTM against PyTorch 2.13's bits (ATen's mkldnn_rnn_layer: oneDNN's RNN
primitive with MKL's sgemm, vecmath/lstm.py; docs/float32.md, "LSTM"): oneDNN's tanh and
logistic injectors on their own, then the forward (output, h_n, c_n) over batch sizes 1 to 130,
sequences, biases, layers, directions, batch_first, in grad mode and under no_grad; and the
backward: every gradient (input, h0, c0, weights, biases). Each test runs through the compiled
kernels (vecmath/_native.c) and the NumPy emulation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conftest import pinned_threads
from test_matmul_bits import no_bound, path, torch  # noqa: F401  (the same fixtures)

import gradsh.torch as gtorch
from gradsh.engine.vecmath import onednn
from gradsh.engine.vecmath.fp import fma32

F32 = np.float32


def _one_step(torch: Any, gates: np.ndarray, c0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """torch's h_n and c_n after one step of an LSTM whose weights are zero: the gates'
    pre-activations are its bias, (i, f, g, o) rows of `gates`."""
    hidden = gates.shape[1]
    lstm = torch.nn.LSTM(1, hidden)
    with torch.no_grad():
        lstm.weight_ih_l0.zero_()
        lstm.weight_hh_l0.zero_()
        lstm.bias_hh_l0.zero_()
        lstm.bias_ih_l0.copy_(torch.from_numpy(gates.reshape(-1)))
        _, (h, c) = lstm(torch.zeros(1, 1, 1), (torch.zeros(1, 1, hidden),
                                                 torch.from_numpy(c0.reshape(1, 1, hidden))))
    return h.numpy().reshape(-1), c.numpy().reshape(-1)


def _specials(rng: np.random.Generator, size: int) -> np.ndarray:
    """Values over the injectors' ranges: every binade of tanh's table, its linear and
    saturated ends, exp's underflow, zeros of both signs."""
    x = (rng.standard_normal(size) * 3).astype(F32)
    x[:400] = (rng.uniform(-1, 1, 400) * 2.0 ** rng.integers(-14, 5, 400)).astype(F32)
    x[400:410] = [0, -0.0, 4.2e-4, -4.2e-4, 9.01, -9.01, 9.02, 88, -88, -104]
    return x


def test_tanh_and_logistic_are_onednns(torch: Any) -> None:
    """A saturated input gate (1) reads g's tanh into c; a saturated g (tanh 1) reads the
    input gate's logistic; c = fma(i, g, c0 * f), h = o * tanh(c)."""
    rng = np.random.default_rng(0)
    size = 1024  # w_hh is (4 size, size)
    v, w, u = _specials(rng, size), _specials(rng, size), _specials(rng, size)
    big, zero = np.full(size, 30, F32), np.zeros(size, F32)
    _, c = _one_step(torch, np.stack([big, zero, v, big]), zero)
    # c = fma(1, tanh(v), 0 * f): the sum turns tanh(-0) = -0 into +0
    assert np.array_equal(c.view(np.int32), (onednn.tanh(v) + F32(0)).view(np.int32))
    _, c = _one_step(torch, np.stack([v, zero, big, big]), zero)
    assert np.array_equal(c, onednn.logistic(v))
    c0 = rng.standard_normal(size).astype(F32)
    h, c = _one_step(torch, np.stack([u, w, v, w[::-1]]), c0)
    i, f, o = onednn.logistic(u), onednn.logistic(w), onednn.logistic(w[::-1])
    expected_c = fma32(i, onednn.tanh(v), c0 * f)
    assert np.array_equal(c, expected_c)
    assert np.array_equal(h, o * onednn.tanh(expected_c))


# (steps, batch, inputs, hidden, layers, bidirectional, bias, batch_first)
SHAPES = [(1, 1, 5, 3, 1, False, True, False), (2, 1, 10, 8, 1, False, True, False),
          (5, 4, 20, 16, 1, False, True, False), (28, 32, 28, 64, 1, False, True, True),
          (3, 2, 10, 8, 2, False, True, False), (4, 3, 7, 5, 1, True, True, False),
          (4, 3, 7, 5, 2, True, False, True), (6, 3, 7, 5, 1, False, False, False),
          (3, 130, 10, 8, 1, False, True, False), (2, 5, 400, 20, 1, False, True, False),
          (3, 1, 30, 100, 1, True, True, True), (2, 20, 800, 40, 1, False, True, False),
          (3, 2, 64, 64, 1, False, True, False), (1, 3, 16, 16, 3, False, True, False),
          (2, 1, 500, 500, 1, False, True, False)]


def _lstm_pair(torch: Any, shape: tuple[Any, ...]) -> tuple[Any, Any]:
    _, _, inputs, hidden, layers, bidirectional, bias, batch_first = shape
    torch.manual_seed(sum(shape[:4]))
    theirs = torch.nn.LSTM(inputs, hidden, num_layers=layers, bias=bias,
                           bidirectional=bidirectional, batch_first=batch_first)
    ours = gtorch.nn.LSTM(inputs, hidden, num_layers=layers, bias=bias,
                          bidirectional=bidirectional, batch_first=batch_first)
    for name, p in theirs.named_parameters():
        setattr(ours, name, gtorch.nn.Parameter(gtorch.tensor(p.detach().numpy().copy())))
    return theirs, ours


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("grad_mode", [True, False])
def test_lstm_forward(torch: Any, no_bound: None, shape: tuple[Any, ...],
                      grad_mode: bool) -> None:
    """output, h_n and c_n bit for bit; grad mode decides between oneDNN's training and
    inference primitives (they differ for a batch of one)."""
    steps, batch, inputs, hidden, layers, bidirectional, _, batch_first = shape
    rng = np.random.default_rng(len(SHAPES))
    directions = 2 if bidirectional else 1
    x = rng.standard_normal((batch, steps, inputs) if batch_first else (steps, batch, inputs))
    h0 = rng.standard_normal((layers * directions, batch, hidden))
    c0 = rng.standard_normal((layers * directions, batch, hidden))
    arrays = [a.astype(F32) for a in (x, h0, c0)]
    results = []
    for lib, module in zip((torch, gtorch), _lstm_pair(torch, shape), strict=True):
        tensors = [lib.tensor(a) for a in arrays]
        if grad_mode:
            out, (h, c) = module(tensors[0], (tensors[1], tensors[2]))
        else:
            with lib.no_grad():
                out, (h, c) = module(tensors[0], (tensors[1], tensors[2]))
        results.append([t.detach().numpy() for t in (out, h, c)])
    for ours, theirs in zip(results[1], results[0], strict=True):
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("shape", SHAPES)
def test_lstm_backward(torch: Any, no_bound: None, shape: tuple[Any, ...]) -> None:
    """The gradients of a loss on the output and h_n, bit for bit (c_n's upstream gradient is
    then zero, as a program's loss usually leaves it)."""
    steps, batch, inputs, hidden, layers, bidirectional, _, batch_first = shape
    rng = np.random.default_rng(len(SHAPES) + 1)
    directions = 2 if bidirectional else 1
    x = rng.standard_normal((batch, steps, inputs) if batch_first else (steps, batch, inputs))
    states = [rng.standard_normal((layers * directions, batch, hidden)) for _ in range(2)]
    out_shape = ((batch, steps) if batch_first else (steps, batch)) + (directions * hidden,)
    upstream = [rng.standard_normal(out_shape), rng.standard_normal(states[0].shape)]
    arrays = [a.astype(F32) for a in [x, *states, *upstream]]
    results = []
    for lib, module in zip((torch, gtorch), _lstm_pair(torch, shape), strict=True):
        leaves = [lib.tensor(a, requires_grad=True) for a in arrays[:3]]
        out, (h, _) = module(leaves[0], (leaves[1], leaves[2]))
        loss = (out * lib.tensor(arrays[3])).sum() + (h * lib.tensor(arrays[4])).sum()
        loss.backward()
        grads = [t.grad.numpy() for t in leaves]
        grads += [p.grad.numpy() for _, p in sorted(module.named_parameters())]
        results.append(grads)
    for ours, theirs in zip(results[1], results[0], strict=True):
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("hidden", [50, 63, 64, 100, 129])
def test_lstm_backward_batch_of_one_threads(torch: Any, no_bound: None, threads: int,
                                            hidden: int) -> None:
    """A batch of one at 2 and 3 threads: oneDNN cuts dh_prev = dG @ W_hh's k = 4 * hidden
    among its threads once each gets 128 or more (lstm._row_product); every gradient bit for
    bit, below and above that size."""
    shape = (4, 1, 20, hidden, 1, False, True, False)
    rng = np.random.default_rng(hidden)
    arrays = [rng.standard_normal(s).astype(F32)
              for s in [(4, 1, 20), (4, 1, hidden), (4, 1, hidden)]]
    results = []
    with pinned_threads(torch, threads):
        for lib, module in zip((torch, gtorch), _lstm_pair(torch, shape), strict=True):
            x = lib.tensor(arrays[0], requires_grad=True)
            out, _ = module(x)
            (out * lib.tensor(arrays[1])).sum().backward()
            results.append([x.grad.numpy()] + [p.grad.numpy() for _, p in
                                               sorted(module.named_parameters())])
    for ours, theirs in zip(results[1], results[0], strict=True):
        assert np.array_equal(ours, theirs)
