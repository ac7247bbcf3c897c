"""F.affine_grid and F.grid_sample (bilinear and nearest; zeros, border and reflection
padding; with and without align_corners) against PyTorch, and their gradients against float64
finite differences."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine import ops
from tests.gradcheck import check_grads

r = np.random.default_rng(21)
X = r.standard_normal((2, 3, 5, 6)).astype(np.float32)
THETA = (np.array([[1.0, 0.2, 0.1], [0.1, 0.9, -0.2]])
         + r.standard_normal((2, 2, 3)) * 0.5).astype(np.float32)
COMBOS = list(itertools.product(["bilinear", "nearest"], ["zeros", "border", "reflection"],
                                [False, True]))


@pytest.mark.parametrize("mode,padding,align", COMBOS)
def test_grid_sample_matches_torch(torch: Any, mode: str, padding: str, align: bool) -> None:
    seen = []
    for t in (torch, gtorch):
        theta = t.from_numpy(THETA.copy()).requires_grad_()
        x = t.from_numpy(X.copy()).requires_grad_()
        grid = t.nn.functional.affine_grid(theta, (2, 3, 4, 7), align_corners=align)
        out = t.nn.functional.grid_sample(x, grid * 1.3, mode=mode, padding_mode=padding,
                                          align_corners=align)
        weights = np.random.default_rng(1).standard_normal(tuple(out.shape)).astype(np.float32)
        (out * t.from_numpy(weights)).sum().backward()
        seen.append(([grid.grad_fn.name(), out.grad_fn.name()],
                     [grid.detach().numpy(), out.detach().numpy(), x.grad.numpy(),
                      theta.grad.numpy()]))
    (t_names, t_values), (g_names, g_values) = seen
    assert g_names == t_names
    for g, e in zip(g_values, t_values, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=5e-5)


def test_grid_sample_warns_without_align_corners(torch: Any) -> None:
    texts = []
    for t in (torch, gtorch):
        with pytest.warns(UserWarning) as caught:
            t.nn.functional.affine_grid(t.from_numpy(THETA.copy()), (2, 3, 4, 7))
        texts.append(str(caught[0].message))
    assert texts[1] == texts[0]


@pytest.mark.parametrize("padding,align", [("zeros", False), ("border", True),
                                           ("reflection", False)])
def test_grid_sample_gradients_are_the_derivative(padding: str, align: bool) -> None:
    image = r.standard_normal((1, 2, 3, 4))
    points = r.uniform(-0.9, 0.9, (1, 2, 3, 2))

    def sample(x: Any, grid: Any) -> Any:
        return ops.grid_sampler_2d(x, grid, 0, {"zeros": 0, "border": 1, "reflection": 2}[
            padding], align)

    check_grads(sample, image, points, eps=1e-7)


def test_affine_grid_gradient_is_the_derivative() -> None:
    check_grads(lambda theta: ops.affine_grid_generator(theta, (2, 1, 3, 4), False),
                r.standard_normal((2, 2, 3)))


@pytest.mark.parametrize("mode,padding,align", COMBOS)
def test_grid_sample_bits_match_torch(torch: Any, one_thread: Any, mode: str, padding: str,
                                      align: bool) -> None:
    """The float32 bits of ATen's vectorized CPU kernel: affine_grid's three-term sums,
    unnormalize and the four-corner blend as multiply-adds, the input gradient scattered chunk
    by chunk of grid points (many points share pixels here: a 2x upsampling with a rotation),
    the grid gradient accumulated over channels."""
    rng = np.random.default_rng(5)
    x_np = rng.standard_normal((2, 3, 9, 11)).astype(np.float32)
    theta_np = np.array([[[0.94, -0.34, 0.1], [0.34, 0.94, -0.2]],
                         [[1.3, 0.2, -0.4], [-0.1, 0.8, 0.3]]], dtype=np.float32)
    seen = []
    for t in (torch, gtorch):
        theta = t.from_numpy(theta_np.copy()).requires_grad_()
        x = t.from_numpy(x_np.copy()).requires_grad_()
        grid = t.nn.functional.affine_grid(theta, (2, 3, 17, 21), align_corners=align)
        out = t.nn.functional.grid_sample(x, grid * 1.2, mode=mode, padding_mode=padding,
                                          align_corners=align)
        weights = rng.standard_normal(tuple(out.shape)).astype(np.float32)
        (out * t.from_numpy(weights)).sum().backward()
        seen.append([grid.detach().numpy(), out.detach().numpy(), x.grad.numpy(),
                     theta.grad.numpy()])
        rng = np.random.default_rng(5)
        rng.standard_normal((2, 3, 9, 11))
    (grid_t, out_t, gx_t, _), (grid_g, out_g, gx_g, _) = seen
    np.testing.assert_array_equal(grid_g, grid_t)
    np.testing.assert_array_equal(out_g, out_t)
    np.testing.assert_array_equal(gx_g, gx_t)


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_sample_float64_input_grad_bits(torch: Any, one_thread: Any, padding: str) -> None:
    """float64's vector holds 4 grid points, not 8: the input gradient's scatter order (many
    points on a 3x3 input share its pixels)."""
    rng = np.random.default_rng(9)
    x_np = rng.standard_normal((1, 2, 3, 3))
    grid_np = rng.uniform(-1.3, 1.3, (1, 6, 7, 2))
    weights = rng.standard_normal((1, 2, 6, 7))
    grads = []
    for t in (torch, gtorch):
        x = t.from_numpy(x_np.copy()).requires_grad_()
        out = t.nn.functional.grid_sample(x, t.from_numpy(grid_np.copy()), padding_mode=padding,
                                          align_corners=False)
        (out * t.from_numpy(weights.copy())).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


@pytest.mark.parametrize("size", [(2, 1, 3, 4, 5), (1, 2, 1, 6, 2), (2, 1, 20, 30)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("align", [False, True])
def test_affine_grid_bits_match_torch(torch: Any, one_thread: Any, size: tuple[int, ...],
                                      dtype: str, align: bool) -> None:
    """The 3-D grid (N, D, H, W, 3) too; theta's gradient is ATen's bmm of the transposed base
    grid and the incoming gradient (its summation order, not NumPy's)."""
    rng = np.random.default_rng(5)
    theta = rng.standard_normal((size[0], len(size) - 2, len(size) - 1)).astype(dtype)
    seen = []
    for t in (torch, gtorch):
        th = t.from_numpy(theta.copy()).requires_grad_()
        grid = t.nn.functional.affine_grid(th, size, align_corners=align)
        weights = rng.standard_normal(tuple(grid.shape)).astype(dtype)
        (grid * t.from_numpy(weights)).sum().backward()
        seen.append([grid.detach().numpy(), th.grad.numpy()])
        rng = np.random.default_rng(5)
        rng.standard_normal(theta.shape)
    for ours, theirs in zip(seen[1], seen[0], strict=True):
        assert ours.shape == theirs.shape
        assert ours.tobytes() == theirs.tobytes()


def test_affine_grid_3d_gradient_is_the_derivative() -> None:
    check_grads(lambda theta: ops.affine_grid_generator(theta, (2, 1, 2, 3, 4), True),
                r.standard_normal((2, 3, 4)))
