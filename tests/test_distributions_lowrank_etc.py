"""torch.distributions' LowRankMultivariateNormal, VonMises, LKJCholesky, Wishart and
MixtureSameFamily against
PyTorch after the same seed: samples bit for bit (VonMises's rejection sampler, LKJ's onion
method, Wishart's Bartlett draws and retries, a mixture's component draws), log_prob, entropy, the moments, the gradients
of log_prob and entropy, expand, reprs (float32 and float64)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gradsh.torch as gt


def _lowrank(torch, dtype):
    torch.manual_seed(3)
    loc = torch.randn(2, 4, dtype=dtype, requires_grad=True)
    factor = torch.randn(4, 2, dtype=dtype, requires_grad=True)
    diag = (torch.rand(2, 4, dtype=dtype) + 0.5).requires_grad_()
    d = torch.distributions.LowRankMultivariateNormal(loc, factor, diag)
    s = d.rsample((3,))
    lp, entropy = d.log_prob(s), d.entropy()
    (lp.sum() + entropy.sum()).backward()
    return ([s, lp, entropy, d.variance, d.scale_tril, d.covariance_matrix, d.precision_matrix,
             loc.grad, factor.grad, diag.grad, d.expand((5, 2)).sample()],
            [repr(d), d.batch_shape, d.event_shape])


def _von_mises(torch, dtype):
    torch.manual_seed(5)
    loc = torch.tensor([0.0, 1.0, -2.0], dtype=dtype, requires_grad=True)
    kappa = torch.tensor([0.5, 4.0, 1e-6], dtype=dtype, requires_grad=True)
    d = torch.distributions.VonMises(loc, kappa)
    s = d.sample((4,))
    lp = d.log_prob(s)
    lp.sum().backward()
    return ([s, lp, d.variance, loc.grad, kappa.grad, d.expand((2, 3)).sample(), d.mean],
            [repr(d)])


def _lkj(torch, dtype):
    torch.manual_seed(7)
    concentration = torch.tensor([0.5, 2.0], dtype=dtype, requires_grad=True)
    d = torch.distributions.LKJCholesky(4, concentration)
    s = d.sample((3,))
    lp = d.log_prob(s)
    lp.sum().backward()
    return ([s, lp, concentration.grad, torch.distributions.LKJCholesky(3).sample(),
             d.expand((5, 2)).sample()], [repr(d), d.batch_shape, d.event_shape])


def _wishart(torch, dtype):
    torch.manual_seed(11)
    a = torch.randn(3, 3, dtype=dtype)
    cov = (a @ a.T + torch.eye(3, dtype=dtype)).requires_grad_()
    df = torch.tensor([4.0, 6.5], dtype=dtype, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = torch.distributions.Wishart(df, covariance_matrix=cov)
        s = d.rsample((2,)).detach()
        lp, entropy = d.log_prob(s), d.entropy()
        (lp.sum() + entropy.sum()).backward()
        five = torch.tensor(5.0, dtype=dtype)
        by_precision = torch.distributions.Wishart(five, precision_matrix=cov.detach())
        by_scale = torch.distributions.Wishart(five, scale_tril=torch.linalg.cholesky(
            cov.detach()))
        values = [s, lp, entropy, cov.grad, df.grad, d.mean, d.variance, d.mode,
                  by_precision.sample(), by_scale.sample(), by_precision.precision_matrix,
                  d.expand((3, 2)).sample()]
    return values, [repr(d), d.batch_shape, d.event_shape, [str(w.message) for w in caught]]


def _mixture(torch, dtype):
    torch.manual_seed(13)
    D = torch.distributions  # noqa: N806
    logits = torch.randn(4, dtype=dtype, requires_grad=True)
    loc = torch.randn(4, dtype=dtype, requires_grad=True)
    scale = (torch.rand(4, dtype=dtype) + 0.3).requires_grad_()
    gmm = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(loc, scale))
    x = torch.linspace(-2, 2, 5, dtype=dtype)
    lp = gmm.log_prob(x)
    (lp.sum() + gmm.mean + gmm.variance + gmm.cdf(x).sum()).backward()
    batched = D.MixtureSameFamily(
        D.Categorical(probs=torch.rand(3, 2, dtype=dtype)),
        D.Independent(D.Normal(torch.randn(3, 2, 2, dtype=dtype),
                               torch.rand(3, 2, 2, dtype=dtype) + 0.5), 1))
    shared = D.MixtureSameFamily(D.Categorical(torch.ones(2, dtype=dtype)),
                                 D.Normal(torch.zeros(3, 2, dtype=dtype),
                                          torch.ones(3, 2, dtype=dtype)))
    values = [gmm.sample((6,)), lp, gmm.mean, gmm.variance, logits.grad, loc.grad, scale.grad,
              batched.sample((2,)), batched.log_prob(torch.zeros(2, 3, 2, dtype=dtype)),
              batched.mean, batched.variance, batched.expand((4, 3)).sample(), shared.mean,
              shared.variance]
    return values, [repr(gmm), repr(batched), gmm.batch_shape, batched.batch_shape,
                    batched.event_shape, gmm.support, gmm.has_rsample]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", [_lowrank, _von_mises, _lkj, _wishart, _mixture])
def test_matches_pytorch_after_a_seed(torch, case, dtype):
    their_values, their_rest = case(torch, getattr(torch, dtype))
    our_values, our_rest = case(gt, getattr(gt, dtype))
    assert [str(x) for x in our_rest] == [str(x) for x in their_rest]
    for i, (ours, theirs) in enumerate(zip(our_values, their_values, strict=True)):
        ours, theirs = ours.detach().numpy(), theirs.detach().numpy()
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, i
        if case is _lkj and i == 1 and dtype == "float64":  # (lgamma's last bit)
            np.testing.assert_allclose(ours, theirs, rtol=1e-14)
        else:
            assert np.array_equal(ours, theirs, equal_nan=True), i


def test_argument_errors_match(torch):
    def calls(m):
        D = m.distributions  # noqa: N806
        return [
            lambda: D.LowRankMultivariateNormal(m.tensor(0.0), m.ones(1, 1), m.ones(1)),
            lambda: D.LowRankMultivariateNormal(m.zeros(3), m.ones(3), m.ones(3)),
            lambda: D.LowRankMultivariateNormal(m.zeros(3), m.ones(2, 1), m.ones(3)),
            lambda: D.LowRankMultivariateNormal(m.zeros(3), m.ones(3, 1), m.ones(2)),
            lambda: D.LowRankMultivariateNormal(m.zeros(2, 3), m.ones(3, 3, 1), m.ones(3)),
            lambda: D.LKJCholesky(1),
            lambda: D.Wishart(2.0, m.eye(3)),
            lambda: D.Wishart(5.0),
            lambda: D.Wishart(5.0, m.ones(3)),
            lambda: D.VonMises(0.0, -1.0, validate_args=True),
            lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(m.zeros(2), 1.0)),
            lambda: D.MixtureSameFamily(D.Categorical(m.ones(2)), m.zeros(2)),
            lambda: D.MixtureSameFamily(D.Categorical(m.ones(3)), D.Normal(m.zeros(2), 1.0)),
            lambda: D.MixtureSameFamily(D.Categorical(m.ones(2, 2)),
                                        D.Normal(m.zeros(3, 2), 1.0)),
        ]

    from call_outcomes import outcomes

    assert outcomes(calls(gt)) == outcomes(calls(torch))
