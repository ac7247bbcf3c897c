"""nll_loss's cascade sum: the shortcut for a batch without ignored targets
(nll_sum._contiguous_cascade_sum) adds what the general level-by-level form does, bit for bit,
and the loss is PyTorch's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gradsh.engine.functions import nll_sum

SIZES = [*range(1, 40), 255, 256, 257, 1000, 1024, 4097, 65537, 70000]
SPECIALS = [-0.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3e38, -3e38]


def _pools(rng: np.random.Generator, n: int, dtype: Any) -> list[np.ndarray]:
    return [
        rng.standard_normal(n).astype(dtype),
        (rng.standard_normal(n) * 1e30).astype(dtype),  # overflowing partial sums
        np.resize(np.array(SPECIALS, dtype), n),
        -np.zeros(n, dtype),  # a total of -0.0 added from 0 is 0.0
        rng.integers(-3, 3, n).astype(dtype) * dtype(1e-8),  # cancellations
        _with_nans(rng, rng.standard_normal(n).astype(dtype)),  # NaNs of other payloads
    ]


def _with_nans(rng: np.random.Generator, values: np.ndarray) -> np.ndarray:
    """`values` with three of them NaNs of random sign and payload."""
    single = values.dtype == np.float32
    bits = values.view(np.uint32 if single else np.uint64)
    exponent, fraction = (0x7F800000, 23) if single else (0x7FF0000000000000, 52)
    sign = 1 << (values.dtype.itemsize * 8 - 1)
    for k in rng.integers(0, values.size, 3):
        payload = int(rng.integers(1, 1 << fraction))
        bits[k] = exponent | payload | (sign if rng.integers(0, 2) else 0)
    return values


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_contiguous_positions_shortcut_adds_as_the_levels_do(dtype: Any) -> None:
    rng = np.random.default_rng(3)
    for n in SIZES:
        positions = np.arange(n)
        power = max(4, nll_sum._ceil_log2(n) // nll_sum._LEVELS)
        for values in _pools(rng, n, dtype):
            general = nll_sum._cascade_sum(positions, values, power)
            short = nll_sum.nll_cascade_sum(positions, values, n)
            assert short.dtype == general.dtype and short.shape == general.shape == ()
            assert short.tobytes() == general.tobytes(), (n, values[:4])


@pytest.mark.parametrize("batch", [1, 17, 64, 300, 1024, 5000])
@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_nll_loss_is_torchs(torch: Any, batch: int, reduction: str) -> None:
    import gradsh.torch as gt

    rng = np.random.default_rng(batch)
    logits = (rng.standard_normal((batch, 7)) * 4).astype(np.float32)
    target = rng.integers(0, 7, batch)
    expected = torch.nn.functional.cross_entropy(
        torch.from_numpy(logits), torch.from_numpy(target), reduction=reduction)
    got = gt.nn.functional.cross_entropy(
        gt.from_numpy(logits), gt.from_numpy(target), reduction=reduction)
    assert got.numpy().tobytes() == expected.numpy().tobytes()
