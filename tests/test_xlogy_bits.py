"""torch.xlogy in float32 and float64 against PyTorch 2.13's bits: xlogy_kernel's scalar loop
x * std::log(y) (glibc's logf / log), 0 where x is 0 unless y is NaN; its gradients
(at::xlogy(grad, other) for x); special values; the loss that calls it (kl_div)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_xlogy_bits(torch: Any, dtype: str) -> None:
    import gradsh.torch as gtorch

    rng = np.random.default_rng(4)
    x = rng.standard_normal(5000).astype(dtype)
    y = np.abs(rng.standard_normal(5000)).astype(dtype)
    x[:8] = [0, 0, 0, 1, -1, 2, 0, 3]
    y[:8] = [np.nan, 0, -1, 0, np.inf, -2, 1, np.nan]
    results = []
    for lib in (torch, gtorch):
        a, b = (lib.from_numpy(v.copy()).requires_grad_() for v in (x, y))
        out = lib.xlogy(a, b)
        out.backward(lib.from_numpy(np.cos(np.arange(5000)).astype(dtype)))
        scalar = lib.xlogy(2.0, lib.from_numpy(y))
        results.append([out.detach().numpy(), a.grad.numpy(), b.grad.numpy(), scalar.numpy()])
    for theirs, ours in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def test_kl_div_bits(torch: Any) -> None:
    import gradsh.torch as gtorch

    rng = np.random.default_rng(5)
    logits = rng.standard_normal((64, 10)).astype(np.float32)
    target = rng.dirichlet(np.ones(10), 64).astype(np.float32)
    results = []
    for lib in (torch, gtorch):
        inp = lib.from_numpy(logits.copy()).requires_grad_()
        loss = lib.nn.functional.kl_div(lib.log_softmax(inp, 1), lib.from_numpy(target),
                                        reduction="batchmean")
        loss.backward()
        results.append([loss.detach().numpy(), inp.grad.numpy()])
    for theirs, ours in zip(*results):
        np.testing.assert_array_equal(ours, theirs)
