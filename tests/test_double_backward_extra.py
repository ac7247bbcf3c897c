"""Double backward of max pooling with indices (adaptive too), conv3d and the scatter family:
PyTorch's grad_fn names and values, and second derivatives against finite differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F = gtorch.nn.functional


def _pooling(lib: Any) -> list[str]:
    functional = lib.nn.functional
    lib.manual_seed(0)
    x = lib.randn(1, 2, 6, 6, requires_grad=True)
    seen = []
    for pool in (lambda t: functional.max_pool2d(t, 2), lambda t: functional.max_pool2d(t, 3, 1),
                 lambda t: functional.adaptive_max_pool2d(t, 4),
                 lambda t: functional.adaptive_max_pool2d(t[0], 3)):
        y = pool(x)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad((g * g).sum(), x)
        seen += [type(g.grad_fn).__name__,
                 repr([type(f).__name__ for f, _ in g.grad_fn.next_functions]), repr(h)]
    return seen


def test_max_pool_double_backward_matches_torch(torch: Any) -> None:
    assert _pooling(gtorch) == _pooling(torch)


SCATTERS = [
    ("scatter", lambda s, i, src: s.scatter(0, i, src)),
    ("scatter_value", lambda s, i, src: s.scatter(0, i, 2.5) * src),
    ("scatter_add", lambda s, i, src: s.scatter_add(0, i, src)),
    ("gather", lambda s, i, src: s.gather(1, i) * src),
    ("index_add", lambda s, i, src: s.index_add(0, i[:, 0], src)),
] + [(f"reduce_{r}_{inc}", lambda s, i, src, r=r, inc=inc: s.scatter_reduce(
    0, i, src, r, include_self=inc)) for r in ("sum", "mean", "prod", "amax", "amin")
     for inc in (True, False)]


def _scatter(lib: Any, fn: Callable[..., Any]) -> list[str]:
    lib.manual_seed(1)
    s = lib.randn(3, 4, requires_grad=True)
    src = lib.randn(3, 4, requires_grad=True)
    index = lib.tensor([[0, 1, 2, 0], [1, 2, 0, 1], [2, 0, 1, 2]])
    y = fn(s, index, src)
    grads = lib.autograd.grad((y * y).sum(), (s, src), create_graph=True, allow_unused=True)
    live = [g for g in grads if g is not None]
    seconds = lib.autograd.grad(sum(g.pow(2).sum() for g in live), (s, src), allow_unused=True)
    return [repr([type(g.grad_fn).__name__ for g in live]), repr(grads), repr(seconds)]


@pytest.mark.parametrize("name,fn", SCATTERS, ids=[s[0] for s in SCATTERS])
def test_scatter_family_double_backward_matches_torch(torch: Any, name: str,
                                                      fn: Callable[..., Any]) -> None:
    assert _scatter(gtorch, fn) == _scatter(torch, fn)


@pytest.mark.parametrize("reduce", ["sum", "mean", "prod", "amax"])
def test_scatter_reduce_gradgradcheck(reduce: str) -> None:
    rng = np.random.default_rng(2)
    s = gtorch.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    src = gtorch.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    index = gtorch.tensor([[0, 1, 2, 0], [1, 2, 0, 1], [2, 0, 1, 2]])
    assert gtorch.autograd.gradgradcheck(
        lambda a, b: a.scatter_reduce(0, index, b, reduce), (s, src))


def test_conv3d_double_backward() -> None:
    rng = np.random.default_rng(3)
    x = gtorch.tensor(rng.standard_normal((1, 2, 4, 4, 3)), requires_grad=True)
    w = gtorch.tensor(rng.standard_normal((2, 1, 2, 2, 2)), requires_grad=True)
    y = F.conv3d(x, w, groups=2, padding=1)
    (gx, gw) = gtorch.autograd.grad((y * y).sum(), (x, w), create_graph=True)
    assert type(gx.grad_fn).__name__ == "ConvolutionBackwardBackward0"
    assert gtorch.autograd.gradgradcheck(
        lambda a, b: F.conv3d(a, b, stride=(1, 2, 1), padding=1, groups=2), (x, w))


def test_conv3d_double_backward_values_match_torch(torch: Any) -> None:
    rng = np.random.default_rng(4)
    data, weight = rng.standard_normal((1, 2, 4, 4, 4)), rng.standard_normal((3, 2, 2, 2, 2))
    results = []
    for lib in (gtorch, torch):
        x = lib.tensor(data, requires_grad=True)
        w = lib.tensor(weight, requires_grad=True)
        gx, gw = lib.autograd.grad(lib.nn.functional.conv3d(x, w).pow(2).sum(), (x, w),
                                   create_graph=True)
        results.append([t.detach().numpy() for t in lib.autograd.grad(
            gx.pow(2).sum() + gw.sum(), (x, w))])
    for ours, theirs in zip(*results, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def _cumprod_zeros(lib: Any, dim: int) -> list[str]:
    """cumprod's gradient under create_graph where the input holds zeros: ATen's O(n^2) form
    (a CopySlices graph), differentiable again."""
    x = lib.tensor([[2.0, 0.0, 3.0, 4.0], [1.5, 2.0, 0.0, 0.0], [0.0, -1.0, 2.5, 0.5]],
                   dtype=lib.float64, requires_grad=True)
    g = lib.arange(1.0, 13.0, dtype=lib.float64).reshape(3, 4).requires_grad_()
    (gx,) = lib.autograd.grad(lib.cumprod(x, dim), x, g, create_graph=True)
    seconds = lib.autograd.grad((gx * gx.detach().flip(0)).sum(), (x, g))
    return [repr(gx), repr(seconds)]


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumprod_with_zeros_double_backward_matches_torch(torch: Any, dim: int) -> None:
    assert _cumprod_zeros(gtorch, dim) == _cumprod_zeros(torch, dim)
    x = gtorch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 1.5]], dtype=gtorch.float64,
                      requires_grad=True)
    assert gtorch.autograd.gradgradcheck(lambda t: gtorch.cumprod(t, dim), (x,))
