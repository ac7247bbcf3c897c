"""torch.geqrf, torch.linalg.householder_product and nn.utils.parametrizations.orthogonal
against PyTorch: geqrf's and orgqr's values bit for bit where MKL is loaded (their strides too),
householder_product's gradient within rounding and against finite differences, the argument
errors; orthogonal's weights bit for bit through SGD steps for the matrix_exp and Cayley maps
(within rounding for Householder, whose backward is not ATen's), its reprs, names and errors."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes
from gradcheck import check_grads

import gradsh.torch as gt
from gradsh.engine.vecmath import lapack

SHAPES = [(5, 3), (4, 4), (2, 6, 3), (7, 2)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_geqrf_and_householder_product(torch, shape, dtype):
    rng = np.random.default_rng(len(shape) * shape[-1])
    a = rng.standard_normal(shape).astype(dtype)
    their_a, their_tau = torch.geqrf(torch.tensor(a))
    our_a, our_tau = gt.geqrf(gt.tensor(a))
    exact = lapack.available(np.dtype(dtype))
    compare = np.array_equal if exact else (lambda x, y: np.allclose(x, y, atol=1e-5))
    assert compare(our_a.numpy(), their_a.numpy()) and compare(our_tau.numpy(), their_tau.numpy())
    assert our_a.stride() == their_a.stride()
    k = max(1, shape[-1] - 1)
    results = []
    grad = rng.standard_normal(shape).astype(dtype)
    for m, factors in ((torch, their_a), (gt, our_a)):
        x = m.tensor(factors.numpy(), requires_grad=True)
        tau = m.tensor(their_tau.numpy()[..., :k], requires_grad=True)
        q = m.linalg.householder_product(x, tau)
        q.backward(m.tensor(grad))
        results.append((q, x.grad.numpy(), tau.grad.numpy()))
    (their_q, *their_grads), (our_q, *our_grads) = results
    assert type(our_q.grad_fn).__name__ == "LinalgHouseholderProductBackward0"
    assert compare(our_q.detach().numpy(), their_q.detach().numpy())
    assert our_q.stride() == their_q.stride()
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for ours, theirs in zip(our_grads, their_grads, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


def test_householder_product_finite_differences():
    rng = np.random.default_rng(4)
    check_grads(gt.linalg.householder_product, rng.standard_normal((5, 3)),
                rng.standard_normal(2))


def _outcomes(torch):
    hp = torch.linalg.householder_product
    a = torch.ones(5, 3, requires_grad=True)
    return outcomes([
        lambda: hp(torch.ones(3, 5), torch.ones(2)),
        lambda: hp(torch.ones(5, 3), torch.ones(4)),
        lambda: hp(torch.ones(5), torch.ones(4)),
        lambda: hp(torch.ones(2, 5, 3), torch.ones(3, 2)),
        lambda: hp(torch.ones(5, 3), torch.ones(2).double()),
        lambda: hp(torch.ones(5, 3).int(), torch.ones(2).int()),
        lambda: torch.orgqr(torch.ones(4, 2), torch.zeros(2)),
        lambda: torch.geqrf(torch.ones(5)),
        lambda: torch.geqrf(a)[0].sum().backward(),
        lambda: torch.geqrf(a)[1].grad_fn.name(),
    ])


def test_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_outcomes(torch), _outcomes(gt), strict=True)):
        assert ours == theirs, i


def _train(torch, shape, orthogonal_map, trivialization):
    torch.manual_seed(0)
    layer = torch.nn.Linear(shape[1], shape[0], bias=False)
    layer = torch.nn.utils.parametrizations.orthogonal(
        layer, orthogonal_map=orthogonal_map, use_trivialization=trivialization)
    seen = [repr(layer), sorted(n for n, _ in layer.named_parameters()),
            sorted(n for n, _ in layer.named_buffers())]
    weights = [layer.weight.detach().numpy().copy()]
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    x = torch.randn(4, shape[1])
    for _ in range(3):
        opt.zero_grad()
        ((layer(x) ** 2).sum() + layer.weight[0, 0]).backward()
        opt.step()
        weights.append(layer.weight.detach().numpy().copy())
    return seen, weights


@pytest.mark.parametrize("trivialization", [True, False])
@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_orthogonal_trains_as_pytorch(torch, shape, orthogonal_map, trivialization):
    their_seen, their_weights = _train(torch, shape, orthogonal_map, trivialization)
    our_seen, our_weights = _train(gt, shape, orthogonal_map, trivialization)
    assert our_seen == their_seen
    householder = orthogonal_map == "householder" or (orthogonal_map is None
                                                       and shape[0] != shape[1])
    for step, (ours, theirs) in enumerate(zip(our_weights, their_weights, strict=True)):
        if householder and step > 0:
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)
        else:
            assert np.array_equal(ours, theirs), step
    final = our_weights[-1].astype(np.float64)
    gram = final @ final.T if shape[0] <= shape[1] else final.T @ final
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-5)


def _orthogonal_errors(torch):
    P = torch.nn.utils.parametrizations.orthogonal
    return outcomes([
        lambda: P(torch.nn.Linear(3, 3), name="nothing"),
        lambda: P(torch.nn.Linear(3, 3), name="bias"),
        lambda: P(torch.nn.Linear(3, 3), orthogonal_map="qr"),
        lambda: setattr(P(torch.nn.Linear(3, 3)), "weight", torch.eye(4)),
        lambda: setattr(P(torch.nn.Linear(3, 3), use_trivialization=False), "weight",
                        torch.eye(3)),
        lambda: P(torch.nn.Linear(3, 3)).parametrizations.weight[0].orthogonal_map,
    ])


def test_orthogonal_errors_match(torch):
    pairs = zip(_orthogonal_errors(torch), _orthogonal_errors(gt), strict=True)
    for i, (theirs, ours) in enumerate(pairs):
        assert ours == theirs, i
