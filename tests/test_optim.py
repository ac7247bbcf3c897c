"""torch.optim against PyTorch: seeded 50-step runs of every optimizer (bit for bit where the
arithmetic is PyTorch's), param groups as dicts, state dicts, zero_grad, closures, reprs."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.tensor import Tensor

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.8, "dampening": 0.3, "maximize": True}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.9), "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True, "eps": 1e-3}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.5}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
    ("Adagrad", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.1, "maximize": True}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {"lr": 0.01}),
    ("Adamax", {"lr": 0.02, "betas": (0.8, 0.9), "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {"lr": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1,
               "decoupled_weight_decay": True}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for name, kw in CASES]


def _initial(dtype: type = np.float32) -> list[np.ndarray]:
    rng = np.random.default_rng(20200910)
    return [rng.standard_normal((7, 9)).astype(dtype), rng.standard_normal(33).astype(dtype)]


def _gradient(param: np.ndarray, step: int) -> np.ndarray:
    """A gradient both sides compute identically from the same parameter values."""
    return (np.sin(3 * param) + param.dtype.type(0.05 * step)).astype(param.dtype)


def _pair(torch, name: str, kwargs: dict, dtype: type = np.float32):
    init = _initial(dtype)
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    ours = [gt.from_numpy(a.copy()).requires_grad_() for a in init]
    return (theirs, getattr(torch.optim, name)(theirs, **kwargs),
            ours, getattr(gt.optim, name)(ours, **kwargs))


def _run(torch, name: str, kwargs: dict, steps: int = 50, dtype: type = np.float32):
    """Both optimizers side by side; yields both parameter lists after every step."""
    theirs, their_opt, ours, our_opt = _pair(torch, name, kwargs, dtype)
    for step in range(steps):
        for a, b in zip(theirs, ours, strict=True):
            a.grad = torch.from_numpy(_gradient(a.detach().numpy(), step))
            b.grad = gt.from_numpy(_gradient(b.detach().numpy(), step))
        their_opt.step()
        our_opt.step()
        yield [a.detach().numpy() for a in theirs], [b.detach().numpy() for b in ours]


@pytest.fixture
def torch_sqrt(torch, monkeypatch):
    """gradsh's float64 sqrt replaced by PyTorch's own for the test.

    NOTE: PyTorch's CPU sqrt goes through MKL's vector math, which is not correctly rounded.
    gradsh reproduces MKL's float32 vmsSqrt (vecmath/vml.py, so float32 runs gradsh's own), but
    its float64 sqrt is the exact IEEE root where MKL's vmdSqrt is off by an ulp on about 0.9%
    of inputs. With PyTorch's float64 sqrt substituted, every other operation of an update
    must match bit for bit.
    """
    own = Tensor.sqrt

    def sqrt(self: Tensor) -> Tensor:
        if self._data.dtype != np.float64:
            return own(self)
        return gt.from_numpy(torch.from_numpy(np.array(self._data)).sqrt().numpy())

    def sqrt_(self: Tensor) -> Tensor:
        self._inplace_data(sqrt(self)._data)
        return self

    monkeypatch.setattr(Tensor, "sqrt", sqrt)
    monkeypatch.setattr(Tensor, "sqrt_", sqrt_)


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fifty_steps_bit_for_bit(torch, torch_sqrt, name, kwargs, dtype):
    for step, (theirs, ours) in enumerate(_run(torch, name, kwargs, dtype=dtype)):
        for a, b in zip(theirs, ours, strict=True):
            assert a.dtype == b.dtype
            assert np.array_equal(a, b), f"step {step}: max diff {np.abs(a - b).max()}"


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_fifty_steps_with_gradsh_sqrt(torch, name, kwargs):
    """gradsh's own (exactly rounded) sqrt: within float32 rounding of PyTorch's run."""
    for theirs, ours in _run(torch, name, kwargs):
        for a, b in zip(theirs, ours, strict=True):
            np.testing.assert_allclose(b, a, rtol=2e-5, atol=2e-6)
    if name == "SGD":  # no sqrt: nothing between the two runs can differ
        assert all(np.array_equal(a, b) for a, b in zip(theirs, ours, strict=True))


def test_training_a_regression_matches_torch(torch):
    """Real gradients through autograd (element-wise ops only), Adam, 50 steps: the losses."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(40).astype(np.float32)
    y = (3 * x - 1 + 0.1 * rng.standard_normal(40)).astype(np.float32)
    losses = []
    for lib, data in ((torch, torch.from_numpy), (gt, gt.from_numpy)):
        w = data(np.array([0.5], dtype=np.float32)).requires_grad_()
        b = data(np.array([0.0], dtype=np.float32)).requires_grad_()
        opt = lib.optim.Adam([w, b], lr=0.1)
        run = []
        for _ in range(50):
            opt.zero_grad()
            loss = ((w * data(x) + b - data(y)) ** 2).mean()
            loss.backward()
            opt.step()
            run.append(loss.item())
        losses.append(run)
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)


def test_param_groups_are_dicts_that_steer_the_update(torch):
    results = []
    for lib, data in ((torch, torch.from_numpy), (gt, gt.from_numpy)):
        a = data(np.ones(3, dtype=np.float32)).requires_grad_()
        b = data(np.ones(2, dtype=np.float32)).requires_grad_()
        c = data(np.ones(2, dtype=np.float32)).requires_grad_()
        opt = lib.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
        opt.add_param_group({"params": [c], "momentum": 0.0})
        opt.param_groups[0]["lr"] = 0.01
        for _ in range(3):
            for t in (a, b, c):
                t.grad = data(np.full(t.shape, 2.0, dtype=np.float32))
            opt.step()
        assert isinstance(opt.param_groups[1], dict)
        results.append(([t.detach().numpy().copy() for t in (a, b, c)],
                        [{k: v for k, v in g.items() if k != "params"}
                         for g in opt.param_groups]))
    (their_values, their_groups), (our_values, our_groups) = results
    assert our_groups == their_groups
    for x, y in zip(their_values, our_values, strict=True):
        assert np.array_equal(x, y)


def test_reprs_match(torch):
    for name, kwargs in CASES:
        theirs, their_opt, ours, our_opt = _pair(torch, name, kwargs)
        assert repr(our_opt) == repr(their_opt)
    two = [{"params": [gt.zeros(2, requires_grad=True)]},
           {"params": [gt.zeros(2, requires_grad=True)], "lr": 0.5}]
    their_two = [{"params": [torch.zeros(2, requires_grad=True)]},
                 {"params": [torch.zeros(2, requires_grad=True)], "lr": 0.5}]
    assert repr(gt.optim.Adam(two)) == repr(torch.optim.Adam(their_two))


def _plain(value):
    if hasattr(value, "detach"):
        return ("tensor", str(value.dtype), value.detach().numpy().tolist())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


@pytest.mark.parametrize(("name", "kwargs"), CASES[:: 2], ids=IDS[:: 2])
def test_state_dict_and_reload(torch, torch_sqrt, name, kwargs):
    steps = list(_run(torch, name, kwargs, steps=3))
    assert steps
    theirs, their_opt, ours, our_opt = _pair(torch, name, kwargs)
    for a, b in zip(theirs, ours, strict=True):
        a.grad = torch.ones_like(a)
        b.grad = gt.ones_like(b)
    their_opt.step()
    our_opt.step()
    assert _plain(our_opt.state_dict()) == _plain(their_opt.state_dict())
    # a fresh optimizer loaded from the state dict continues exactly as the original
    fresh = [gt.from_numpy(b.detach().numpy().copy()).requires_grad_() for b in ours]
    loaded = getattr(gt.optim, name)(fresh, **kwargs)
    loaded.load_state_dict(copy.deepcopy(our_opt.state_dict()))  # PyTorch shares the tensors
    assert _plain(loaded.state_dict()) == _plain(our_opt.state_dict())
    for b, f in zip(ours, fresh, strict=True):
        b.grad = gt.ones_like(b)
        f.grad = gt.ones_like(f)
    our_opt.step()
    loaded.step()
    for b, f in zip(ours, fresh, strict=True):
        assert np.array_equal(b.detach().numpy(), f.detach().numpy())


@pytest.mark.parametrize("kwargs", [{"lr": 0.8, "max_iter": 4},
                                    {"lr": 1, "max_iter": 6, "history_size": 3},
                                    {"line_search_fn": "strong_wolfe", "max_iter": 5}])
def test_lbfgs_follows_torch(torch, kwargs):
    """L-BFGS on a small least-squares problem in float64: the closure's losses, call for call,
    the parameters and the state's keys after two steps, as PyTorch's."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((12, 4))
    y = rng.standard_normal(12)
    runs = []
    for lib in (torch, gt):
        w = lib.zeros(4, dtype=lib.float64, requires_grad=True)
        b = lib.zeros(1, dtype=lib.float64, requires_grad=True)
        opt = lib.optim.LBFGS([w, b], **kwargs)
        losses: list[float] = []

        def closure():
            opt.zero_grad()
            err = lib.tanh(lib.from_numpy(a) @ w + b) - lib.from_numpy(y)
            loss = (err * err).mean()
            loss.backward()
            losses.append(loss.item())
            return loss

        for _ in range(2):
            opt.step(closure)
        runs.append((losses, w.detach().numpy().copy(), sorted(opt.state[w]), repr(opt)))
    (their_losses, their_w, their_keys, their_repr), (losses, ours, keys, our_repr) = runs
    assert len(losses) == len(their_losses)
    np.testing.assert_allclose(losses, their_losses, rtol=1e-12)
    np.testing.assert_allclose(ours, their_w, rtol=1e-10, atol=1e-12)
    assert keys == their_keys and our_repr == their_repr


def test_lbfgs_refuses_groups_and_bad_lr(torch):
    for lib in (torch, gt):
        w = lib.zeros(2, requires_grad=True)
        with pytest.raises(ValueError, match="doesn't support per-parameter options"):
            lib.optim.LBFGS([{"params": [w]}, {"params": [lib.ones(1, requires_grad=True)]}])
        with pytest.raises(ValueError, match="Invalid learning rate: -1"):
            lib.optim.LBFGS([w], lr=-1)


def test_zero_grad_and_closure(torch):
    w = gt.ones(3, requires_grad=True)
    opt = gt.optim.SGD([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 3.0
    assert np.allclose(w.detach().numpy(), 0.8)
    opt.zero_grad(set_to_none=False)
    assert w.grad is not None and np.array_equal(w.grad.numpy(), np.zeros(3, np.float32))
    opt.zero_grad()
    assert w.grad is None
    version = w._version
    w.grad = gt.ones(3)
    opt.step()
    assert w._version > version  # the update is an in-place change, as PyTorch's


@pytest.mark.parametrize(("build", "kind"), [
    (lambda lib: lib.optim.SGD([], lr=0.1), ValueError),
    (lambda lib: lib.optim.SGD(lib.zeros(2, requires_grad=True), lr=0.1), TypeError),
    (lambda lib: lib.optim.SGD([lib.zeros(2, requires_grad=True) * 2], lr=0.1), ValueError),
    (lambda lib: lib.optim.SGD([lib.zeros(2, requires_grad=True)], lr=-1), ValueError),
    (lambda lib: lib.optim.SGD([lib.zeros(2, requires_grad=True)], lr=0.1, nesterov=True),
     ValueError),
    (lambda lib: lib.optim.Adam([lib.zeros(2, requires_grad=True)], betas=(1.0, 0.9)),
     ValueError),
    (lambda lib: lib.optim.SGD([{"params": {lib.zeros(2, requires_grad=True)}}]), TypeError),
    (lambda lib: lib.optim.SGD([1.0]), TypeError),
    (lambda lib: lib.optim.Adadelta([lib.zeros(2, requires_grad=True)], rho=1.5), ValueError),
    (lambda lib: lib.optim.NAdam([lib.zeros(2, requires_grad=True)], momentum_decay=-1),
     ValueError),
    (lambda lib: lib.optim.RAdam([lib.zeros(2, requires_grad=True)], eps=-1), ValueError),
    (lambda lib: lib.optim.Adamax([lib.zeros(2, requires_grad=True)], betas=(0.5, 1.0)),
     ValueError),
])
def test_construction_errors_match(torch, build, kind):
    with pytest.raises(kind) as theirs:
        build(torch)
    with pytest.raises(kind) as ours:
        build(gt)
    assert str(ours.value) == str(theirs.value)


def test_shared_parameter_between_groups_is_refused(torch):
    w = gt.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        gt.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)


def test_step_hooks_run_around_step():
    w = gt.zeros(2, requires_grad=True)
    opt = gt.optim.SGD([w], lr=0.1)
    calls = []
    handle = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    opt.step()
    handle.remove()
    opt.step()
    assert calls == ["pre", "post", "post"]


def test_plain_sgd_group_updates_as_torch(torch):
    """SGD with a group that has only a float lr (momentum 0, no weight decay, no maximize):
    float32 and float64 parameters, a transposed leaf, one without a grad, and a group with
    weight decay beside it, bit for bit torch's after several steps."""
    rng = np.random.default_rng(7)
    shapes = [(3, 4), (5,), (4, 3), (2,)]
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(3)]
    results = []
    for lib in (torch, gt):
        ps = [lib.tensor(a).requires_grad_() for a in arrays]
        ps[2] = lib.tensor(arrays[2].T.copy()).t().requires_grad_()  # non-contiguous leaf
        ps[1] = lib.tensor(arrays[1].astype(np.float64)).requires_grad_()
        opt = lib.optim.SGD([{"params": ps[:3]}, {"params": ps[3:], "weight_decay": 0.5}],
                            lr=0.37)
        for k, step in enumerate(grads):
            for p, g in zip(ps, step, strict=True):
                p.grad = lib.tensor(g).to(p.dtype)
            if k == 0:
                ps[0].grad = None  # skipped on the first step
            opt.step()
        results.append([p.detach().numpy().copy() for p in ps])
    for theirs, ours in zip(*results, strict=True):
        assert theirs.dtype == ours.dtype and theirs.tobytes() == ours.tobytes()
