"""kron, block_diag, combinations, searchsorted, bucketize, histc, tril/triu_indices,
max_unpool2d and gumbel_softmax against PyTorch (values, dtypes, grad_fn names, gradients,
random draws after a seed); gradients against float64 finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine import ops
from tests.gradcheck import check_grads

r = np.random.default_rng(8)
A, B, V = r.standard_normal((2, 3)), r.standard_normal((2, 2)), r.standard_normal(4)
SEQ = np.array([1.0, 3.0, 5.0, 7.0], dtype=np.float32)

DIFFERENTIABLE: dict[str, Any] = {
    "kron": lambda t, a, b, v: t.kron(a, b),
    "kron_1d_2d": lambda t, a, b, v: t.kron(v, b),
    "block_diag": lambda t, a, b, v: t.block_diag(a, b, v, v[0]),
    "combinations": lambda t, a, b, v: t.combinations(v),
    "combinations_3_replace": lambda t, a, b, v: t.combinations(v, 3, with_replacement=True),
}


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_differentiable_ops_match_torch(torch: Any, name: str) -> None:
    seen = []
    for t in (torch, gtorch):
        leaves = [t.from_numpy(x.astype(np.float32)).requires_grad_() for x in (A, B, V)]
        out = DIFFERENTIABLE[name](t, *leaves)
        weights = t.from_numpy(np.arange(out.numel(), dtype=np.float32).reshape(
            tuple(out.shape)))
        (out * weights).sum().backward()
        seen.append((out.grad_fn.name(), out.dtype == t.float32, out.detach().numpy(),
                     [None if x.grad is None else x.grad.numpy() for x in leaves]))
    expected, got = seen
    assert got[:2] == expected[:2]
    np.testing.assert_array_equal(got[2], expected[2])
    for g, e in zip(got[3], expected[3], strict=True):
        assert (g is None) == (e is None)
        if e is not None:
            np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_differentiable_ops_gradients_are_the_derivative(name: str) -> None:
    check_grads(lambda a, b, v: DIFFERENTIABLE[name](ops, a, b, v), A, B, V)


_SAMPLE = r.standard_normal(200).astype(np.float32)
VALUES: dict[str, Any] = {
    "searchsorted": lambda t: t.searchsorted(t.from_numpy(SEQ), t.tensor([2.0, 5.0, 8.0])),
    "searchsorted_right": lambda t: t.searchsorted(t.from_numpy(SEQ), t.tensor([3.0, 7.0]),
                                                   right=True),
    "searchsorted_scalar_side": lambda t: t.searchsorted(t.from_numpy(SEQ), 5, side="right"),
    "searchsorted_rows": lambda t: t.searchsorted(t.tensor([[1, 3, 5], [2, 4, 6]]),
                                                  t.tensor([[3, 6], [1, 5]])),
    "searchsorted_int32": lambda t: t.searchsorted(t.from_numpy(SEQ), t.tensor([3.0]),
                                                   out_int32=True),
    "bucketize": lambda t: t.bucketize(t.tensor([[2.0, 5.0], [9.0, 0.0]]), t.from_numpy(SEQ)),
    "bucketize_right": lambda t: t.bucketize(t.tensor([3.0, 7.0]), t.from_numpy(SEQ),
                                             right=True),
    "histc": lambda t: t.histc(t.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=3),
    "histc_range": lambda t: t.histc(t.from_numpy(_SAMPLE), bins=7),
    "histc_method": lambda t: t.from_numpy(_SAMPLE).histc(5, -1, 1),
    "tril_indices": lambda t: t.tril_indices(3, 3),
    "tril_indices_offset": lambda t: t.tril_indices(4, 3, -1, dtype=t.int32),
    "triu_indices": lambda t: t.triu_indices(3, 4, 1),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_searching_and_counting_match_torch(torch: Any, name: str) -> None:
    expected, got = VALUES[name](torch), VALUES[name](gtorch)
    assert str(got.dtype) == str(expected.dtype)
    assert tuple(got.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_max_unpool2d_matches_torch(torch: Any) -> None:
    data = r.standard_normal((2, 3, 4, 5)).astype(np.float32)
    seen = []
    for t in (torch, gtorch):
        x = t.from_numpy(data.copy()).requires_grad_()
        pooled, indices = t.nn.MaxPool2d(2, return_indices=True)(x)
        unpool = t.nn.MaxUnpool2d(2)
        out = unpool(pooled, indices, output_size=x.size())
        (out * t.arange(out.numel()).view(out.shape)).sum().backward()
        seen.append((repr(unpool), out.grad_fn.name(), out.detach().numpy(), x.grad.numpy()))
    expected, got = seen
    assert got[:2] == expected[:2]
    np.testing.assert_array_equal(got[2], expected[2])
    np.testing.assert_array_equal(got[3], expected[3])


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_draws_and_gradients_match_torch(torch: Any, hard: bool) -> None:
    logits = r.standard_normal((3, 4)).astype(np.float32)
    seen = []
    for t in (torch, gtorch):
        t.manual_seed(1)
        x = t.from_numpy(logits.copy()).requires_grad_()
        out = t.nn.functional.gumbel_softmax(x, tau=0.5, hard=hard)
        out[:, 0].sum().backward()
        seen.append((out.grad_fn.name(), out.detach().numpy(), x.grad.numpy()))
    expected, got = seen
    assert got[0] == expected[0]
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[2], expected[2], rtol=1e-4, atol=1e-6)


AS_STRIDED: dict[str, Any] = {
    "window": lambda t, x: t.as_strided(x, (3, 3), (2, 1)),
    "overlap": lambda t, x: x.as_strided((4, 3), (1, 1), 2),
    "broadcast": lambda t, x: t.as_strided(x, (2, 3), (0, 1)),
    "blocks": lambda t, x: x.as_strided((2, 2, 2, 2), (4, 2, 2, 1)),
}


@pytest.mark.parametrize("name", sorted(AS_STRIDED))
def test_as_strided_matches_torch(torch: Any, name: str) -> None:
    seen = []
    for t in (torch, gtorch):
        x = t.arange(12.0).requires_grad_()
        out = AS_STRIDED[name](t, x)
        (out * t.arange(out.numel(), dtype=t.float32).view(out.shape)).sum().backward()
        seen.append((out.grad_fn.name(), tuple(out.stride()), out.detach().numpy(),
                     x.grad.numpy()))
    expected, got = seen
    assert got[:2] == expected[:2]
    np.testing.assert_array_equal(got[2], expected[2])
    np.testing.assert_array_equal(got[3], expected[3])


def test_as_strided_out_of_bounds_error_matches_torch(torch: Any) -> None:
    texts = []
    for t in (torch, gtorch):
        with pytest.raises(RuntimeError) as info:
            t.arange(12.0).as_strided((2, 2, 2, 2), (6, 2, 3, 1))
        texts.append(str(info.value))
    assert texts[1] == texts[0]


def test_as_strided_is_a_view_that_writes_through(torch: Any) -> None:
    seen = []
    for t in (torch, gtorch):
        base = t.zeros(6)
        base.as_strided((2,), (3,), 1).add_(5)
        seen.append(base.numpy())
    np.testing.assert_array_equal(seen[1], seen[0])


def test_fft_frequencies_and_shifts_match_torch(torch: Any) -> None:
    import importlib

    for t in (torch, gtorch):
        importlib.import_module(t.__name__ + ".fft")
    cases = [lambda t: t.fft.fftfreq(5), lambda t: t.fft.fftfreq(8, d=0.1),
             lambda t: t.fft.rfftfreq(7, 0.3), lambda t: t.fft.fftfreq(4, dtype=t.float64),
             lambda t: t.fft.fftshift(t.arange(10.0).view(2, 5)),
             lambda t: t.fft.ifftshift(t.arange(10.0).view(2, 5), dim=1)]
    for case in cases:
        expected, got = case(torch), case(gtorch)
        assert str(got.dtype) == str(expected.dtype)
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_torch_vmap_is_func_vmap() -> None:
    import gradsh.torch.func

    assert gtorch.vmap is gradsh.torch.func.vmap
    out = gtorch.vmap(gtorch.dot)(gtorch.ones(3, 2), gtorch.arange(6.0).view(3, 2))
    assert out.tolist() == [1.0, 5.0, 9.0]
