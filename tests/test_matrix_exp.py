"""torch.matrix_exp: ATen's Taylor degrees and scaling and squaring, bit for bit in float32, its
gradient and double gradient; float64 against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

# (shape, scale): norms in every degree's interval (1, 2, 4, 8, 12, 18 and squared), one
# matrix (the degree chosen by its norm) and batches (degree 18 throughout)
CASES = [((n, n), scale) for n in (2, 3, 5) for scale in (1e-9, 1e-5, 1e-3, 0.05, 0.3, 1.0,
                                                          4.0, 30.0)]
CASES += [((3, 4, 4), 0.2), ((2, 2, 3, 3), 5.0), ((1, 6, 6), 0.4), ((1, 1), 0.7), ((0, 0), 1.0)]


def _run(lib: Any, a: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, ...]:
    x = lib.tensor(a, requires_grad=True)
    y = lib.matrix_exp(x)
    (g,) = lib.autograd.grad((y * lib.tensor(w)).sum(), x, create_graph=True)
    g.sum().backward() if g.requires_grad else None
    second = x.grad.numpy() if x.grad is not None else np.zeros_like(a)
    return (y.detach().numpy(), g.detach().numpy(), second, type(y.grad_fn).__name__,
            type(g.grad_fn).__name__)


@pytest.mark.parametrize("shape,scale", CASES, ids=str)
def test_float32_bits_match_torch(torch: Any, shape: tuple[int, ...], scale: float) -> None:
    rng = np.random.default_rng(int(scale * 1000) + len(shape))
    n = shape[-1] or 1
    a = (rng.standard_normal(shape) * scale / n).astype(np.float32)
    w = rng.standard_normal(shape).astype(np.float32)
    ours, theirs = _run(gtorch, a, w), _run(torch, a, w)
    for mine, expected in zip(ours[:3], theirs[:3], strict=True):
        assert mine.dtype == expected.dtype
        np.testing.assert_array_equal(mine, expected)
    assert ours[3:] == theirs[3:]


def test_float64_gradients_against_finite_differences() -> None:
    rng = np.random.default_rng(3)
    for scale in (0.01, 0.5, 3.0):
        a = gtorch.tensor(rng.standard_normal((2, 3, 3)) * scale, dtype=gtorch.float64,
                          requires_grad=True)
        assert gtorch.autograd.gradcheck(gtorch.matrix_exp, (a,))
        assert gtorch.autograd.gradgradcheck(gtorch.matrix_exp, (a,))


def test_float64_values_match_torch(torch: Any) -> None:
    rng = np.random.default_rng(4)
    for scale in (1e-6, 0.01, 0.2, 1.0, 6.0):
        a = rng.standard_normal((4, 4)) * scale
        np.testing.assert_allclose(gtorch.matrix_exp(gtorch.tensor(a)).numpy(),
                                   torch.matrix_exp(torch.tensor(a)).numpy(), rtol=1e-14,
                                   atol=1e-15)


def _errors(lib: Any) -> list[str]:
    seen = []
    for value in (lib.ones(2, 3), lib.tensor([[1, 2], [3, 4]]), lib.ones(3)):
        for call in (lib.matrix_exp, lib.linalg.matrix_exp, lambda t: t.matrix_exp()):
            try:
                call(value)
            except RuntimeError as error:
                seen.append(str(error))
    nan = lib.matrix_exp(lib.tensor([[float("nan"), 0.0], [0.0, 1.0]]))
    seen.append(repr(nan))
    return seen


def test_errors_match_torch(torch: Any) -> None:
    assert _errors(gtorch) == _errors(torch)
