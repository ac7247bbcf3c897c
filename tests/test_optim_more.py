"""torch.optim's Rprop, ASGD and Adafactor against PyTorch: seeded 50-step runs bit for bit
(float32 and float64; Adafactor's float64 within 1e-13, its rsqrt being MKL's), constructor
errors, reprs, state dicts; and dir(torch.optim) as PyTorch's."""

from __future__ import annotations

import numpy as np
import pytest
from test_optim import _run

import gradsh.torch as gt

CASES = [
    ("Rprop", {}),
    ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    ("Rprop", {"lr": 0.02, "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "lambd": 1e-3, "alpha": 0.5, "t0": 10, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.03, "t0": 0, "maximize": True}),
    ("Adafactor", {}),
    ("Adafactor", {"lr": 0.05, "weight_decay": 0.1}),
    ("Adafactor", {"maximize": True, "eps": (1e-30, 1e-3), "d": 2.0, "beta2_decay": -0.5}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for name, kw in CASES]


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fifty_steps_bit_for_bit(torch, name, kwargs, dtype):
    for step, (theirs, ours) in enumerate(_run(torch, name, kwargs, dtype=dtype)):
        for a, b in zip(theirs, ours, strict=True):
            assert a.dtype == b.dtype
            if name == "Adafactor" and dtype == np.float64:
                np.testing.assert_allclose(b, a, rtol=1e-13, atol=1e-13)
            else:
                assert np.array_equal(a, b), f"step {step}: max diff {np.abs(a - b).max()}"


def _state(opt, module):
    """The optimizer's state dict as plain Python/NumPy values, for comparing across libraries."""
    sd = opt.state_dict()
    state = {k: {n: (v.detach().numpy() if isinstance(v, module.Tensor) else v)
                 for n, v in s.items()} for k, s in sd["state"].items()}
    return state, sd["param_groups"]


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_state_dict_repr_and_reload(torch, name, kwargs):
    theirs = [torch.ones(3, requires_grad=True), torch.zeros(2, 2, requires_grad=True)]
    ours = [gt.ones(3, requires_grad=True), gt.zeros(2, 2, requires_grad=True)]
    their_opt = getattr(torch.optim, name)(theirs, **kwargs)
    our_opt = getattr(gt.optim, name)(ours, **kwargs)
    assert repr(our_opt) == repr(their_opt)
    for _ in range(3):
        for module, params, opt in ((torch, theirs, their_opt), (gt, ours, our_opt)):
            (params[0].sin().sum() + (params[1] * 3).cos().sum()).backward()
            opt.step()
    (their_state, their_groups), (our_state, our_groups) = _state(their_opt, torch), _state(
        our_opt, gt)
    assert our_groups == their_groups
    assert our_state.keys() == their_state.keys()
    for k in their_state:
        assert our_state[k].keys() == their_state[k].keys()
        for n, v in their_state[k].items():
            assert np.array_equal(our_state[k][n], v, equal_nan=True), (k, n)
            assert np.asarray(our_state[k][n]).dtype == np.asarray(v).dtype
    fresh = getattr(gt.optim, name)([gt.ones(3, requires_grad=True),
                                     gt.zeros(2, 2, requires_grad=True)], **kwargs)
    fresh.load_state_dict(our_opt.state_dict())
    assert _state(fresh, gt)[1] == our_groups


@pytest.mark.parametrize(("name", "kwargs"), [
    ("Rprop", {"lr": -1.0}), ("Rprop", {"etas": (1.5, 1.2)}), ("Rprop", {"etas": (0.5, 0.9)}),
    ("ASGD", {"lr": -0.1}), ("ASGD", {"weight_decay": -1.0}),
    ("Adafactor", {"lr": -0.1}), ("Adafactor", {"beta2_decay": 0.5}),
    ("Adafactor", {"eps": (-1.0, 1e-3)}), ("Adafactor", {"eps": (None, -1.0)}),
    ("Adafactor", {"d": 0.5}), ("Adafactor", {"weight_decay": -1.0}),
])
def test_construction_errors_match(torch, name, kwargs):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, name)([torch.ones(2, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as ours:
        getattr(gt.optim, name)([gt.ones(2, requires_grad=True)], **kwargs)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_tensor_lr(torch, name):
    """A 0-d tensor learning rate: ASGD's eta recurrence runs in the tensor's arithmetic."""
    theirs = torch.linspace(-2, 2, 11, requires_grad=True)
    ours = gt.linspace(-2, 2, 11, requires_grad=True)
    their_opt = getattr(torch.optim, name)([theirs], lr=torch.tensor(0.07))
    our_opt = getattr(gt.optim, name)([ours], lr=gt.tensor(0.07))
    for step in range(10):
        for param, opt in ((theirs, their_opt), (ours, our_opt)):
            opt.zero_grad()
            (param * param * param).sum().backward()
            opt.step()
        assert np.array_equal(ours.detach().numpy(), theirs.detach().numpy()), step


def test_dir_of_optim_is_torchs(torch):
    ours = {n for n in dir(gt.optim) if not n.startswith("__")}
    theirs = {n for n in dir(torch.optim) if not n.startswith("__")}
    assert ours <= theirs
    assert {"Rprop", "ASGD", "Adafactor", "lr_scheduler", "swa_utils"} <= ours
    with pytest.raises(AttributeError, match="has no attribute 'adam'"):
        gt.optim.adam  # noqa: B018


def _flag_outcomes(torch):
    """Two steps of each optimizer with capturable / differentiable / foreach / maximize on a
    CPU leaf parameter: the values, or the error PyTorch's update raises."""
    out = []
    for name in ["Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Rprop", "ASGD", "Adadelta",
                 "RMSprop", "SGD", "Adagrad"]:
        for flags in [{"capturable": True}, {"differentiable": True}, {"foreach": True},
                      {"foreach": False, "maximize": True}]:
            try:
                p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
                opt = getattr(torch.optim, name)([p], lr=0.1, **flags)
                for _ in range(2):
                    opt.zero_grad()
                    (p * p).sum().backward()
                    opt.step()
                out.append((name, flags, "ok", p.detach().numpy().tolist()))
            except Exception as e:  # noqa: BLE001  (the error is the outcome compared)
                out.append((name, flags, type(e).__name__, str(e)))
    return out


def test_capturable_differentiable_foreach_flags_on_cpu(torch):
    for ours, theirs in zip(_flag_outcomes(gt), _flag_outcomes(torch), strict=True):
        assert ours[:3] == theirs[:3]
        if ours[2] == "ok":
            np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6)
        else:
            assert ours[3] == theirs[3]
