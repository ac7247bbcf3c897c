"""The margin, embedding and likelihood losses (F.poisson_nll_loss ... F.triplet_margin_loss,
nn.PairwiseDistance) against PyTorch: values, gradients, the grad_fn graph (the composite losses
record ATen's own operations), and the error texts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gradcheck import run_parity

import gradsh.torch as gt

RNG = np.random.default_rng(11)
X = RNG.standard_normal((4, 5)).astype(np.float32)
Y = RNG.standard_normal((4, 5)).astype(np.float32)
Z = RNG.standard_normal((4, 5)).astype(np.float32)
SIGNS = np.sign(RNG.standard_normal((4, 5))).astype(np.float32)
POS = (np.abs(Y) + 0.1).astype(np.float32)
X64 = X.astype(np.float64)


def NN(m: Any) -> Any:
    """torch.nn, or gradsh's (the parity runner hands gradsh's engine ops as `m`)."""
    return m.nn if getattr(m, "__name__", "") in ("torch", "gradsh.torch") else gt.nn


def F(m: Any) -> Any:
    return NN(m).functional


CASES = [
    ("poisson", lambda m, x: F(m).poisson_nll_loss(x, m.tensor(POS)), [X]),
    ("poisson_full", lambda m, x: F(m).poisson_nll_loss(x.abs() + 0.5, m.tensor(POS * 3),
                                                        log_input=False, full=True), [X]),
    ("poisson_sum", lambda m, x: F(m).poisson_nll_loss(x, m.tensor(POS), reduction="sum"), [X]),
    ("gaussian", lambda m, x, v: F(m).gaussian_nll_loss(x, m.tensor(Y), v.abs() + 0.1), [X, Z]),
    ("gaussian_full_none", lambda m, x: F(m).gaussian_nll_loss(
        x, m.tensor(Y), m.ones(4, 1), full=True, reduction="none"), [X]),
    ("soft_margin", lambda m, x: F(m).soft_margin_loss(x, m.tensor(SIGNS)), [X]),
    ("soft_margin_double", lambda m, x: F(m).soft_margin_loss(x, m.tensor(SIGNS.astype(
        np.float64)), reduction="sum"), [X64]),
    ("soft_margin_none", lambda m, x: F(m).soft_margin_loss(x, m.tensor(SIGNS[0]),
                                                            reduction="none"), [X]),
    ("multilabel_soft_margin", lambda m, x: F(m).multilabel_soft_margin_loss(
        x, m.tensor((SIGNS > 0).astype(np.float32)), weight=m.arange(5.0)), [X]),
    ("hinge_embedding", lambda m, x: F(m).hinge_embedding_loss(x, m.tensor(SIGNS), margin=0.5),
     [X]),
    ("cosine_embedding", lambda m, a, b: F(m).cosine_embedding_loss(
        a, b, m.tensor([1.0, -1.0, 1.0, -1.0]), margin=0.1), [X, Y]),
    ("cosine_embedding_0d", lambda m, a, b: F(m).cosine_embedding_loss(
        a[0], b[0], m.tensor(-1.0), reduction="sum"), [X, Y]),
    ("margin_ranking", lambda m, a, b: F(m).margin_ranking_loss(
        a[0], b[0], m.tensor(SIGNS[0]), margin=0.2), [X, Y]),
    ("multi_margin", lambda m, x: F(m).multi_margin_loss(x, m.tensor([1, 0, 4, 2])), [X]),
    ("multi_margin_p2_weight", lambda m, x: F(m).multi_margin_loss(
        x, m.tensor([1, 0, 4, 2]), p=2, margin=0.5, weight=m.arange(1.0, 6.0),
        reduction="sum"), [X]),
    ("multi_margin_none", lambda m, x: F(m).multi_margin_loss(x, m.tensor([3, 3, 0, 1]),
                                                              reduction="none"), [X]),
    ("multi_margin_vector", lambda m, x: F(m).multi_margin_loss(x[1], m.tensor(2)), [X]),
    ("pairwise_distance", lambda m, a, b: F(m).pairwise_distance(a, b), [X, Y]),
    ("pairwise_distance_p1", lambda m, a, b: NN(m).PairwiseDistance(p=1.0, keepdim=True)(a, b),
     [X, Y]),
    ("triplet", lambda m, a, p, n: F(m).triplet_margin_loss(a, p, n), [X, Y, Z]),
    ("triplet_swap", lambda m, a, p, n: NN(m).TripletMarginLoss(margin=0.5, swap=True)(a, p, n),
     [X, Y, Z]),
    ("modules", lambda m, x, y: (NN(m).SoftMarginLoss()(x, m.tensor(SIGNS))
                                 + NN(m).HingeEmbeddingLoss(margin=2.0)(x, m.tensor(SIGNS))
                                 + NN(m).CosineEmbeddingLoss()(x, y, m.ones(4))
                                 + NN(m).PoissonNLLLoss(log_input=False)(x.abs(), m.tensor(POS))
                                 + NN(m).MultiMarginLoss(p=2)(x, m.tensor([0, 1, 2, 3]))), [X, Y]),
]


@pytest.mark.parametrize("f, arrays", [pytest.param(f, a, id=n) for n, f, a in CASES])
def test_loss_matches_torch(torch: Any, f: Any, arrays: list[np.ndarray]) -> None:
    run_parity(torch, f, arrays)


# Errors, raised by the engine (RuntimeError) or by F's Python code (ValueError): type and text
ERRORS = [
    ("soft_margin_target_grad", lambda m, x, t: F(m).soft_margin_loss(x, t), [X, Y]),
    ("soft_margin_shape", lambda m, x: F(m).soft_margin_loss(x[0], m.tensor(SIGNS)), [X]),
    ("multi_margin_range", lambda m, x: F(m).multi_margin_loss(x, m.tensor([1, 0, 5, 2])), [X]),
    ("multi_margin_target_shape", lambda m, x: F(m).multi_margin_loss(x, m.tensor([1, 0])),
     [X]),
    ("multi_margin_3d", lambda m, x: F(m).multi_margin_loss(x.view(2, 2, 5), m.tensor([1, 0])),
     [X]),
    ("multi_margin_weight_size", lambda m, x: F(m).multi_margin_loss(
        x, m.tensor([1, 0, 2, 3]), weight=m.ones(3)), [X]),
    ("multi_margin_p3", lambda m, x: F(m).multi_margin_loss(x, m.tensor([1, 0, 2, 3]), p=3),
     [X]),
    ("cosine_embedding_dims", lambda m, a, b: F(m).cosine_embedding_loss(a, b, m.tensor(1.0)),
     [X, Y]),
    ("margin_ranking_dims", lambda m, a, b: F(m).margin_ranking_loss(a, b[0], m.tensor(1.0)),
     [X, Y]),
    ("triplet_margin_zero", lambda m, a: F(m).triplet_margin_loss(a, a, a, margin=0.0), [X]),
    ("bad_reduction", lambda m, x: F(m).soft_margin_loss(x, m.tensor(SIGNS), reduction="avg"),
     [X]),
    ("gaussian_negative_var", lambda m, x: F(m).gaussian_nll_loss(x, x, -m.ones(4, 5)), [X]),
    ("gaussian_var_size", lambda m, x: F(m).gaussian_nll_loss(x, x, m.ones(3)), [X]),
    # nll_loss_nd's batch check, then the nll_loss_forward meta's in its order
    ("nll_multi_target", lambda m, x: F(m).nll_loss(x, m.zeros(4, 1, dtype=m.long)), [X]),
    ("nll_multi_target_float", lambda m, x: F(m).nll_loss(x, m.zeros(4, 1)), [X]),
    ("nll_1d_input_long_target", lambda m, x: F(m).nll_loss(x[0], m.zeros(3, dtype=m.long)),
     [X]),
    ("nll_1d_input_2d_target", lambda m, x: F(m).nll_loss(x[0], m.zeros(1, 1, dtype=m.long)),
     [X]),
    ("nll_0d_target_batch", lambda m, x: F(m).nll_loss(x, m.tensor(0)), [X]),
    ("nll_weight_size", lambda m, x: F(m).nll_loss(x, m.zeros(4, dtype=m.long),
                                                   weight=m.ones(3)), [X]),
    ("cross_entropy_multi_target", lambda m, x: F(m).cross_entropy(
        x, m.zeros(4, 1, dtype=m.long)), [X]),
    ("cross_entropy_1d_input_target", lambda m, x: F(m).cross_entropy(
        x[0], m.zeros(2, dtype=m.long)), [X]),
    # the composite's broadcasts: (pos_weight - 1) * target, then loss.sub_ / loss.mul_(weight)
    ("bce_logits_pos_weight_size", lambda m, x: F(m).binary_cross_entropy_with_logits(
        x, m.ones(4, 5), pos_weight=m.ones(3)), [X]),
    ("bce_logits_pos_weight_grows", lambda m, x: F(m).binary_cross_entropy_with_logits(
        x, m.ones(4, 5), pos_weight=m.ones(2, 4, 5)), [X]),
    ("bce_logits_weight_size", lambda m, x: F(m).binary_cross_entropy_with_logits(
        x, m.ones(4, 5), weight=m.ones(3)), [X]),
    ("bce_logits_weight_grows", lambda m, x: F(m).binary_cross_entropy_with_logits(
        x, m.ones(4, 5), weight=m.ones(2, 1, 5), pos_weight=m.ones(5)), [X]),
]


@pytest.mark.parametrize("f, arrays", [pytest.param(f, a, id=n) for n, f, a in ERRORS])
def test_loss_errors_match_torch(torch: Any, f: Any, arrays: list[np.ndarray]) -> None:
    outcomes = []
    for lib in (torch, gt):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        with pytest.raises((RuntimeError, ValueError)) as caught:
            f(lib, *tensors)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[1] == outcomes[0]


def test_multi_margin_loss_is_bit_for_bit(torch: Any) -> None:
    """ATen's kernel order: each row's terms added in the dtype, the batch in float64."""
    x = RNG.standard_normal((64, 10)).astype(np.float32)
    target = RNG.integers(0, 10, 64)
    for kwargs in ({}, {"p": 2, "margin": 0.3}, {"reduction": "sum"}, {"reduction": "none"}):
        values = []
        for lib in (torch, gt):
            xt = lib.tensor(x, requires_grad=True)
            loss = lib.nn.functional.multi_margin_loss(xt, lib.tensor(target), **kwargs)
            loss.sum().backward()
            values.append((loss.detach().numpy(), xt.grad.numpy()))
        for theirs, ours in zip(values[0], values[1], strict=True):
            assert np.array_equal(theirs, ours)


def _reduction_outcomes(m: Any) -> list[str]:
    """Every loss PyTorch hands ATen a reduction enum for (_Reduction.get_enum), under the
    deprecated 'elementwise_mean' (a warning, then 'mean') and an unknown reduction (a
    ValueError); huber_loss's weighted form, which checks the reduction itself; the warnings
    each call raises. Before: 'elementwise_mean' was a ValueError for l1, mse, smooth_l1,
    huber, nll, cross_entropy, bce (with logits), kl_div, and multilabel_margin_loss took any
    reduction as 'mean'."""
    import warnings

    f = NN(m).functional
    x, y = m.tensor(X), m.tensor(Y)
    t, b = m.tensor([1, 0, 3, 4]), m.tensor((X > 0).astype(np.float32))
    calls = {
        "l1": lambda r: f.l1_loss(x, y, reduction=r),
        "mse": lambda r: f.mse_loss(x, y, reduction=r),
        "smooth_l1": lambda r: f.smooth_l1_loss(x, y, reduction=r),
        "huber": lambda r: f.huber_loss(x, y, reduction=r, delta=0.5),
        "huber_weighted": lambda r: f.huber_loss(x, y, reduction=r, weight=m.tensor(POS)),
        "nll": lambda r: f.nll_loss(x.log_softmax(1), t, reduction=r),
        "cross_entropy": lambda r: f.cross_entropy(x, t, reduction=r),
        "bce": lambda r: f.binary_cross_entropy(x.sigmoid(), b, reduction=r),
        "bce_logits": lambda r: f.binary_cross_entropy_with_logits(x, b, reduction=r),
        "kl_div": lambda r: f.kl_div(x.log_softmax(1), y.softmax(1), reduction=r),
        "kl_module": lambda r: NN(m).KLDivLoss(reduction=r)(x.log_softmax(1), y.softmax(1)),
        "multilabel_margin": lambda r: f.multilabel_margin_loss(
            x, m.tensor([[3, 0, -1, 1, 2]] * 4), reduction=r),
        "soft_margin": lambda r: f.soft_margin_loss(x, m.tensor(SIGNS), reduction=r),
        "poisson": lambda r: f.poisson_nll_loss(x, m.tensor(POS), reduction=r),
    }
    lines = []
    for name, call in calls.items():
        for reduction in ("elementwise_mean", "bogus"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    lines.append(f"{name} {reduction} {call(reduction).item():.6f}")
                except ValueError as e:
                    lines.append(f"{name} {reduction} ValueError: {e}")
            lines += [f"  warning: {w.message}" for w in caught]
    return lines


def test_reduction_names_match_torch(torch: Any) -> None:
    assert _reduction_outcomes(gt) == _reduction_outcomes(torch)
