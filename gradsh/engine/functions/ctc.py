"""CtcLossBackward0: the connectionist temporal classification loss as ATen's CPU kernel
(aten/src/ATen/native/LossCTC.cpp) computes it: the alpha recursion forward, the beta recursion
and the per-character "log-add" of alpha * beta backward (Graves et al. 2006, eq. 6-16).

ATen runs the recursions one element at a time with `std::exp` and `std::log` (glibc's expf and
logf for float32, exp and log for float64), each step rounded in the dtype. Here every time step
is one vector operation over the batch and the extended target positions `s`, with the same
roundings; the accumulation of alpha * beta into one character's gradient, sequential over `s`
(descending) in ATen, runs in "rounds": round k adds the k-th position of every (batch,
character) group at every time step at once, so each group sees its terms in ATen's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.random import _libm
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import libm

__all__ = ["CtcLossBackward0"]


def _exp(x: np.ndarray) -> np.ndarray:
    """std::exp: glibc's expf for float32, its exp for float64 (NumPy's where it overflows,
    to inf, which Python's math.exp refuses)."""
    if x.dtype == np.float32:
        return libm.expf(x)
    out = np.exp(x)
    fine = np.isfinite(out) & (out != 0)
    out[fine] = _libm("exp")(x[fine])
    return out


def _log(x: np.ndarray) -> np.ndarray:
    """std::log: glibc's logf for float32, its log for float64 (-inf at 0, NaN below)."""
    if x.dtype == np.float32:
        return libm.logf(x)
    out = np.log(x)
    fine = np.isfinite(out)
    out[fine] = _libm("log")(x[fine])
    return out


def _log_add3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """log(exp(a-m) + exp(b-m) + exp(c-m)) + m, m the largest (0 where all are -inf), as the
    kernel's la1/la2/la3 step computes it."""
    m = np.where(b > a, b, a)
    m = np.where(c > m, c, m)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    return _log(_exp(a - m) + _exp(b - m) + _exp(c - m)) + m


def _log_add2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log(exp(a-m) + exp(b-m)) + m with m = std::max(a, b)."""
    m = np.where(a < b, b, a)
    return _log(_exp(a - m) + _exp(b - m)) + m


def _shifted(x: np.ndarray, by: int, fill: Any) -> np.ndarray:
    """x[..., s - by] at position s (by > 0) or x[..., s + |by|] (by < 0), `fill` outside."""
    out = np.full_like(x, fill)
    if by > 0:
        out[..., by:] = x[..., :-by]
    else:
        out[..., :by] = x[..., -by:]
    return out


class CtcLossBackward0(Function):
    node_name = "CtcLossBackward0"

    def forward(self, log_probs: Tensor, targets: np.ndarray, input_lengths: list[int],
                target_lengths: list[int], offsets: list[int], blank: int,
                zero_infinity: bool) -> Array:
        lp = np.asarray(log_probs._data)  # (T, B, C)
        dtype = lp.dtype.type
        neginf = dtype(-np.inf)
        steps, batch, _ = lp.shape
        max_target = max(target_lengths, default=0)
        width = 2 * max_target + 1
        # the extended targets l': blank, l1, blank, l2, ..., blank (blank past each end)
        prime = np.full((batch, width), blank, dtype=np.int64)
        for b, (offset, length) in enumerate(zip(offsets, target_lengths, strict=True)):
            prime[b, 1:2 * length:2] = targets[offset:offset + length]
        lengths2 = 2 * np.asarray(target_lengths, dtype=np.int64)
        s_index = np.arange(width)
        rows = np.arange(batch)[:, None]
        # la3 (a skip over a blank) only between two different labels
        skip = np.zeros((batch, width), dtype=bool)
        skip[:, 2:] = prime[:, :-2] != prime[:, 2:]
        lp_prime = lp.transpose(1, 0, 2)[rows, :, prime].transpose(0, 2, 1)  # (B, T, S)
        alpha = np.full((batch, steps, width), neginf, dtype=lp.dtype)
        alpha[:, 0, 0] = lp[0, :, blank]
        has_target = lengths2 > 0
        if width > 1:
            alpha[has_target, 0, 1] = lp_prime[has_target, 0, 1]
        for t in range(1, steps):
            prev = alpha[:, t - 1]
            la3 = np.where(skip, _shifted(prev, 2, neginf), neginf)
            alpha[:, t] = _log_add3(prev, _shifted(prev, 1, neginf), la3) + lp_prime[:, t]
        nll = np.empty(batch, dtype=lp.dtype)
        for b in range(batch):
            length, t_last = target_lengths[b], input_lengths[b] - 1
            if t_last < 0:
                nll[b] = -(dtype(0) if length == 0 else neginf)
            elif length == 0:
                nll[b] = -alpha[b, t_last, 0]
            else:
                l1 = alpha[b, t_last, 2 * length:2 * length + 1]
                l2 = alpha[b, t_last, 2 * length - 1:2 * length]
                m = l2 if l1[0] < l2[0] else l1  # std::max(l1, l2)
                m = np.zeros_like(m) if m[0] == neginf else m
                nll[b] = -(_log(_exp(l1 - m) + _exp(l2 - m)) + m)[0]
        self.lp, self.alpha, self.nll, self.prime, self.skip = lp, alpha, nll, prime, skip
        self.lp_prime, self.lengths2, self.s_index = lp_prime, lengths2, s_index
        self.input_lengths, self.blank, self.zero_infinity = input_lengths, blank, zero_infinity
        return nll

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("derivative for aten::_ctc_loss_backward is not "
                                    "implemented")
        return (self._gradient(np.asarray(grad, dtype=self.lp.dtype)),)

    def _rounds(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The (batch, s, character) triples of each round of the alpha * beta accumulation:
        round k holds the k-th position, counting s downwards, of every (batch, character)."""
        rounds: list[list[tuple[int, int, int]]] = []
        for b, length2 in enumerate(self.lengths2.tolist()):
            seen: dict[int, int] = {}
            for s in range(length2, -1, -1):
                c = int(self.prime[b, s])
                k = seen.get(c, 0)
                seen[c] = k + 1
                if k == len(rounds):
                    rounds.append([])
                rounds[k].append((b, s, c))
        return [tuple(np.array(col, dtype=np.int64) for col in zip(*r, strict=True))
                for r in rounds]  # type: ignore[misc]

    def _gradient(self, grad_out: np.ndarray) -> np.ndarray:
        lp, alpha, prime, lp_prime = self.lp, self.alpha, self.prime, self.lp_prime
        dtype = lp.dtype.type
        neginf = dtype(-np.inf)
        steps, batch, _ = lp.shape
        lengths2, input_lengths = self.lengths2, np.asarray(self.input_lengths, dtype=np.int64)
        width = alpha.shape[2]
        # collected[t, b, c]: the log of the sum of alpha * beta over the s with l'_s = c
        collected = np.full(lp.shape, neginf, dtype=lp.dtype)
        beta = np.full_like(alpha, neginf)
        for b in range(batch):
            t_last, length2 = int(input_lengths[b]) - 1, int(lengths2[b])
            if t_last < 0:
                continue
            beta[b, t_last, length2] = lp[t_last, b, self.blank]
            collected[t_last, b, self.blank] = alpha[b, t_last, length2] + beta[b, t_last,
                                                                                length2]
            if length2 > 0:
                c = prime[b, length2 - 1]
                beta[b, t_last, length2 - 1] = lp[t_last, b, c]
                collected[t_last, b, c] = (alpha[b, t_last, length2 - 1]
                                           + beta[b, t_last, length2 - 1])
        s_index = self.s_index[None, :]
        has_next = s_index < lengths2[:, None]
        skip_next = (s_index < lengths2[:, None] - 1) & _shifted(self.skip, -2, False)
        for t in range(steps - 2, -1, -1):
            active = t <= input_lengths - 2
            if not active.any():
                continue
            nxt = beta[:, t + 1]
            lb2 = np.where(has_next, _shifted(nxt, -1, neginf), neginf)
            lb3 = np.where(skip_next, _shifted(nxt, -2, neginf), neginf)
            new = _log_add3(nxt, lb2, lb3) + lp_prime[:, t]
            beta[active, t] = new[active]
        # the accumulation at every t < input_length - 1 at once (a row's terms depend on
        # that row's alpha and beta only), round by round
        log_ab = alpha + beta  # (B, T, S)
        times = np.arange(max(steps - 1, 0))[:, None]
        for bs, ss, cs in self._rounds():
            valid = times <= input_lengths[bs][None, :] - 2
            current = collected[times, bs[None, :], cs[None, :]]
            term = log_ab[bs[None, :], times, ss[None, :]]
            updated = np.where(current == neginf, term, _log_add2(current, term))
            collected[times, bs[None, :], cs[None, :]] = np.where(valid, updated, current)
        out = np.zeros_like(lp)
        with np.errstate(all="ignore"):
            for b in range(batch):
                nll = self.nll[b]
                if self.zero_infinity and nll == np.inf:
                    continue
                length = int(input_lengths[b])
                lpb = lp[:length, b]
                res = collected[:length, b]
                out[:length, b] = (_exp(lpb) - _exp(res + nll - lpb)) * grad_out[b]
        return out
