"""Gradients of the added matrix functions against float64 finite differences (their values,
graphs and float32 bits against PyTorch are in tests/api2_programs/matrix_functions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from gradsh.engine import ops
from tests.gradcheck import check_grads

_X = np.random.default_rng(7).standard_normal((3, 4))
_SQUARE = np.random.default_rng(8).standard_normal((3, 3))


@pytest.mark.parametrize("name, f, arrays", [
    ("rot90", lambda t: ops.rot90(t, 1), (_X,)),
    ("rot90_3", lambda t: ops.rot90(t, 3, (1, 0)), (_X,)),
    ("diag_embed", lambda t: ops.diag_embed(t, 1, 0, 2), (_X,)),
    ("diagflat", lambda t: ops.diagflat(t, -2), (_X,)),
    ("vdot", lambda a, b: ops.vdot(a, b), (_X[0], _X[1])),
    ("matrix_power_5", lambda t: ops.matrix_power(t, 5), (_SQUARE,)),
    ("matrix_power_-2", lambda t: ops.matrix_power(t, -2), (_SQUARE,)),
    ("cov", lambda t: ops.cov(t), (_X,)),
    ("corrcoef", lambda t: ops.corrcoef(t), (_X,)),
    ("trapezoid", lambda t: ops.trapezoid(t, dx=0.5), (_X,)),
    ("trapezoid_x", lambda y, x: ops.trapezoid(y, x), (_X, np.cumsum(np.abs(_X[0])))),
    ("cumulative_trapezoid", lambda y, x: ops.cumulative_trapezoid(y, x, dim=1),
     (_X, np.cumsum(np.abs(_X[1])))),
])
def test_gradients_match_finite_differences(name, f, arrays):
    check_grads(f, *arrays)


def test_rot90_double_backward():
    x = ops.tensor(_X.tolist(), dtype=ops.float64, requires_grad=True)
    (grad,) = ops.grad(ops.sum(ops.mul(ops.rot90(x), ops.rot90(x))), (x,), create_graph=True)
    assert np.allclose(grad.detach().numpy(), 2 * _X)
    (second,) = ops.grad(ops.sum(grad), (x,))
    assert np.allclose(second.numpy(), 2.0)


@pytest.mark.parametrize("kwargs", [{}, {"stride": 2, "padding": 1},
                                    {"groups": 2, "dilation": (1, 2, 1)}, {"padding": "same"}])
def test_conv3d_close_to_torch(torch, kwargs):
    import gradsh.torch as g

    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 4, 5, 6, 7)).astype(np.float32)
    w = rng.standard_normal((6, 4 // kwargs.get("groups", 1), 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    results = []
    for m in (torch, g):
        xs, ws, bs = (m.tensor(a, requires_grad=True) for a in (x, w, b))
        out = m.nn.functional.conv3d(xs, ws, bs, **kwargs)
        weights = m.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32).reshape(out.shape))
        (out * weights).sum().backward()
        results.append([out.detach().numpy(), xs.grad.numpy(), ws.grad.numpy(), bs.grad.numpy(),
                        type(out.grad_fn).__name__])
    for got, expected in zip(results[1][:4], results[0][:4], strict=True):
        assert np.allclose(got, expected, rtol=1e-4, atol=1e-4)
    assert results[1][4] == results[0][4] == "ConvolutionBackward0"


def test_conv3d_gradients_finite_differences():
    x = np.random.default_rng(10).standard_normal((1, 2, 3, 4, 3))
    w = np.random.default_rng(11).standard_normal((2, 2, 2, 2, 2))
    check_grads(lambda a, b: ops.conv3d(a, b, None, 1, 1, (1, 2, 1)), x, w)


_RNG = np.random.default_rng(12)


@pytest.mark.parametrize("f, shapes", [
    (lambda i, a, b: ops.addmv(i, a, b, beta=0.5, alpha=2), ((3,), (3, 4), (4,))),
    (lambda i, a, b: ops.addr(i, a, b, alpha=3), ((4,), (3,), (4,))),
    (lambda i, a, b: ops.addbmm(i, a, b, beta=2, alpha=0.5), ((3, 4), (2, 3, 5), (2, 5, 4))),
])
def test_blas_extras_gradients(f, shapes):
    check_grads(f, *(_RNG.standard_normal(s) for s in shapes))


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, 1.5])
def test_pdist_gradients(p):
    check_grads(lambda t: ops.pdist(t, p), _RNG.standard_normal((4, 3)))


@pytest.mark.parametrize("dim", [0, 1])
def test_logcumsumexp_gradients(dim):
    check_grads(lambda t: ops.logcumsumexp(t, dim), _RNG.standard_normal((3, 4)))
