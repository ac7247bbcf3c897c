"""torch.logcumsumexp against PyTorch 2.13's bits (gradsh/engine/functions/distance_extras.py):
the forward's double accumulation with the C library's exp and log1p, and the backward as
logcumsumexp_backward composes it from ops in the dtype (float32 and float64), along each
dimension, with infinities."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexp_bits(torch: Any, dtype: str) -> None:
    rng = np.random.default_rng(0)
    for shape, dim in (((4, 7), 1), ((4, 7), 0), ((3, 5, 6), 1), ((50,), 0), ((2, 300), -1)):
        x = (rng.standard_normal(shape) * 3).astype(dtype)
        g = rng.standard_normal(shape).astype(dtype)
        seen = []
        for lib in (torch, gtorch):
            a = lib.tensor(x, requires_grad=True)
            out = a.logcumsumexp(dim)
            out.backward(lib.tensor(g))
            seen.append([out.detach().numpy(), a.grad.numpy()])
        for what, ours, theirs in zip(("output", "grad"), seen[1], seen[0]):
            assert (ours == theirs).all(), (shape, dim, what, int((ours != theirs).sum()))


def test_logcumsumexp_infinities(torch: Any) -> None:
    seen = []
    for lib in (torch, gtorch):
        a = lib.tensor([-float("inf"), 0.0, float("inf"), 1.0], requires_grad=True)
        out = a.logcumsumexp(0)
        out.backward(lib.ones_like(out))
        seen.append([out.detach().numpy(), a.grad.numpy()])
    for ours, theirs in zip(seen[1], seen[0]):
        np.testing.assert_array_equal(ours, theirs)
