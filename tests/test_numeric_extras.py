"""torch.renorm, torch.histogram, torch.gradient and Tensor.index_reduce against PyTorch, and
their gradients against float64 finite differences."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _outcome(action: Callable[[], Any]) -> str:
    try:
        return repr(action())
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def _run(lib: Any) -> list[str]:
    lib.manual_seed(0)
    x = lib.randn(4, 5, requires_grad=True)
    seen = []
    for p, dim, maxnorm in ((2, 0, 1.0), (1, 1, 0.5), (3, 0, 2.0), (float("inf"), 1, 0.8)):
        y = lib.renorm(x, p, dim, maxnorm)
        (g,) = lib.autograd.grad((y * lib.arange(20.0).reshape(4, 5)).sum(), x)
        seen += [repr(y), repr(g)]
    z = x.detach().clone()
    z.renorm_(2, 1, 0.7)
    seen.append(repr(z))
    seen += [_outcome(lambda: lib.renorm(x, 2, 0, -1.0)),
             _outcome(lambda: lib.renorm(x, -1, 0, 1.0))]
    data = lib.randn(500)
    seen += [repr(lib.histogram(data, bins=7)), repr(data.histogram(3)),
             repr(lib.histogram(data, bins=5, range=(-1.0, 1.0), density=True)),
             repr(lib.histogram(data, bins=lib.tensor([-2.0, 0.0, 0.5, 3.0]))),
             repr(lib.histogram(data.double(), bins=4, weight=lib.rand(500).double())),
             repr(lib.histogram(lib.tensor([1.0, 1.0]), bins=2)),
             _outcome(lambda: lib.histogram(lib.tensor([1, 2]), bins=2))]
    coords = lib.tensor([0.0, 1.0, 1.5, 3.5, 4.0])
    seen += [repr(lib.gradient(x)), repr(lib.gradient(x, dim=1, spacing=0.5)),
             repr(lib.gradient(x, spacing=[2.0, 3.0], edge_order=2)),
             repr(lib.gradient(x, spacing=(coords,), dim=1)),
             repr(lib.gradient(x, spacing=(coords,), dim=1, edge_order=2))]
    src = lib.randn(4, 5, requires_grad=True)
    index = lib.tensor([0, 3, 2, 0])
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            y = x.index_reduce(0, index, src, reduce, include_self=include_self)
            grads = lib.autograd.grad((y * lib.arange(20.0).reshape(4, 5)).sum(), (x, src))
            seen += [repr(y), repr(grads)]
    seen.append(repr(lib.index_reduce(lib.ones(3, dtype=lib.int64), 0, lib.tensor([0, 0]),
                                      lib.tensor([5, 2]), "mean")))
    seen.append(_outcome(lambda: x.index_reduce(0, index, src, "sum")))
    return seen


def test_match_torch(torch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _run(gtorch) == _run(torch)


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_gradients_against_finite_differences(reduce: str) -> None:
    rng = np.random.default_rng(1)
    x = gtorch.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    src = gtorch.tensor(rng.standard_normal((5, 3)), requires_grad=True)
    index = gtorch.tensor([0, 2, 2, 3, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for include_self in (True, False):
            assert gtorch.autograd.gradcheck(
                lambda a, b: a.index_reduce(0, index, b, reduce, include_self=include_self),
                (x, src))


def test_renorm_gradients_against_finite_differences() -> None:
    rng = np.random.default_rng(2)
    x = gtorch.tensor(rng.standard_normal((3, 4)) * 2, requires_grad=True)
    for p in (1.0, 2.0, 1.5, 3.0):
        assert gtorch.autograd.gradcheck(lambda a: gtorch.renorm(a, p, 0, 1.0), (x,))


def test_gradient_against_numpy() -> None:
    rng = np.random.default_rng(3)
    data = rng.standard_normal((5, 6))
    ours = gtorch.gradient(gtorch.tensor(data), spacing=[0.5, 2.0], edge_order=2)
    for mine, theirs in zip(ours, np.gradient(data, 0.5, 2.0, edge_order=2), strict=True):
        np.testing.assert_allclose(mine.numpy(), theirs, rtol=1e-12)


def _histogram_autograd(lib: Any) -> list[str]:
    """histogram of operands that require grad: one NotImplemented node for hist and
    bin_edges (an edge per such operand) that refuses backward; a bins tensor is copied."""
    lib.manual_seed(4)
    t = lib.randn(20, requires_grad=True)
    w = lib.rand(20, requires_grad=True)
    b = lib.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    plain = lib.tensor([-1.0, 0.0, 1.5])
    seen = []
    for args, kwargs in (((t,), {"bins": 4, "density": True}),
                         ((t.detach(),), {"bins": 3, "weight": w}),
                         ((t,), {"bins": b, "weight": w}),
                         ((t.detach(),), {"bins": plain})):
        hist, edges = lib.histogram(*args, **kwargs)
        seen += [repr(hist), repr(edges), str(hist.grad_fn is edges.grad_fn),
                 str(len(hist.grad_fn.next_functions) if hist.grad_fn else None),
                 str(edges is kwargs["bins"]), _outcome(lambda: hist.sum().backward())]
    with lib.no_grad():
        seen.append(repr(lib.histogram(t, bins=2)))
    return seen


def test_histogram_autograd_matches_torch(torch: Any) -> None:
    assert _histogram_autograd(gtorch) == _histogram_autograd(torch)
