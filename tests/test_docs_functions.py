"""torch.* and torch.linalg functions PyTorch's documentation examples use that gradsh lacked:
vander, nonzero_static, angle (real tensors), linalg.matrix_rank, tensorinv and tensorsolve;
values, dtypes, grad_fn names and error texts against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _compare(want: list[Any], have: list[Any]) -> None:
    assert len(want) == len(have)
    for w, h in zip(want, have):
        if hasattr(w, "detach"):
            assert str(h.dtype) == str(w.dtype) and tuple(h.shape) == tuple(w.shape)
            np.testing.assert_allclose(h.detach().numpy(), w.detach().numpy(), rtol=1e-6,
                                       atol=1e-6)
        else:
            assert h == w


def _vander(T: Any) -> list[Any]:
    x = T.tensor([1.5, -2.0, 0.5], requires_grad=True)
    v = T.vander(x, 4)
    return [T.vander(T.tensor([1, 2, 3])), T.vander(T.tensor([1.0, 2, 3]), N=4, increasing=True),
            v, type(v.grad_fn).__name__, v.grad_fn.next_functions[0][0].name(),
            T.vander(T.tensor([2, 3], dtype=T.int8)), T.vander(T.tensor([2.0]), N=0),
            T.vander(T.tensor([2.0]), N=1)]


def _angle_nonzero_static(T: Any) -> list[Any]:
    a = T.tensor([-1.0, 2.0, 0.0], requires_grad=True)
    y = a.angle()
    y.sum().backward()
    return [T.angle(T.tensor([-1, 0, 2])),
            T.angle(T.tensor([-1.0, float("nan"), 2.0], dtype=T.float64)), y, a.grad,
            type(y.grad_fn).__name__,
            T.nonzero_static(T.tensor([[1, 0], [0, 1]]), size=3),
            T.nonzero_static(T.tensor([1, 0, 1, 1]), size=2, fill_value=7),
            T.nonzero_static(T.tensor([0.0, 0.0]), size=2)]


def _matrix_rank(T: Any) -> list[Any]:
    T.manual_seed(0)
    A = T.randn(4, 3, 3, dtype=T.float64)
    A[0, 2] = A[0, 1]
    rank = T.linalg.matrix_rank
    return [rank(A), rank(A, hermitian=True), rank(A, atol=1.0, rtol=0.0), rank(A, rtol=0.5),
            rank(A, atol=T.tensor(0.5)), rank(A, tol=0.5), rank(A[0], 0.5), rank(T.eye(10)),
            rank(T.randn(3, 5, 2))]


def _tensorinv_tensorsolve(T: Any) -> list[Any]:
    T.manual_seed(0)
    A = T.randn(4, 6, 4, 6, requires_grad=True)
    Ainv = T.linalg.tensorinv(A, 2)
    Ainv.sum().backward()
    B = T.randn(6, 4, 4, 3, 2)
    C = T.randn(4, 3, 2)
    E = T.eye(2 * 3 * 4).reshape((2 * 3, 4, 2, 3, 4))
    F = T.randn(2 * 3, 4)
    return [Ainv, A.grad, T.linalg.tensorsolve(B, C, dims=(0, 2)), T.linalg.tensorsolve(E, F)]


def _gradient_coordinates(T: Any) -> list[Any]:
    t = T.tensor([[1, 2, 4, 8], [10, 20, 40, 80]])
    coords = (T.tensor([0, 2]), T.tensor([0, 3, 6, 9]))
    values = T.tensor([4.0, 1.0, 1.0, 16.0])
    x = (T.tensor([-2.0, -1.0, 1.0, 4.0]),)
    return [*T.gradient(t, spacing=coords), *T.gradient(values, spacing=x),
            *T.gradient(values, spacing=x, edge_order=2), *T.gradient(t, spacing=coords[1:], dim=1)]


def _cov_weights(T: Any) -> list[Any]:
    T.manual_seed(0)
    x = T.randn(3, 6)
    fw = T.randint(1, 5, (6,))
    aw = T.rand(6)
    xr = T.randn(2, 5, requires_grad=True)
    c = T.cov(xr, aweights=T.rand(5))
    c.sum().backward()
    return [T.cov(x, fweights=fw), T.cov(x, aweights=aw),
            T.cov(x, fweights=fw, aweights=aw, correction=0),
            T.cov(x[0], fweights=fw, aweights=aw, correction=2),
            T.cov(T.tensor([1, 2, 4]), fweights=T.tensor([1, 1, 2])), c, xr.grad]


class _Local:
    pass


def _typenames(T: Any) -> list[Any]:
    return [T.typename(x) for x in (T.nn.Parameter, T.nn.Linear, 3, T.zeros(2), T.Tensor, "a",
                                    T.nn.Parameter(T.zeros(1)), T.nn.Linear(1, 1), _Local,
                                    _Local(), T.optim.SGD, _typenames)]


@pytest.mark.parametrize("program", [_typenames, _vander, _angle_nonzero_static, _matrix_rank,
                                     _tensorinv_tensorsolve, _gradient_coordinates,
                                     _cov_weights])
def test_matches_torch(torch: Any, program: Any) -> None:
    _compare(program(torch), program(gtorch))


@pytest.mark.parametrize("call", [
    lambda T: T.nonzero_static(T.tensor([1]), size=-1),
    lambda T: T.vander(T.ones(2, 2)),
    lambda T: T.vander(T.ones(2), N=-1),
    lambda T: T.linalg.matrix_rank(T.ones(3)),
    lambda T: T.linalg.tensorinv(T.ones(4, 3, 2), ind=1),
    lambda T: T.linalg.tensorinv(T.ones(4, 3, 2), ind=0),
    lambda T: T.linalg.tensorsolve(T.ones(2, 3, 4), T.ones(2)),
    lambda T: T.cov(T.ones(3, 6), fweights=T.rand(6)),
    lambda T: T.cov(T.ones(3, 6), aweights=T.ones(6, dtype=T.long)),
    lambda T: T.cov(T.ones(3, 6), fweights=T.ones(3, dtype=T.long)),
    lambda T: T.cov(T.ones(3, 6), aweights=-T.ones(6)),
    lambda T: T.cov(T.ones(3, 6), fweights=T.zeros(6, dtype=T.long)),
    lambda T: T.cov(T.ones(3, 6), fweights=T.ones(2, 3, dtype=T.long)),
])
def test_errors_match_torch(torch: Any, call: Any) -> None:
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(Exception) as have:
        call(gtorch)
    assert type(have.value).__name__ == type(want.value).__name__
    assert str(have.value) == str(want.value)
