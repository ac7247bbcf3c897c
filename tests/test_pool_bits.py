"""Average pooling in float32 against PyTorch 2.13's bits: avg_pool (each window summed from 0
in row-major order, then divided) and adaptive average pooling (summed the same way, then
/ kh / kw; the backward adds each output's share into its window in output order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F32 = np.float32

CASES: dict[str, Callable[[Any, Any], Any]] = {
    "avg 2": lambda m, t: m.nn.functional.avg_pool2d(t, 2),
    "avg k3 s2 p1 ceil": lambda m, t: m.nn.functional.avg_pool2d(t, 3, 2, 1, ceil_mode=True),
    "avg k3 s2 p1 no pad count": lambda m, t: m.nn.functional.avg_pool2d(
        t, 3, 2, 1, count_include_pad=False),
    "avg divisor 7": lambda m, t: m.nn.functional.avg_pool2d(t, 3, 2, divisor_override=7),
    "avg (2, 3)": lambda m, t: m.nn.functional.avg_pool2d(t, (2, 3)),
    "avg1d": lambda m, t: m.nn.functional.avg_pool1d(t.reshape(6, 11, 13), 3, 2),
    "AvgPool2d": lambda m, t: m.nn.AvgPool2d(2)(t),
    "adaptive (5, 7)": lambda m, t: m.nn.functional.adaptive_avg_pool2d(t, (5, 7)),
    "adaptive (20, 3)": lambda m, t: m.nn.functional.adaptive_avg_pool2d(t, (20, 3)),
    "adaptive (3, 3)": lambda m, t: m.nn.functional.adaptive_avg_pool2d(t, 3),
    "adaptive1d": lambda m, t: m.nn.functional.adaptive_avg_pool1d(t.reshape(6, 11, 13), 4),
}


@pytest.mark.parametrize("name", list(CASES))
def test_average_pooling_is_torchs(torch: Any, name: str) -> None:
    x = np.random.default_rng(len(name)).standard_normal((2, 3, 11, 13)).astype(F32)
    results = []
    for module in (torch, gtorch):
        t = module.from_numpy(x.copy()).requires_grad_()
        y = CASES[name](module, t)
        weights = np.linspace(-1, 1, y.numel(), dtype=F32).reshape(tuple(y.shape))
        (y * module.from_numpy(weights)).sum().backward()
        results.append((y.detach().numpy(), t.grad.numpy()))
    for ours, theirs in zip(results[1], results[0], strict=True):
        assert ours.shape == theirs.shape
        assert (ours.view(np.uint32) == theirs.view(np.uint32)).all()


@pytest.mark.parametrize("shape, out", [((2, 8, 7, 5), (3, 2)), ((2, 16, 9, 9), (4, 4)),
                                        ((1, 3, 13, 11), (5, 3)), ((2, 12, 6, 6), (2, 2))],
                         ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_channels_last_adaptive_average_is_torchs(torch: Any, thread_count: int,
                                                  shape: tuple[int, ...], out: tuple[int, int],
                                                  dtype: Any) -> None:
    """cpu_adaptive_avg_pool_channels_last: each sum divided by kh * kw once on the channels of
    whole vectors, / kh / kw on the rest; the output channels-last; the backward as NCHW's."""
    results = []
    for lib in (torch, gtorch):
        data = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
        x = lib.from_numpy(data).contiguous(memory_format=lib.channels_last).requires_grad_()
        y = lib.nn.functional.adaptive_avg_pool2d(x, out)
        y.backward(lib.from_numpy(np.random.default_rng(3).standard_normal(
            tuple(y.shape)).astype(dtype)))
        results.append((y.detach().numpy(), x.grad.numpy(), tuple(y.stride())))
    (y1, g1, s1), (y2, g2, s2) = results
    assert s1 == s2
    assert (y1 == y2).all() and (g1 == g2).all()
