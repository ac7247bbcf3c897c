"""The one-pass optimizer updates (torch/optim/_fused.py, _native_optim.h) against PyTorch and
against gradsh's own op chain: bit for bit over several steps, every option the kernels take,
awkward values in the gradients, version counters and the undo log."""

from __future__ import annotations

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.undo import undo_log
from gradsh.engine.vecmath import mkl, native, vml
from gradsh.torch.optim import _fused

pytestmark = pytest.mark.skipif(native.kernels is None, reason="no compiled kernels")

CASES = [
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.9), "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True, "eps": 1e-3}),
    ("Adam", {"lr": 0.01, "betas": (0.3, 0.99), "weight_decay": 1.0}),  # lerp from the far end
    ("Adam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.2}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.5, "maximize": True}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "centered": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.3, "maximize": True, "centered": True}),
    ("Adagrad", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.8, "dampening": 0.3, "maximize": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.1, "maximize": True}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for name, kw in CASES]
STEPS = 8


def _initial() -> list[np.ndarray]:
    rng = np.random.default_rng(28)
    return [rng.standard_normal((40, 50)).astype(np.float32),
            rng.standard_normal(1500).astype(np.float32),
            rng.standard_normal(5001).astype(np.float32)]  # the kernels' blocks of 2,048 and a part


def _gradient(param: np.ndarray, step: int) -> np.ndarray:
    """A gradient both sides compute identically, with zeros, signed zeros, subnormals and
    large values (squares past float32's range) among ordinary ones."""
    g = (np.sin(3 * param) + np.float32(0.05 * step)).astype(np.float32)
    flat = g.reshape(-1)
    flat[::97] = 0.0
    flat[1::97] = -0.0
    flat[2::97] = np.float32(3e-42)
    flat[3::97] = np.float32(-7e-39)
    flat[4::97] = np.float32(1e15 * (step + 1))
    flat[5::97] = np.float32(-2e-20)
    flat[6::491] = np.float32(3e19)  # its square overflows to infinity
    return g


def _run(make, name: str, kwargs: dict, from_numpy) -> list[list[np.ndarray]]:
    """Parameters after each step, and the parameters and optimizer at the end."""
    params = [from_numpy(a.copy()).requires_grad_() for a in _initial()]
    opt = getattr(make.optim, name)(params, **kwargs)
    history = []
    for step in range(STEPS):
        for p in params:
            p.grad = from_numpy(_gradient(p.detach().numpy(), step))
        opt.step()
        history.append([np.array(p.detach().numpy()) for p in params])
    return history, params, opt


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and np.array_equal(a.view(np.int32), b.view(np.int32))


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_one_pass_update_is_torch_bit_for_bit(torch, monkeypatch, name, kwargs):
    calls = []
    real = native.kernels.optim_step
    monkeypatch.setattr(native.kernels, "optim_step", lambda *a: calls.append(a[0]) or real(*a))
    ours, params, opt = _run(gt, name, kwargs, gt.from_numpy)
    theirs, tparams, topt = _run(torch, name, kwargs, torch.from_numpy)
    # every update took the one pass (SGD's first makes its momentum buffer by a clone), but
    # for those with a square root where the kernels' sqrt is not this machine's VML's
    if name == "SGD":
        assert len(calls) == len(params) * (STEPS - 1)
    else:
        assert len(calls) == (len(params) * STEPS if _fused.kernel_sqrt_is_the_ops() else 0)
    for step, (a_list, b_list) in enumerate(zip(theirs, ours, strict=True)):
        for a, b in zip(a_list, b_list, strict=True):
            assert _same(a, b), f"step {step}: {np.count_nonzero(a != b)} elements differ"
    for p, tp in zip(params, tparams, strict=True):  # the state, and the versions counted
        assert p._version == tp._version
        for key, value in opt.state[p].items():
            theirs_value = topt.state[tp][key]
            assert _same(value.numpy(), theirs_value.numpy()), key
            assert value._version == theirs_value._version, key


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_one_pass_update_is_the_op_chain(monkeypatch, name, kwargs):
    """The compiled pass and the op chain it replaces (the path without the kernels)."""
    fused, _, _ = _run(gt, name, kwargs, gt.from_numpy)
    monkeypatch.setattr(_fused, "_arrays", lambda tensors: None)
    chain, _, _ = _run(gt, name, kwargs, gt.from_numpy)
    for a_list, b_list in zip(chain, fused, strict=True):
        for a, b in zip(a_list, b_list, strict=True):
            assert _same(a, b)


def test_kernel_sqrt_check_is_torch_sqrt(torch):
    """The check that picks the kernels (kernel_sqrt_is_the_ops) says True only where the
    kernels' sqrt, as they take it (vml.py's model, or MKL's vmsSqrt on blocks where the model
    is not this CPU's VML path), is torch's own on this machine: random positive float32 across
    exponents, from every offset in a block (VML's results must not depend on an element's
    place or on how many it is given). (Without MKL's VML the op itself is vml.py's model.)"""
    if not mkl.available():
        pytest.skip(mkl.reason())
    check = _fused.kernel_sqrt_is_the_ops()
    rng = np.random.default_rng(9)
    x = rng.integers(1, 0x7F800000, 100_003, dtype=np.int64).astype(np.int32).view(np.float32)
    expected = torch.sqrt(torch.from_numpy(x)).numpy()
    same = True
    for offset in (0, 1, 3, 2047, 2049):
        out = np.empty_like(x[offset:])
        native.kernels.optim_sqrt(out, x[offset:], out.size)
        same = same and np.array_equal(out.view(np.int32), expected[offset:].view(np.int32))
    assert check == same


@pytest.mark.parametrize("step", [
    pytest.param(1, marks=pytest.mark.slow, id="every"),
    pytest.param(61, id="every-61st")])
def test_kernels_sqrt_is_vml_sqrt(step):
    """The kernels' sqrt is MKL's vmsSqrt as vml.py computes it: every float32 in [1, 4) (the
    rest scales by the exponent) and every third subnormal with the slow tests, else every 61st
    of those; random bit patterns and specials."""
    _fused._set_sqrt_table()
    whole = np.arange(np.float32(1).view(np.int32), np.float32(4).view(np.int32), step,
                      dtype=np.int32).view(np.float32)
    rng = np.random.default_rng(5)
    random = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    tiny = np.arange(0, 1 << 24, 3 * step, dtype=np.int32).view(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1e-45, 3.4e38], np.float32)
    for x in (whole, random, tiny, specials):
        out = np.empty_like(x)
        native.kernels.vml_sqrt(out, x, x.size)
        expected = vml.sqrt(x)
        assert np.array_equal(out, expected, equal_nan=True)
        assert np.array_equal(np.signbit(out), np.signbit(expected))


def test_kernels_roots_without_mkl_are_vml_model():
    """Where the check keeps vml.py's model (no MKL call set), the kernels' roots of a block are
    vml.sqrt's, at any offset (this machine may call MKL's vmsSqrt instead: set it aside)."""
    _fused.kernel_sqrt_is_the_ops()
    native.kernels.set_mkl_sqrt(0, 0)
    try:
        rng = np.random.default_rng(6)
        x = rng.integers(0, 0x7F800000, 10_007, dtype=np.int64).astype(np.int32).view(np.float32)
        for offset in (0, 5, 2048):
            out = np.empty_like(x[offset:])
            native.kernels.optim_sqrt(out, x[offset:], out.size)
            assert np.array_equal(out, vml.sqrt(x[offset:]))
    finally:
        native.kernels.set_mkl_sqrt(_fused.mkl_sqrt_address or 0, mkl.MODE)


def test_undo_log_restores_what_the_pass_wrote():
    params = [gt.from_numpy(a.copy()).requires_grad_() for a in _initial()]
    opt = gt.optim.Adam(params, lr=0.1, amsgrad=True)
    for p in params:
        p.grad = gt.from_numpy(_gradient(p.detach().numpy(), 0))
    opt.step()
    before = [np.array(p.detach().numpy()) for p in params]
    state = [{k: np.array(v.numpy()) for k, v in opt.state[p].items()} for p in params]
    with undo_log() as log:
        opt.step()
        assert not np.array_equal(params[0].detach().numpy(), before[0])
        log.rollback()
    for p, old, old_state in zip(params, before, state, strict=True):
        assert np.array_equal(p.detach().numpy(), old)
        for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
            assert np.array_equal(opt.state[p][key].numpy(), old_state[key])


def test_views_other_dtypes_and_small_parameters_take_the_op_chain(torch, monkeypatch):
    calls = []
    real = native.kernels.optim_step
    monkeypatch.setattr(native.kernels, "optim_step", lambda *a: calls.append(a[0]) or real(*a))
    base = gt.from_numpy(_initial()[0].copy())
    view = base[:, :30].detach().requires_grad_()  # a leaf, but not C-contiguous
    small = gt.zeros(10, requires_grad=True)
    double = gt.zeros(2000, dtype=gt.float64, requires_grad=True)
    for p in (view, small, double):
        p.grad = gt.ones_like(p)
        gt.optim.Adam([p], lr=0.1).step()
    assert calls == []
