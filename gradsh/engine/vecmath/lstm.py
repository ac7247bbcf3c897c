"""A float32 LSTM layer, forward and backward, with the bits of PyTorch 2.13's CPU path (ATen's
mkldnn_rnn_layer: oneDNN's RNN primitive); docs/float32.md, "LSTM".

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

import contextlib
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine.vecmath import blas, conv_split, onednn, sgemm
from gradsh.engine.vecmath.fp import F32, fma32

__all__ = ["layer_forward", "MERGE_BELOW"]


def _with_onednn_sgemm(function: Callable[..., Any]) -> Callable[..., Any]:
    """oneDNN's LSTM runs its own JIT sgemm, not MKL's. On Intel CPUs MKL's sgemm gives its
    bits (and MKL's speed); elsewhere MKL dispatches other kernels, so sgemm.py's emulation of
    the AVX-512 chains stands in (blas.genuine_intel)."""
    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        with contextlib.nullcontext() if blas.genuine_intel() else blas.emulating():
            return function(*args, **kwargs)
    return run


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


@_with_onednn_sgemm
def layer_forward(x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray, bias: np.ndarray,
                  h: np.ndarray, c: np.ndarray, reverse: bool, training: bool = True,
                  rounded: Callable[[np.ndarray], np.ndarray] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[Any, ...]]]:
    """One direction of one layer: x (T, N, I), w_ih (4H, I), w_hh (4H, H), bias (4H,)
    (b_ih + b_hh, or zeros), h and c (N, H), all float32; `training`: ATen asks for oneDNN's
    forward_training primitive (grad mode on), else forward_inference. Returns the outputs
    (T, N, H), the last h and c and, per step in the order computed, (t, h_prev, c_prev, i, f,
    g, o, tanh(c)).

    `rounded` (bfloat16 under autocast: the float32 values of the inputs' bfloat16 numbers):
    the same float32 arithmetic, each step's h rounded by it, and c after h is computed from
    it (probed: oneDNN's bf16 cell keeps c in the destination's precision between steps)."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    x = np.ascontiguousarray(x, F32)
    w_layer = np.ascontiguousarray(w_ih.T, F32)
    w_iter = np.ascontiguousarray(w_hh.T, F32)
    gates_of = (_training_gates if training else _inference_gates)(x, w_layer, w_iter)
    out = np.empty((steps, batch, hidden), F32)
    trace: list[tuple[Any, ...]] = []
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
            if rounded is not None:
                h, c = rounded(h), rounded(c)
            out[t] = h
    return out, h, c, trace


# oneDNN's GEMM splits a one-row product's k over its threads from this many k per thread.
_K_PER_THREAD = 128


def _row_product(row: np.ndarray, w: np.ndarray, threads: int) -> np.ndarray:
    """A batch of one's dh_prev = dG @ W_hh: one fused chain over k at one thread; with k at
    least 128 per thread, k cut into `threads` parts as balance211 cuts it (the first k %
    threads parts one longer), a chain from 0 over each, the parts added in order (probed
    against PyTorch at 2 to 5 threads, k = 4 * hidden from 128 to 2,048)."""
    k = row.shape[1]
    if threads <= 1 or k < _K_PER_THREAD * threads:
        return sgemm.chain(row, w)
    out = None
    for start, stop in conv_split.shares(k, threads):
        product = sgemm.chain(row[:, start:stop], w[start:stop])
        out = product if out is None else out + product
    return out


def _one_minus_square(x: np.ndarray) -> np.ndarray:
    """fl(1 - x * x), one vfnmadd."""
    return fma32(-x, x, np.ones_like(x))


def _x_minus_square(x: np.ndarray) -> np.ndarray:
    """fl(x - x * x), one vfnmadd."""
    return fma32(-x, x, x)


@_with_onednn_sgemm
def layer_backward(x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray,
                   trace: list[tuple[Any, ...]], g_out: np.ndarray | None,
                   g_hy: np.ndarray | None, g_cy: np.ndarray | None, reverse: bool = False,
                   threads: int = 1) -> tuple[np.ndarray, ...]:
    """oneDNN's LSTM backward (reference driver, MKL's sgemm) for `layer_forward`'s trace:
    per step from the last computed, the post-GEMM kernel (jit_uni_lstm_cell_postgemm_bwd)
    dh = dy + dh_next, dc = dc_next + ((1 - tanh(c)^2) * dh) * o, dG_o = ((o - o^2) * dh) *
    tanh(c), dG_i = ((i - i^2) * dc) * g, dG_f = ((f - f^2) * dc) * c_prev, dG_g = (1 - g^2) *
    (i * dc), dc_prev = dc * f (each `x - x^2` one fused step); dh_prev = dG @ W_hh; the bias
    gradient summed in float32 row by row; then over all steps at once, in the order computed,
    dx = dG @ W_ih and the weight gradients x^T @ dG and h_prev^T @ dG (see below). Returns
    (dx, dw_ih, dw_hh, db, dh0, dc0). `threads`: PyTorch's intra-op thread count, which
    splits a batch of one's dh_prev product (`_row_product`)."""
    steps, batch, _ = x.shape
    hidden = w_hh.shape[1]
    w_ih = np.ascontiguousarray(w_ih, F32)
    w_hh = np.ascontiguousarray(w_hh, F32)
    dh = np.zeros((batch, hidden), F32) if g_hy is None else np.array(g_hy, F32)
    dc = np.zeros((batch, hidden), F32) if g_cy is None else np.array(g_cy, F32)
    d_gates = np.empty((steps, batch, 4 * hidden), F32)
    h_prev = np.empty((steps, batch, hidden), F32)
    db = np.zeros(4 * hidden, F32)
    with np.errstate(all="ignore"):
        for t, h_before, c_prev, i, f, g, o, tanh_c in reversed(trace):
            if g_out is not None:
                dh = np.asarray(g_out[t], F32) + dh
            dc = dc + (_one_minus_square(tanh_c) * dh) * o
            d_o = (_x_minus_square(o) * dh) * tanh_c
            d_i = (_x_minus_square(i) * dc) * g
            d_f = (_x_minus_square(f) * dc) * c_prev
            d_g = _one_minus_square(g) * (i * dc)
            dG = np.concatenate([d_i, d_f, d_g, d_o], axis=1)
            d_gates[t] = dG
            h_prev[t] = h_before
            dc = dc * f
            dh = sgemm.mm(dG, w_hh) if batch > 1 else _row_product(dG, w_hh, threads)

            for row in dG:
                db += row
        # oneDNN keeps the steps in the order computed (reversed for the second direction)
        order = [entry[0] for entry in trace]
        rows = d_gates[order].reshape(steps * batch, 4 * hidden)
        dx = np.empty_like(x, F32)
        dx[order] = sgemm.mm(rows, w_ih).reshape(x.shape)
        inputs = np.ascontiguousarray(x, F32)[order].reshape(steps * batch, -1)
        dw_ih = sgemm.mm(inputs.T, rows).T
        # W_hh's: left to right, the steps after the first at once, then the first (h0 from
        # the user's memory, which oneDNN does not copy there) added with beta = 1; right to
        # left all steps at once
        states = h_prev[order]
        first = np.ascontiguousarray(states[0]).T
        if reverse:
            dw_hh_t = sgemm.mm(states.reshape(steps * batch, hidden).T, rows)
        elif steps > 1:
            later = states[1:].reshape((steps - 1) * batch, hidden).T
            dw_hh_t = sgemm.mm(later, rows[batch:])
            if batch == 1:  # a product of one term, rounded, then added (probed)
                dw_hh_t = dw_hh_t + first * rows[:1]
            else:
                dw_hh_t = sgemm.addmm(dw_hh_t, first, rows[:batch], 1.0, 1.0)
        else:
            dw_hh_t = sgemm.mm(first, rows)
    # (oneDNN accumulates the weight gradients into zeroed memory with beta = 1: a product
    # of -0.0 comes out +0.0)
    dw_ih = dw_ih + F32(0.0)
    dw_hh_t = dw_hh_t + F32(0.0)
    return dx, np.ascontiguousarray(dw_ih), np.ascontiguousarray(dw_hh_t.T), db, dh, dc
