"""torch.special's Bessel family against PyTorch: float32 and float64 bits over each kernel's
branches (small and large arguments, zero, negatives, infinities, NaN), integer promotion, the
float16/bfloat16 refusal and the missing gradient."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine import special_bessel

NAMES = special_bessel.__all__


def _inputs(dtype: Any) -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.concatenate([
        rng.uniform(-12, 12, 1500), rng.uniform(0, 2.5, 600), rng.uniform(-0.6, 0.6, 300),
        rng.standard_normal(300) * 40, [0.0, -0.0, 1e-6, 2.0, 5.0, 8.0, np.inf, -np.inf, np.nan],
    ]).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_bits_match_torch(torch: Any, name: str, dtype: str) -> None:
    x = _inputs(np.dtype(dtype))
    theirs = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    ours = getattr(gtorch.special, name)(gtorch.tensor(x)).numpy()
    np.testing.assert_array_equal(ours.view(f"u{x.itemsize}")[~np.isnan(theirs)],
                                  theirs.view(f"u{x.itemsize}")[~np.isnan(theirs)])
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))


def _behaviour(lib: Any, name: str) -> list[str]:
    fn = getattr(lib.special, name)
    seen = []
    x = lib.tensor([0.5, 3.0], requires_grad=True)
    y = fn(x)
    seen += [repr(y), repr(y.requires_grad), repr(y.grad_fn), repr(fn(lib.tensor([1, 4]))),
             repr(fn(lib.tensor(2.5, dtype=lib.float64)))]
    for action in (lambda: y.sum().backward(), lambda: fn(lib.ones(2, dtype=lib.float16)),
                   lambda: fn(lib.ones(1, dtype=lib.bfloat16)), lambda: fn(2.0)):
        try:
            seen.append(repr(action()))
        except Exception as error:  # noqa: BLE001  (the error is what is compared)
            seen.append(f"{type(error).__name__}: {error}")
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_behaviour_matches_torch(torch: Any, name: str) -> None:
    assert _behaviour(gtorch, name) == _behaviour(torch, name)
