"""A float32 LSTM layer's forward with the bits of PyTorch 2.13's CPU path (ATen's
mkldnn_rnn_layer: oneDNN's RNN primitive, its reference driver in training); docs/float32.md,
"LSTM".

Found by probing torch (an LSTM whose other gates are saturated returns one gate's
pre-activation exactly in c_n, see tests/test_rnn_bits.py) and reading oneDNN v3.12:

* the layer GEMM: every step's input at once (T * N rows while N < 128, else step by step),
  `x @ W_ih^T` with the weights as oneDNN keeps them, (I, 4H) row-major: MKL's sgemm
  (sgemm.mm) over all four gates;
* the iteration GEMM: `h @ W_hh^T` (H, 4H) row-major, added into those results with beta = 1
  (sgemm.addmm); a GEMM of one row is one fused chain over k, from the results it adds into
  (forward_training, which ATen asks for while grad mode is on) or from 0 (forward_inference);
* the post-GEMM kernel (jit_uni_lstm_cell_postgemm_fwd): the bias b_ih + b_hh (added in float32
  by ATen) added to each gate, oneDNN's logistic for i, f, o and its tanh for g
  (vecmath/onednn.py), c = fma(i, g, c_prev * f), h = o * tanh(c).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.vecmath import onednn, sgemm
from gradsh.engine.vecmath.fp import F32, fma32

__all__ = ["layer_forward", "MERGE_BELOW"]

# oneDNN merges the layer GEMM over time steps for batches below this (rnn_utils.hpp).
MERGE_BELOW = 128


def _product(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None,
             training: bool = True) -> np.ndarray:
    """start + a @ b (row-major operands) as oneDNN's GEMM call computes it: MKL's sgemm with
    beta = 1 (sgemm.addmm), except for one row: one fused chain per output over all of k
    (no k blocks), from `start` itself in training, from 0 and then added to `start` in
    inference (probed)."""
    if a.shape[0] == 1:
        if training or start is None:
            return sgemm.chain(a, b, start)
        return start + sgemm.chain(a, b)
    if start is None:
        return sgemm.mm(a, b)
    return sgemm.addmm(start, a, b, 1.0, 1.0)


def layer_forward(x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray, bias: np.ndarray,
                  h: np.ndarray, c: np.ndarray, reverse: bool, training: bool = True
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[Any, ...]]]:
    """One direction of one layer: x (T, N, I), w_ih (4H, I), w_hh (4H, H), bias (4H,)
    (b_ih + b_hh, or zeros), h and c (N, H), all float32; `training`: ATen's forward_training primitive (grad mode on; otherwise
    forward_inference). Returns the outputs (T, N, H), the last h and c and,
    per step in the order computed, (t, h_prev, c_prev, i, f, g, o, tanh(c))."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    w_layer = np.ascontiguousarray(w_ih.T, F32)
    w_iter = np.ascontiguousarray(w_hh.T, F32)
    if batch < MERGE_BELOW:
        rows = np.ascontiguousarray(x, F32).reshape(steps * batch, -1)
        projected = _product(rows, w_layer).reshape(steps, batch, 4 * hidden)
    else:
        projected = np.stack([_product(np.ascontiguousarray(x[t], F32), w_layer)
                              for t in range(steps)])
    out = np.empty((steps, batch, hidden), F32)
    trace: list[tuple[np.ndarray, ...]] = []
    with np.errstate(all="ignore"):
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            gates = _product(np.ascontiguousarray(h, F32), w_iter, projected[t], training)
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
