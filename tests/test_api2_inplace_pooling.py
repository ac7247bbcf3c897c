"""Tensor in-place forms (tril_, cumsum_, eq_ ..., fill_diagonal_) and adaptive max pooling,
against PyTorch: values bit for bit, grad_fn names, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest

import gradsh.torch as g
from tests.gradcheck import check_grads
from gradsh.engine import ops


def _pair(torch, array, requires_grad=True):
    return (torch.tensor(array, requires_grad=requires_grad),
            g.tensor(array, requires_grad=requires_grad))


@pytest.mark.parametrize("name, args", [
    ("tril_", ()), ("triu_", (1,)), ("cumsum_", (0,)), ("cumprod_", (1,)),
    ("eq_", (0.5,)), ("lt_", (0.0,)), ("greater_equal_", (0.1,)), ("not_equal_", (0.0,)),
])
def test_inplace_methods_match_torch(torch, name, args):
    array = np.random.default_rng(1).standard_normal((4, 4)).astype(np.float32)
    array[0, 0] = 0.5
    leaf_t, leaf_g = _pair(torch, array)
    weights = np.random.default_rng(2).standard_normal((4, 4)).astype(np.float32)
    out_t = getattr(leaf_t.clone(), name)(*args)
    out_g = getattr(leaf_g.clone(), name)(*args)
    assert np.array_equal(out_t.detach().numpy(), out_g.detach().numpy())
    assert type(out_t.grad_fn).__name__ == type(out_g.grad_fn).__name__
    (out_t * torch.tensor(weights)).sum().backward()
    (out_g * g.tensor(weights)).sum().backward()
    assert np.array_equal(leaf_t.grad.numpy(), leaf_g.grad.numpy())


def test_comparison_inplace_keeps_integer_dtype(torch):
    assert torch.arange(4).gt_(2.5).tolist() == g.arange(4).gt_(2.5).tolist() == [0, 0, 0, 1]
    assert g.arange(4).gt_(2.5).dtype is g.int64


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_"])
def test_logical_inplace_is_not_recorded(torch, name):
    array = np.array([[0.0, 1.5], [-2.0, 0.0]], dtype=np.float32)
    other = np.array([[1.0, 0.0], [3.0, 0.0]], dtype=np.float32)
    out_t = getattr(torch.tensor(array, requires_grad=True).clone(), name)(torch.tensor(other))
    out_g = getattr(g.tensor(array, requires_grad=True).clone(), name)(g.tensor(other))
    assert out_t.tolist() == out_g.tolist()
    assert type(out_g.grad_fn).__name__ == type(out_t.grad_fn).__name__ == "CloneBackward0"


def test_not_implemented_inplace_forms(torch):
    for make in (lambda m, x: x.floor_divide_(2),
                 lambda m, x: x.heaviside_(m.tensor(0.5))):
        out_t = make(torch, torch.randn(3, requires_grad=True).clone())
        out_g = make(g, g.randn(3, requires_grad=True).clone())
        assert type(out_g.grad_fn).__name__ == type(out_t.grad_fn).__name__
        with pytest.raises(RuntimeError) as t_error:
            out_t.sum().backward()
        with pytest.raises(RuntimeError) as g_error:
            out_g.sum().backward()
        assert str(g_error.value) == str(t_error.value)


@pytest.mark.parametrize("shape, wrap", [((3, 3), False), ((7, 3), True), ((7, 3), False),
                                         ((3, 5), True), ((2, 2, 2), False)])
def test_fill_diagonal(torch, shape, wrap):
    out_t = torch.zeros(shape).fill_diagonal_(5, wrap=wrap)
    out_g = g.zeros(shape).fill_diagonal_(5, wrap=wrap)
    assert out_t.tolist() == out_g.tolist()
    leaf_t, leaf_g = _pair(torch, np.ones((3, 3), dtype=np.float32))
    out_t, out_g = leaf_t.clone().fill_diagonal_(2.0), leaf_g.clone().fill_diagonal_(2.0)
    assert type(out_g.grad_fn).__name__ == type(out_t.grad_fn).__name__ == "CopySlices"
    out_t.sum().backward()
    out_g.sum().backward()
    assert leaf_t.grad.tolist() == leaf_g.grad.tolist()


def test_addmm_and_baddbmm_inplace(torch):
    rng = np.random.default_rng(3)
    base, m1, m2 = (rng.standard_normal(s).astype(np.float32) for s in ((3, 4), (3, 5), (5, 4)))
    out_t = torch.tensor(base).addmm_(torch.tensor(m1), torch.tensor(m2), beta=0.5, alpha=2)
    out_g = g.tensor(base).addmm_(g.tensor(m1), g.tensor(m2), beta=0.5, alpha=2)
    assert np.array_equal(out_t.numpy(), out_g.numpy())
    b1, b2 = rng.standard_normal((2, 3, 5)).astype(np.float32), rng.standard_normal(
        (2, 5, 4)).astype(np.float32)
    base3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
    out_t = torch.tensor(base3).baddbmm_(torch.tensor(b1), torch.tensor(b2))
    out_g = g.tensor(base3).baddbmm_(g.tensor(b1), g.tensor(b2))
    # the in-place form computes as gradsh's baddbmm (whose float32 bits are not yet torch's)
    assert np.array_equal(out_g.numpy(), g.baddbmm(g.tensor(base3), g.tensor(b1),
                                                   g.tensor(b2)).numpy())
    assert np.allclose(out_t.numpy(), out_g.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shape, size, dims", [
    ((2, 3, 7, 5), (3, 2), 2), ((3, 9, 6), 4, 2), ((2, 3, 7, 5), (3, None), 2),
    ((2, 3, 7), 3, 1), ((3, 10), 4, 1), ((1, 2, 5, 5), 7, 2),
])
def test_adaptive_max_pool_matches_torch(torch, shape, size, dims):
    array = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    array[..., 1] = array[..., 0]  # ties: the first maximum wins
    leaf_t, leaf_g = _pair(torch, array)
    name = f"adaptive_max_pool{dims}d"
    out_t, idx_t = getattr(torch.nn.functional, name)(leaf_t, size, return_indices=True)
    out_g, idx_g = getattr(g.nn.functional, name)(leaf_g, size, return_indices=True)
    assert np.array_equal(out_t.detach().numpy(), out_g.detach().numpy())
    assert np.array_equal(idx_t.numpy(), idx_g.numpy())
    assert type(out_g.grad_fn).__name__ == type(out_t.grad_fn).__name__
    weights = np.random.default_rng(5).standard_normal(out_t.shape).astype(np.float32)
    (out_t * torch.tensor(weights)).sum().backward()
    (out_g * g.tensor(weights)).sum().backward()
    assert np.array_equal(leaf_t.grad.numpy(), leaf_g.grad.numpy())


def test_adaptive_max_pool_nan_and_modules(torch):
    array = np.array([[[1.0, np.nan, 3.0, np.nan, 0.0]]], dtype=np.float32)
    out_t, idx_t = torch.nn.AdaptiveMaxPool1d(2, return_indices=True)(torch.tensor(array))
    out_g, idx_g = g.nn.AdaptiveMaxPool1d(2, return_indices=True)(g.tensor(array))
    assert idx_t.tolist() == idx_g.tolist()
    assert repr(g.nn.AdaptiveMaxPool2d((2, None))) == repr(torch.nn.AdaptiveMaxPool2d((2, None)))
    with g.no_grad():
        assert g.nn.functional.adaptive_max_pool2d(g.ones(1, 4, 4), 2, True)[1].shape == (1, 2, 2)


def test_adaptive_max_pool_gradient_finite_differences():
    x = np.random.default_rng(6).standard_normal((1, 2, 5, 4))
    check_grads(lambda t: ops.adaptive_max_pool2d(t, (3, 3)), x)


def test_adaptive_max_pool_errors(torch):
    for call in (lambda m: m.nn.functional.adaptive_max_pool2d(m.randn(5), 2),
                 lambda m: m.nn.functional.adaptive_max_pool1d(m.randn(2, 3, 4, 5), 2)):
        with pytest.raises(RuntimeError) as t_error:
            call(torch)
        with pytest.raises(RuntimeError) as g_error:
            call(g)
        assert str(g_error.value) == str(t_error.value)
