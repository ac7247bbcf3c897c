"""torch.linalg.lu_factor / lu_factor_ex / lu / lu_solve, torch.lu_unpack and the deprecated
torch.lu / torch.lu_solve against PyTorch: the factors, pivots, permutations and solutions bit
for bit (square, wide, tall and batched matrices, float32 and float64; MKL's getrf and getrs
as PyTorch calls them), the strides and grad_fn names, the gradients within rounding and
against finite differences, the argument errors and the deprecation warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from call_outcomes import outcomes
from gradcheck import check_grads

import gradsh.torch as gt
from gradsh.engine.vecmath import lapack

SHAPES = [(3, 3), (4, 4), (2, 3, 3), (3, 5), (5, 3), (2, 4, 2)]


def _factorizations(m, a, grads):
    x = m.tensor(a, requires_grad=True)
    lu, pivots = m.linalg.lu_factor(x)
    p, lower, upper = m.linalg.lu(x)
    g_lu, = m.autograd.grad(lu, x, m.tensor(grads[0]))
    g_pl, = m.autograd.grad((lower, upper), x, (m.tensor(grads[1]), m.tensor(grads[2])))
    p2, l2, u2 = m.lu_unpack(lu.detach().requires_grad_(), pivots)
    names = [type(t.grad_fn).__name__ for t in (lu, pivots, p, lower, l2)]
    return [lu, pivots, p, lower, upper, p2, l2, u2], [g_lu, g_pl], names, lu.stride()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_factors_and_gradients(torch, shape, dtype):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape).astype(dtype)
    k = min(shape[-2:])
    grads = [rng.standard_normal(shape).astype(dtype),
             rng.standard_normal(shape[:-1] + (k,)).astype(dtype),
             rng.standard_normal(shape[:-2] + (k, shape[-1])).astype(dtype)]
    theirs = _factorizations(torch, a, grads)
    ours = _factorizations(gt, a, grads)
    assert ours[2] == theirs[2] == ["LinalgLuFactorExBackward0", "NoneType", "NoneType",
                                    "LinalgLuBackward0", "LuUnpackBackward0"]
    assert ours[3] == theirs[3]
    exact = lapack.available(np.dtype(dtype))
    for mine, real in zip(ours[0], theirs[0], strict=True):
        assert str(mine.dtype) == str(real.dtype) and tuple(mine.shape) == tuple(real.shape)
        if exact:
            assert np.array_equal(mine.detach().numpy(), real.detach().numpy())
    tol = 2e-4 if dtype == np.float32 else 1e-10
    for mine, real in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(mine.numpy(), real.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lu_solve(torch, left, adjoint, dtype):
    rng = np.random.default_rng(int(left) * 2 + int(adjoint))
    a = rng.standard_normal((2, 4, 4)).astype(dtype)
    b = rng.standard_normal((2, 4, 3) if left else (2, 3, 4)).astype(dtype)
    g = rng.standard_normal(b.shape).astype(dtype)
    results = []
    for m in (torch, gt):
        lu, pivots = m.linalg.lu_factor(m.tensor(a))
        lu = lu.detach().requires_grad_()
        rhs = m.tensor(b, requires_grad=True)
        x = m.linalg.lu_solve(lu, pivots, rhs, left=left, adjoint=adjoint)
        x.backward(m.tensor(g))
        results.append((x, lu.grad, rhs.grad))
    (x1, *g1), (x2, *g2) = results
    assert type(x2.grad_fn).__name__ == "LinalgLuSolveBackward0"
    assert x2.stride() == x1.stride()
    if lapack.available(np.dtype(dtype)):
        assert np.array_equal(x2.detach().numpy(), x1.detach().numpy())
    tol = 2e-4 if dtype == np.float32 else 1e-10
    for mine, real in zip(g2, g1, strict=True):
        np.testing.assert_allclose(mine.numpy(), real.numpy(), rtol=tol, atol=tol)


def test_gradients_against_finite_differences():
    rng = np.random.default_rng(9)
    for shape in [(4, 4), (3, 5), (5, 3)]:
        check_grads(lambda a: gt.linalg.lu_factor(a)[0], rng.standard_normal(shape))
        check_grads(lambda a: gt.linalg.lu(a)[1] * 2 + gt.linalg.lu(a)[2].sum(),
                    rng.standard_normal((4, 4)))
    lu, pivots = gt.linalg.lu_factor(gt.tensor(rng.standard_normal((3, 3))))
    check_grads(lambda f, b: gt.linalg.lu_solve(f, pivots, b, adjoint=True),
                lu.numpy(), rng.standard_normal((3, 2)))


def _outcomes(torch):
    good = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    lu, piv = torch.linalg.lu_factor(good)
    blu, bpiv = torch.linalg.lu_factor(torch.stack([good, good * 2]))
    return outcomes([
        lambda: torch.linalg.lu_factor(torch.ones(3)),
        lambda: torch.linalg.lu_factor_ex(torch.ones(3)),
        lambda: torch.linalg.lu(torch.ones(3)),
        lambda: torch.linalg.lu(torch.ones(3, 3).int()),
        lambda: torch.linalg.lu(torch.ones(3, 3), pivot=False),
        lambda: torch.linalg.lu_factor(torch.zeros(3, 3)),
        lambda: torch.linalg.lu_factor(torch.zeros(2, 3, 4)),
        lambda: torch.linalg.lu_factor_ex(torch.zeros(3, 3)),
        lambda: torch.linalg.lu_factor_ex(torch.zeros(3, 3), check_errors=True),
        lambda: torch.linalg.lu_solve(lu, piv, torch.ones(4, 2)),
        lambda: torch.linalg.lu_solve(lu, piv, torch.ones(2, 2), left=False),
        lambda: torch.linalg.lu_solve(lu, piv, torch.ones(3, 2).double()),
        lambda: torch.linalg.lu_solve(lu, piv.long(), torch.ones(3, 2)),
        lambda: torch.linalg.lu_solve(lu[:2], piv, torch.ones(3, 2)),
        lambda: torch.linalg.lu_solve(lu, piv, torch.ones(3)),
        lambda: torch.linalg.lu_solve(blu, bpiv[:, :2], torch.ones(3, 2)),
        lambda: torch.linalg.lu_solve(blu, bpiv[:1], torch.ones(3, 2)),
        lambda: torch.linalg.lu_solve(blu, bpiv, torch.ones(4, 3, 2)),
        lambda: torch.linalg.lu_solve(blu.int(), bpiv, torch.ones(3, 2).int()),
        lambda: torch.lu_unpack(lu, piv.long()),
        lambda: torch.lu_unpack(lu, piv, unpack_data=False),
        lambda: torch.lu_unpack(lu, piv, unpack_pivots=False),
        lambda: torch.lu_unpack(lu, piv + 3),
        lambda: torch.lu_unpack(lu[0], piv),
        lambda: torch.linalg.lu_solve(lu, piv, torch.ones(2, 3), left=False, adjoint=True),
        lambda: torch.lu(good, get_infos=True),
        lambda: torch.lu_solve(torch.ones(3, 1), lu, piv),
    ])


def test_results_and_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_outcomes(torch), _outcomes(gt), strict=True)):
        assert ours == theirs, i


def _deprecations(torch):
    a = torch.eye(3) * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lu, piv = torch.lu(a)
        torch.lu(a)
        torch.lu_solve(torch.ones(3, 2), lu, piv)
        torch.lu_solve(torch.ones(3, 2), lu, piv)
    return [str(w.message).split(" (Triggered internally")[0] for w in caught]


def test_deprecation_warnings_once_each(torch):
    """PyTorch warns once per process, so its side runs in a fresh interpreter."""
    import inspect
    import json
    import subprocess
    import sys

    import gradsh.engine.tensor as engine_tensor

    engine_tensor._once.discard("torch.lu")
    engine_tensor._once.discard("torch.lu_solve")
    script = ("import json, warnings, torch\n" + inspect.getsource(_deprecations)
              + "print(json.dumps(_deprecations(torch)))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    assert _deprecations(gt) == json.loads(run.stdout)


def test_tensor_methods(torch):
    """Tensor.lu, lu_solve, geqrf and orgqr: the functions' values, plain tuples from lu."""
    a = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], np.float32)
    results = []
    for m in (torch, gt):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = m.tensor(a)
            plain, with_info = x.lu(), x.lu(get_infos=True)
            factors, tau = x.geqrf()
            values = [*plain, *with_info, m.ones(3, 2).lu_solve(*plain), factors.orgqr(tau)]
        results.append(([type(plain).__name__, type(with_info).__name__, len(with_info)],
                        [v.numpy() for v in values]))
    assert results[1][0] == results[0][0]
    for ours, theirs in zip(results[1][1], results[0][1], strict=True):
        assert ours.dtype == theirs.dtype and np.allclose(ours, theirs, rtol=0, atol=1e-6)


def _det_edge_grads(m):
    """det's gradients where PyTorch 2.13 special-cases the shape: 1x1 matrices (gradient 1
    even at 0, pytorch#171225; an ExpandBackward0 under create_graph) and empty ones (an
    empty gradient, not None)."""
    rows = []
    for value, dtype in (([[0.0]], m.float64), ([[0.1]], m.float32),
                         ([[[0.0]], [[3.0]]], m.float64), ([[-7.0]], m.float32)):
        x = m.tensor(value, dtype=dtype, requires_grad=True)
        (m.linalg.det(x) * 0.3).sum().backward()
        g, = m.autograd.grad((m.det(x) ** 2).sum(), x, create_graph=True)
        gg, = m.autograd.grad(g.sum(), x)
        rows.append((x.grad, x.grad.stride(), g, type(g.grad_fn).__name__, gg))
    for shape in ((0, 0), (3, 0, 0), (0, 2, 2)):
        x = m.zeros(*shape, requires_grad=True)
        m.det(x).sum().backward()
        rows.append((m.det(x), x.grad))
    return rows


def test_det_gradient_of_1x1_and_empty_matrices(torch):
    ours, theirs = _det_edge_grads(gt), _det_edge_grads(torch)
    assert repr(ours) == repr(theirs)
    check_grads(lambda x: gt.det(x), np.array([[[0.0]], [[2.5]]]))
