"""F.grid_sample(mode="bicubic") against PyTorch 2.13's bits
(gradsh/engine/functions/grid_sampling_cubic.py): the output, the input's and the grid's
gradients for float32 and float64, zeros, border and reflection padding, with and without
align_corners, grid points inside and outside the image, one-pixel inputs, more grid points
than one vector chunk; one and two threads; the node's name; gradients against float64 finite
differences."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.gradcheck import check_grads

SHAPES = [((2, 3, 5, 6), (2, 9, 11, 2)), ((1, 1, 7, 4), (1, 3, 3, 2)),
          ((1, 2, 1, 1), (1, 2, 5, 2))]


def _run(lib: Any, data: np.ndarray, grid: np.ndarray, gout: np.ndarray,
         **kwargs: Any) -> list[Any]:
    x, g = lib.tensor(data, requires_grad=True), lib.tensor(grid, requires_grad=True)
    out = lib.nn.functional.grid_sample(x, g, mode="bicubic", **kwargs)
    out.backward(lib.tensor(gout))
    return [type(out.grad_fn).__name__, out.detach().numpy(), x.grad.numpy(), g.grad.numpy()]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_bicubic_bits(torch: Any, thread_count: int, dtype: str, padding: str) -> None:
    rng = np.random.default_rng(11)
    for (shape, grid_shape), align in itertools.product(SHAPES, (False, True)):
        data = rng.standard_normal(shape).astype(dtype)
        grid = rng.uniform(-1.3, 1.3, grid_shape).astype(dtype)
        gout = rng.standard_normal(shape[:2] + grid_shape[1:3]).astype(dtype)
        theirs = _run(torch, data, grid, gout, padding_mode=padding, align_corners=align)
        ours = _run(gtorch, data, grid, gout, padding_mode=padding, align_corners=align)
        assert ours[0] == theirs[0] == "GridSampler2DBackward0"
        for what, a, b in zip(("output", "input grad", "grid grad"), ours[1:], theirs[1:]):
            assert (a == b).all(), f"{what}: {int((a != b).sum())} of {a.size} differ"


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_bicubic_gradients_are_derivatives(padding: str) -> None:
    rng = np.random.default_rng(4)
    data = rng.standard_normal((1, 2, 4, 5))
    # points away from the integer pixel positions, where the taps change
    grid = (rng.uniform(-0.8, 0.8, (1, 2, 3, 2)) // 0.25 * 0.25 + 0.11)
    check_grads(lambda x, g: gtorch.nn.functional.grid_sample(
        x, g, mode="bicubic", padding_mode=padding, align_corners=False), data, grid)
