"""nn pieces PyTorch's documentation examples use that gradsh lacked: channel_shuffle
(ChannelShuffle), feature_alpha_dropout (FeatureAlphaDropout), max_unpool1d (MaxUnpool1d);
values, gradients, grad_fn names, reprs and error texts against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _run(T: Any, program: Any) -> list[Any]:
    T.manual_seed(0)
    return program(T)


def _same(torch: Any, program: Any) -> None:
    want, have = _run(torch, program), _run(gtorch, program)
    assert len(want) == len(have)
    for w, h in zip(want, have):
        if hasattr(w, "detach"):
            np.testing.assert_array_equal(h.detach().numpy(), w.detach().numpy())
            assert h.dtype == w.dtype or str(h.dtype) == str(w.dtype)
        else:
            assert h == w


def _channel_shuffle(T: Any) -> list[Any]:
    x = T.randn(2, 6, 3, 2, requires_grad=True)
    y = T.nn.functional.channel_shuffle(x, 3)
    y.backward(T.arange(72.0).reshape(2, 6, 3, 2))
    m = T.nn.ChannelShuffle(2)
    z = T.randn(1, 4, 5, dtype=T.float64)
    return [y, x.grad, type(y.grad_fn).__name__, repr(m), m(z), T.channel_shuffle(z, 4)]


def _feature_alpha_dropout(T: Any) -> list[Any]:
    m = T.nn.FeatureAlphaDropout(0.3)
    z = T.randn(3, 4, 5, requires_grad=True)
    out = m(z)
    out.sum().backward()
    m.eval()
    a = T.randn(2, 3, 2, 2)
    b = T.nn.functional.feature_alpha_dropout(a, 0.5, True, inplace=True)
    return [repr(m), out, z.grad, type(out.grad_fn).__name__, m(z) is z, b, a,
            T.nn.functional.feature_alpha_dropout(a, 1.0, True),
            T.nn.functional.alpha_dropout(a, 0.2, True)]


def _max_unpool1d(T: Any) -> list[Any]:
    pool = T.nn.MaxPool1d(2, stride=2, return_indices=True)
    unpool = T.nn.MaxUnpool1d(2, stride=2)
    x = T.tensor([[[1.0, 5, 3, 4, 5, 2, 7, 8, 9]]], requires_grad=True)
    out, ind = pool(x)
    u = unpool(out, ind, output_size=x.size())
    u.backward(T.arange(9.0).reshape(1, 1, 9))
    return [repr(unpool), repr(T.nn.MaxUnpool1d(3, 1, 1)), u, x.grad,
            type(u.grad_fn).__name__, T.nn.functional.max_unpool1d(out, ind, 2, stride=2)]


@pytest.mark.parametrize("program", [_channel_shuffle, _feature_alpha_dropout, _max_unpool1d])
def test_matches_torch(torch: Any, program: Any) -> None:
    _same(torch, program)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.functional.channel_shuffle(T.randn(2, 4), 2),
    lambda T: T.nn.functional.channel_shuffle(T.randn(1, 4, 3), 0),
    lambda T: T.nn.functional.channel_shuffle(T.randn(1, 4, 3), 3),
    lambda T: T.nn.functional.feature_alpha_dropout(T.randn(3), 0.5, True),
    lambda T: T.nn.functional.feature_alpha_dropout(T.randn(3, 2), 1.5, True),
    lambda T: T.nn.functional.max_unpool1d(T.randn(1, 1, 4), T.zeros(1, 1, 4, dtype=T.long),
                                           2, output_size=[20]),
])
def test_errors_match_torch(torch: Any, call: Any) -> None:
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(Exception) as have:
        call(gtorch)
    assert type(have.value).__name__ == type(want.value).__name__
    assert str(have.value) == str(want.value)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_nn_grad_matches_torch(torch: Any, dims: int) -> None:
    """torch.nn.grad.convNd_input / _weight (also F.grad): conv's gradients from outside."""
    got = []
    for T in (torch, gtorch):
        T.manual_seed(0)
        conv = getattr(T.nn.functional, f"conv{dims}d")
        x = T.randn(2, 4, *([5] * dims), requires_grad=True)
        w = T.randn(6, 2, *([3] * dims), requires_grad=True)
        out = conv(x, w, stride=2, padding=1, groups=2)
        go = T.randn(out.shape)
        gi = getattr(T.nn.grad, f"conv{dims}d_input")(x.shape, w, go, stride=2, padding=1,
                                                      groups=2)
        gw = getattr(T.nn.functional.grad, f"conv{dims}d_weight")(x, w.shape, go, 2, 1, 1, 2)
        plain = T.nn.grad.__dict__[f"conv{dims}d_input"](x.shape, w.detach(), go, 2, 1, 1, 2)
        got.append((gi, gw, gi.requires_grad, plain.requires_grad))
    (ti, tw, t_req, t_plain), (gi, gw, g_req, g_plain) = got
    np.testing.assert_allclose(gi.detach().numpy(), ti.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw.detach().numpy(), tw.detach().numpy(), rtol=1e-5, atol=1e-5)
    assert (g_req, g_plain) == (t_req, t_plain) == (True, False)
