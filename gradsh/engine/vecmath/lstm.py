"""A float32 LSTM layer's forward with the bits of PyTorch 2.13's CPU path (ATen's
mkldnn_rnn_layer: oneDNN's RNN primitive); docs/float32.md,
"LSTM".

Found by probing torch (an LSTM whose other gates are saturated returns one gate's
pre-activation exactly in c_n, see tests/test_rnn_bits.py) and reading oneDNN v3.12 and ATen.
ATen asks for forward_training while grad mode is on, else forward_inference; oneDNN runs the
first through its reference driver (MKL's sgemm, `_training_gates`), the second through its
brgemm driver (`_inference_gates`). The GEMMs work on the weights as oneDNN keeps them,
(I, 4H) and (H, 4H) row-major, over all four gates at once. Then the post-GEMM kernel
(jit_uni_lstm_cell_postgemm_fwd): the bias b_ih + b_hh (added in float32 by ATen) added to
each gate, oneDNN's logistic for i, f, o and its tanh for g (vecmath/onednn.py),
c = fma(i, g, c_prev * f), h = o * tanh(c).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine.vecmath import onednn, sgemm
from gradsh.engine.vecmath.fp import F32, fma32

__all__ = ["layer_forward", "MERGE_BELOW"]

# oneDNN merges the layer GEMM over time steps for batches below this (rnn_utils.hpp).
MERGE_BELOW = 128


def _training_gates(x: np.ndarray, w_layer: np.ndarray, w_iter: np.ndarray
                    ) -> Callable[[int, np.ndarray], np.ndarray]:
    """forward_training (oneDNN's reference driver, MKL's sgemm): the layer GEMM first (all
    steps at once below MERGE_BELOW rows), then per step the iteration GEMM with beta = 1; a
    GEMM of one row is one fused chain over all of k (no k blocks) from the results it adds
    into (probed)."""
    steps, batch, _ = x.shape

    def product(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
        if a.shape[0] == 1:
            return sgemm.chain(a, b, start)
        return sgemm.mm(a, b) if start is None else sgemm.addmm(start, a, b, 1.0, 1.0)

    if batch < MERGE_BELOW:
        projected = product(x.reshape(steps * batch, -1), w_layer).reshape(steps, batch, -1)
    else:
        projected = np.stack([product(x[t], w_layer) for t in range(steps)])
    return lambda t, h: product(h, w_iter, projected[t])


def _inference_gates(x: np.ndarray, w_layer: np.ndarray, w_iter: np.ndarray
                     ) -> Callable[[int, np.ndarray], np.ndarray]:
    """forward_inference (oneDNN's brgemm driver): each GEMM one fused chain per output over
    all of k (no k blocks), from 0. A batch of one over two or more steps merges
    the layer GEMM over the steps, then adds each step's iteration GEMM to it; otherwise, with
    as many inputs as hidden units, the two are one chain (over x, then h); else the two
    results are added (probed)."""
    steps, batch, inputs = x.shape

    def product(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
        return sgemm.chain(a, b, start)

    if batch == 1 and steps >= 2:
        projected = product(x.reshape(steps, inputs), w_layer)[:, None, :]
        return lambda t, h: projected[t] + product(h, w_iter)
    if inputs == w_iter.shape[0]:
        return lambda t, h: product(h, w_iter, product(x[t], w_layer))
    return lambda t, h: product(x[t], w_layer) + product(h, w_iter)


def layer_forward(x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray, bias: np.ndarray,
                  h: np.ndarray, c: np.ndarray, reverse: bool, training: bool = True
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[Any, ...]]]:
    """One direction of one layer: x (T, N, I), w_ih (4H, I), w_hh (4H, H), bias (4H,)
    (b_ih + b_hh, or zeros), h and c (N, H), all float32; `training`: ATen asks for oneDNN's
    forward_training primitive (grad mode on), else forward_inference. Returns the outputs
    (T, N, H), the last h and c and, per step in the order computed, (t, h_prev, c_prev, i, f,
    g, o, tanh(c))."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    x = np.ascontiguousarray(x, F32)
    w_layer = np.ascontiguousarray(w_ih.T, F32)
    w_iter = np.ascontiguousarray(w_hh.T, F32)
    gates_of = (_training_gates if training else _inference_gates)(x, w_layer, w_iter)
    out = np.empty((steps, batch, hidden), F32)
    trace: list[tuple[np.ndarray, ...]] = []
    with np.errstate(all="ignore"):
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            gates = gates_of(t, np.ascontiguousarray(h, F32))
            gates = gates + bias  # ATen passes zeros without biases: -0 becomes +0
            i = onednn.logistic(gates[:, :hidden])
            f = onednn.logistic(gates[:, hidden:2 * hidden])
            g = onednn.tanh(gates[:, 2 * hidden:3 * hidden])
            o = onednn.logistic(gates[:, 3 * hidden:])
            c_next = fma32(i, g, c * f)
            tanh_c = onednn.tanh(c_next)
            trace.append((t, h, c, i, f, g, o, tanh_c))
            h, c = o * tanh_c, c_next
            out[t] = h
    return out, h, c, trace
