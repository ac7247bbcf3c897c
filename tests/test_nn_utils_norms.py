"""weight_norm and spectral_norm, both APIs (the forward pre-hooks of torch.nn.utils and the
parametrizations), and torch._weight_norm's fused kernel (WeightNormInterfaceBackward0, its
float32 bits for the first and the last dimension, at one and two threads: the last dimension's
column sums are split among at::parallel_for's threads): against torch."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _same(want: list[Any], have: list[Any], exact: bool = True) -> None:
    assert len(want) == len(have)
    for w, h in zip(want, have):
        if hasattr(w, "detach"):
            assert tuple(h.shape) == tuple(w.shape) and str(h.dtype) == str(w.dtype)
            if exact:
                np.testing.assert_array_equal(h.detach().numpy(), w.detach().numpy())
            else:
                np.testing.assert_allclose(h.detach().numpy(), w.detach().numpy(), rtol=1e-6,
                                           atol=1e-7)
        else:
            assert h == w


@pytest.mark.parametrize("shape,dim", [((40, 20), 0), ((7, 3, 5), 0), ((4, 33), 0),
                                       ((5, 3), 0), ((6, 5), 1), ((40, 20), 1),
                                       ((3, 4, 17), 2), ((3, 4, 5), 1), ((5, 4), -1),
                                       ((300, 64), 1), ((301, 7, 9), 2)])
def test_weight_norm_kernel_bits(torch: Any, thread_count: int, shape: Any, dim: int) -> None:
    def run(T: Any) -> list[Any]:
        T.manual_seed(0)
        v = T.randn(*shape, requires_grad=True)
        g = (T.rand(T.norm_except_dim(v, 2, dim).shape) + 0.5).requires_grad_()
        w = T._weight_norm(v, g, dim)
        w.backward(T.randn(shape))
        return [w, v.grad, g.grad, w.grad_fn.name()]
    # the composite of other dims goes through norm's reduction, whose bits are its own
    _same(run(torch), run(gtorch), exact=dim in (0, len(shape) - 1))


def _hook_api(T: Any) -> list[Any]:
    T.manual_seed(0)
    nn = T.nn
    m = nn.utils.weight_norm(nn.Linear(20, 8))
    m(T.randn(3, 20)).sum().backward()
    names = sorted(n for n, _ in m.named_parameters())
    grads = [m.weight_g.grad, m.weight_v.grad]
    nn.utils.remove_weight_norm(m)
    sn = nn.utils.spectral_norm(nn.Linear(6, 4))
    for _ in range(3):
        out = sn(T.randn(2, 6))
    out.sum().backward()
    sn_names = sorted(n for n, _ in sn.named_buffers())
    sn.eval()
    evaluated = sn(T.ones(1, 6))
    conv = nn.utils.spectral_norm(nn.ConvTranspose2d(3, 2, 2))
    return [names, *grads, sorted(n for n, _ in m.named_parameters()), m.weight, out,
            sn.weight_orig.grad, sn_names, evaluated, sn.weight_u, conv.weight_u.shape,
            conv.weight_v.shape]


def _parametrizations(T: Any) -> list[Any]:
    T.manual_seed(0)
    nn, P = T.nn, T.nn.utils.parametrizations
    m = P.weight_norm(nn.Linear(5, 4))
    m(T.randn(2, 5)).pow(2).sum().backward()
    old = nn.utils.weight_norm(nn.Linear(5, 4))
    m3 = P.weight_norm(nn.Linear(5, 4))
    loaded = str(m3.load_state_dict(old.state_dict()))
    sn = P.spectral_norm(nn.Linear(6, 4))
    y = sn(T.randn(2, 6))
    return [sorted(m.state_dict()), m.parametrizations.weight.original0.grad,
            m.parametrizations.weight.original1.grad, loaded, T.equal(m3.weight, old.weight),
            sorted(sn.state_dict()), y, sn.parametrizations.weight[0]._u, repr(m)]


@pytest.mark.parametrize("program", [_hook_api, _parametrizations])
def test_apis_match_torch(torch: Any, one_thread: None, program: Any) -> None:
    with pytest.warns(FutureWarning):
        want = program(torch)
    with pytest.warns(FutureWarning):
        have = program(gtorch)
    _same(want, have, exact=False)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.utils.weight_norm(T.nn.utils.weight_norm(T.nn.Linear(2, 2))),
    lambda T: T.nn.utils.remove_weight_norm(T.nn.Linear(2, 2)),
    lambda T: T.nn.utils.spectral_norm(T.nn.utils.spectral_norm(T.nn.Linear(2, 2))),
    lambda T: T.nn.utils.remove_spectral_norm(T.nn.Linear(2, 2)),
    lambda T: T.nn.utils.spectral_norm(T.nn.Linear(2, 2), n_power_iterations=0),
])
def test_errors_match_torch(torch: Any, call: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(Exception) as want:
            call(torch)
        with pytest.raises(Exception) as have:
            call(gtorch)
    assert type(have.value).__name__ == type(want.value).__name__
    assert str(have.value) == str(want.value)
