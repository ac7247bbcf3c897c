"""torch.distributions under gradsh against PyTorch: the same program, run on both, must show the
same samples after a seed (bit for bit), log-probabilities, entropies, moments, gradients,
grad_fn names, reprs and error texts."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _leaf(T: Any, values: Any, dtype: Any = None) -> Any:
    return T.tensor(values, dtype=dtype or T.float32, requires_grad=True)


# Each case builds a distribution from leaves that require grad: (distribution, leaves).
CASES: dict[str, Callable[[Any], tuple[Any, list[Any]]]] = {
    "normal": lambda T: (lambda m, s: (T.distributions.Normal(m, s), [m, s]))(
        _leaf(T, [0.0, 1.5, -2.0]), _leaf(T, [1.0, 0.5, 3.0])),
    "normal_scalar": lambda T: (T.distributions.Normal(0.0, 1.0), []),
    "normal_f64": lambda T: (lambda m, s: (T.distributions.Normal(m, s), [m, s]))(
        _leaf(T, [0.3, -1.0], T.float64), _leaf(T, [2.0, 0.7], T.float64)),
    "bernoulli_probs": lambda T: (lambda p: (T.distributions.Bernoulli(probs=p), [p]))(
        _leaf(T, [0.1, 0.5, 0.9])),
    "bernoulli_logits": lambda T: (lambda lg: (T.distributions.Bernoulli(logits=lg), [lg]))(
        _leaf(T, [-1.0, 0.0, 2.5])),
    "categorical_probs": lambda T: (lambda p: (T.distributions.Categorical(probs=p), [p]))(
        _leaf(T, [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])),
    "categorical_logits": lambda T: (lambda lg: (T.distributions.Categorical(logits=lg), [lg]))(
        _leaf(T, [1.0, -0.5, 0.25, 2.0])),
    "one_hot": lambda T: (lambda lg: (T.distributions.OneHotCategorical(logits=lg), [lg]))(
        _leaf(T, [[1.0, -0.5, 0.25], [0.0, 0.0, 3.0]])),
    "uniform": lambda T: (lambda lo, hi: (T.distributions.Uniform(lo, hi), [lo, hi]))(
        _leaf(T, [0.0, -1.0]), _leaf(T, [1.0, 4.0])),
    "exponential": lambda T: (lambda r: (T.distributions.Exponential(r), [r]))(
        _leaf(T, [0.5, 2.0, 7.0])),
    "laplace": lambda T: (lambda m, s: (T.distributions.Laplace(m, s), [m, s]))(
        _leaf(T, [0.0, 3.0]), _leaf(T, [1.0, 0.25])),
    "gamma": lambda T: (lambda a, r: (T.distributions.Gamma(a, r), [a, r]))(
        _leaf(T, [0.5, 1.0, 3.0, 20.0]), _leaf(T, [1.0, 2.0, 0.5, 1.5])),
    "gamma_f64": lambda T: (lambda a, r: (T.distributions.Gamma(a, r), [a, r]))(
        _leaf(T, [0.3, 4.5], T.float64), _leaf(T, [1.0, 2.0], T.float64)),
    "chi2": lambda T: (lambda k: (T.distributions.Chi2(k), [k]))(_leaf(T, [1.0, 4.0])),
    "beta": lambda T: (lambda a, b: (T.distributions.Beta(a, b), [a, b]))(
        _leaf(T, [0.5, 2.0, 5.0]), _leaf(T, [0.5, 3.0, 1.0])),
    "dirichlet": lambda T: (lambda c: (T.distributions.Dirichlet(c), [c]))(
        _leaf(T, [[0.5, 1.0, 2.0], [3.0, 3.0, 3.0]])),
    "poisson": lambda T: (lambda r: (T.distributions.Poisson(r), [r]))(
        _leaf(T, [0.5, 4.0, 15.0, 80.0])),
    "binomial": lambda T: (lambda p: (T.distributions.Binomial(10, probs=p), [p]))(
        _leaf(T, [0.1, 0.5, 0.95])),
    "binomial_big": lambda T: (lambda lg: (T.distributions.Binomial(
        T.tensor([100.0, 40.0]), logits=lg), [lg]))(_leaf(T, [0.3, -1.2])),
    "geometric": lambda T: (lambda p: (T.distributions.Geometric(p), [p]))(
        _leaf(T, [0.2, 0.7])),
    "multinomial": lambda T: (lambda p: (T.distributions.Multinomial(5, probs=p), [p]))(
        _leaf(T, [0.2, 0.3, 0.5])),
    "independent": lambda T: (lambda m, s: (T.distributions.Independent(
        T.distributions.Normal(m, s), 1), [m, s]))(
        _leaf(T, [[0.0, 1.0], [2.0, 3.0]]), _leaf(T, [[1.0, 2.0], [0.5, 0.1]])),
    "mvn_scale_tril": lambda T: (lambda m, L: (T.distributions.MultivariateNormal(
        m, scale_tril=L), [m, L]))(
        _leaf(T, [0.5, -1.0]), _leaf(T, [[1.0, 0.0], [0.3, 2.0]])),
    "mvn_covariance": lambda T: (lambda m, c: (T.distributions.MultivariateNormal(
        m, covariance_matrix=c), [m, c]))(
        _leaf(T, [[0.0, 1.0, 2.0]]), _leaf(T, [[2.0, 0.5, 0.1], [0.5, 1.0, 0.2],
                                               [0.1, 0.2, 3.0]])),
}

# Samples and their gradients are PyTorch's bit for bit; values that go through lgamma, digamma
# and the other special functions may differ in the last float32 bit (docs in special_math).
EXACT = ("sample", "rsample", "expanded_sample", "enumerate")
EXACT_GRADS = ("normal", "uniform", "laplace", "exponential", "mvn_scale_tril")
# A covariance matrix's Cholesky factor is LAPACK's (NumPy's OpenBLAS, PyTorch's MKL): its float32
# bits, and the samples made with it, can differ in the last place.
CHOLESKY = ("mvn_covariance",)


def _name(fn: Any) -> str | None:
    return None if fn is None else type(fn).__name__


def _try(record: dict[str, Any], key: str, compute: Callable[[], Any]) -> Any:
    try:
        value = compute()
    except (NotImplementedError, ValueError, RuntimeError) as error:
        record[key] = ("raises", type(error).__name__, str(error))
        return None
    record[key] = value
    return value


def observe(T: Any, case: str) -> dict[str, Any]:
    """What a program sees of one distribution: run on PyTorch or on gradsh."""
    T.manual_seed(20200910)
    d, leaves = CASES[case](T)
    record: dict[str, Any] = {"repr": repr(d), "batch_shape": tuple(d.batch_shape),
                              "event_shape": tuple(d.event_shape),
                              "has_rsample": d.has_rsample}
    _try(record, "support", lambda: repr(d.support))
    record["sample"] = d.sample((3,))
    if d.has_rsample:
        r = d.rsample((2,))
        record["rsample"] = r
        record["rsample_fn"] = _name(r.grad_fn)
        if leaves and r.requires_grad:
            grads = T.autograd.grad(r.sum(), leaves, allow_unused=True, retain_graph=True)
            for i, g in enumerate(grads):
                record[f"rsample_grad{i}"] = g
    x = d.sample((2,))
    log_prob = d.log_prob(x)
    record["log_prob"] = log_prob
    record["log_prob_fn"] = _name(log_prob.grad_fn)
    if leaves:
        for i, g in enumerate(T.autograd.grad(log_prob.sum(), leaves, allow_unused=True,
                                              retain_graph=True)):
            record[f"log_prob_grad{i}"] = g
    for attribute in ("mean", "mode", "variance", "stddev"):
        _try(record, attribute, lambda a=attribute: getattr(d, a))
    entropy = _try(record, "entropy", d.entropy)
    if entropy is not None:
        record["entropy_fn"] = _name(entropy.grad_fn)
    _try(record, "cdf", lambda: d.cdf(x))
    _try(record, "icdf", lambda: d.icdf(T.full(d.batch_shape, 0.3)))
    _try(record, "enumerate", lambda: d.enumerate_support())
    expanded = d.expand((2,) + tuple(d.batch_shape))
    record["expanded_repr"] = repr(expanded)
    record["expanded_sample"] = expanded.sample()
    return record


def _plain(value: Any) -> Any:
    if isinstance(value, (gtorch.Tensor,)) or type(value).__name__ == "Tensor":
        return value.detach().numpy()
    return value


@pytest.mark.parametrize("case", sorted(CASES))
def test_distribution_matches_torch(torch: Any, case: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = observe(torch, case)
        got = observe(gtorch, case)
    assert list(got) == list(expected)
    for key, want in expected.items():
        have = got[key]
        want, have = _plain(want), _plain(have)
        if isinstance(want, np.ndarray):
            assert isinstance(have, np.ndarray), key
            assert have.dtype == want.dtype and have.shape == want.shape, key
            exact = key in EXACT and case not in CHOLESKY
            if exact or (key.startswith("rsample_grad") and case in EXACT_GRADS):
                np.testing.assert_array_equal(have, want, err_msg=key)
            else:
                np.testing.assert_allclose(have, want, rtol=2e-6, atol=1e-7, err_msg=key)
        else:
            assert have == want, key
