"""The distributions PyTorch builds on Cauchy draws, transforms and gamma draws (Cauchy,
HalfCauchy, HalfNormal, Gumbel, StudentT, Pareto, Weibull, InverseGamma, FisherSnedecor,
Kumaraswamy, RelaxedBernoulli, RelaxedOneHotCategorical) and Tensor.cauchy_, against torch."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.test_distributions import CASES, EXACT, _leaf, _plain, observe


def _built(name: str, *values: list[float]) -> Callable[[Any], tuple[Any, list[Any]]]:
    """A case: distributions.NAME over leaves holding `values` that require grad."""
    def build(T: Any) -> tuple[Any, list[Any]]:
        leaves = [_leaf(T, v) for v in values]
        return getattr(T.distributions, name)(*leaves), leaves
    return build


MORE: dict[str, Callable[[Any], tuple[Any, list[Any]]]] = {
    "cauchy": _built("Cauchy", [0.0, 1.0, -3.0], [1.0, 2.0, 0.5]),
    "half_cauchy": _built("HalfCauchy", [1.0, 2.5]),
    "half_normal": _built("HalfNormal", [1.0, 2.5, 0.1]),
    "gumbel": _built("Gumbel", [1.0, 2.0], [2.0, 0.5]),
    "student_t": _built("StudentT", [0.5, 2.0, 3.5], [0.5, 0.0, 1.0], [1.5, 1.0, 0.2]),
    "pareto": _built("Pareto", [1.0, 2.0, 0.5], [1.5, 3.0, 0.8]),
    "weibull": _built("Weibull", [1.0, 2.0], [1.5, 0.7]),
    "inverse_gamma": _built("InverseGamma", [2.0, 3.5, 0.5], [1.0, 0.5, 2.0]),
    "fisher_snedecor": _built("FisherSnedecor", [2.0, 5.0, 1.0], [3.0, 6.0, 8.0]),
    "kumaraswamy": _built("Kumaraswamy", [2.0, 0.5], [1.5, 3.0]),
    "relaxed_bernoulli": _built("RelaxedBernoulli", [0.5, 2.0], [0.3, 0.9]),
    "relaxed_one_hot": _built("RelaxedOneHotCategorical", [0.7], [0.1, 0.2, 0.7]),
    "gumbel_scalar": lambda T: (T.distributions.Gumbel(0.0, 1.0), []),
    "cauchy_f64": lambda T: (lambda m, s: (T.distributions.Cauchy(m, s), [m, s]))(
        _leaf(T, [0.5, -1.0], T.float64), _leaf(T, [2.0, 0.7], T.float64)),
}
CASES.update(MORE)


@pytest.mark.parametrize("case", sorted(MORE))
def test_more_distributions_match_torch(torch: Any, case: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = observe(torch, case)
        got = observe(gtorch, case)
    assert list(got) == list(expected)
    for key, want in expected.items():
        want, have = _plain(want), _plain(got[key])
        if isinstance(want, np.ndarray):
            assert isinstance(have, np.ndarray) and have.dtype == want.dtype, key
            assert have.shape == want.shape, key
            if key in EXACT:
                np.testing.assert_array_equal(have, want, err_msg=key)
            else:
                np.testing.assert_allclose(have, want, rtol=2e-6, atol=1e-7, err_msg=key)
        else:
            assert have == want, key


def test_cauchy_fill_matches_torch(torch: Any) -> None:
    out = []
    for T in (torch, gtorch):
        T.manual_seed(7)
        x = T.empty(1000).cauchy_()
        y = T.empty(5, dtype=T.float64).cauchy_(1.5, 2.0)
        z = T.zeros(3, requires_grad=True).clone().cauchy_(median=-1.0)
        out.append((x.numpy(), y.numpy(), z.detach().numpy(), type(z.grad_fn).__name__,
                    T.rand(2).numpy()))
    for want, have in zip(*out):
        if isinstance(want, np.ndarray):
            np.testing.assert_array_equal(have, want)
        else:
            assert have == want == "CauchyBackward0"
