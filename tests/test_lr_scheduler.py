"""torch.optim.lr_scheduler against PyTorch: 50 steps of each scheduler, the lr of every group
and get_last_lr() after each step (the same floats: the schedules are Python arithmetic)."""

from __future__ import annotations

import math
import warnings

import pytest

import gradsh.torch as gt


def _schedulers(lib, opt):
    """name -> a function building that scheduler for `opt` with the library `lib`."""
    s = lib.optim.lr_scheduler
    return {
        "StepLR": lambda: s.StepLR(opt, step_size=7, gamma=0.5),
        "MultiStepLR": lambda: s.MultiStepLR(opt, milestones=[5, 12, 12, 30], gamma=0.3),
        "ExponentialLR": lambda: s.ExponentialLR(opt, gamma=0.93),
        "CosineAnnealingLR": lambda: s.CosineAnnealingLR(opt, T_max=13, eta_min=0.001),
        "LambdaLR": lambda: s.LambdaLR(opt, lr_lambda=lambda epoch: 1 / (1 + epoch)),
        "MultiplicativeLR": lambda: s.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.97),
        "LinearLR": lambda: s.LinearLR(opt, start_factor=0.2, total_iters=9),
        "ConstantLR": lambda: s.ConstantLR(opt, factor=0.25, total_iters=6),
        "PolynomialLR": lambda: s.PolynomialLR(opt, total_iters=30, power=2.0),
        "OneCycleLR": lambda: s.OneCycleLR(opt, max_lr=[0.5, 0.3], total_steps=50),
        "OneCycleLR3": lambda: s.OneCycleLR(opt, max_lr=0.4, total_steps=50, three_phase=True,
                                            anneal_strategy="linear"),
        "SequentialLR": lambda: s.SequentialLR(
            opt, [s.LinearLR(opt, start_factor=0.1, total_iters=5),
                  s.CosineAnnealingLR(opt, T_max=20)], milestones=[5]),
        "ChainedScheduler": lambda: s.ChainedScheduler(
            [s.ExponentialLR(opt, gamma=0.9), s.StepLR(opt, step_size=4, gamma=0.5)]),
        "CyclicLR": lambda: s.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=4,
                                       step_size_down=6),
        "CyclicLR2": lambda: s.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3,
                                        mode="triangular2", base_momentum=0.7),
        "CyclicLRexp": lambda: s.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=5,
                                          mode="exp_range", gamma=0.95),
        "CosineAnnealingWarmRestarts": lambda: s.CosineAnnealingWarmRestarts(
            opt, T_0=4, T_mult=2, eta_min=0.001),
        "CosineAnnealingWarmRestarts1": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=7),
    }


def _optimizer(lib, momentum: bool = True):
    a = lib.zeros(2, requires_grad=True)
    b = lib.zeros(3, requires_grad=True)
    return lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.05}], lr=0.1,
                         momentum=0.9 if momentum else 0)


def _trace(lib, name: str, steps: int = 50) -> list:
    opt = _optimizer(lib)
    scheduler = _schedulers(lib, opt)[name]()
    trace = [scheduler.get_last_lr()]
    for _ in range(steps - 1 if name.startswith("OneCycle") else steps):
        opt.step()
        scheduler.step()
        trace.append((scheduler.get_last_lr(), [g["lr"] for g in opt.param_groups],
                      [g["momentum"] for g in opt.param_groups]))
    return trace


NAMES = list(_schedulers(gt, _optimizer(gt)))


@pytest.mark.parametrize("name", NAMES)
def test_fifty_steps_match(torch, name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning in the right order of calls
        ours = _trace(gt, name)
    theirs = _trace(torch, name)
    assert ours == theirs


def test_reduce_lr_on_plateau_matches(torch):
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.89, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.6, 0.6, 0.6]
    traces = []
    for lib in (torch, gt):
        opt = _optimizer(lib)
        s = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, factor=0.5, cooldown=1,
                                                     min_lr=[0.01, 0.02], threshold=0.01)
        trace = []
        for metric in metrics * 3:
            opt.step()
            s.step(metric)
            trace.append((s.get_last_lr(), s.num_bad_epochs, s.cooldown_counter, s.best))
        traces.append(trace)
    assert traces[1] == traces[0]


def test_closed_form_with_epoch_and_its_warning(torch):
    traces = []
    for lib in (torch, gt):
        opt = _optimizer(lib)
        s = lib.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            opt.step()
            s.step(10)
        traces.append((s.get_last_lr(), [str(w.message) for w in caught]))
    assert traces[1] == traces[0]
    assert "epoch parameter" in traces[1][1][0]


def test_step_before_optimizer_step_warns_as_pytorch(torch):
    messages = []
    for lib in (torch, gt):
        opt = _optimizer(lib)
        s = lib.optim.lr_scheduler.StepLR(opt, step_size=3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            s.step()
            s.step()
        messages.append([(w.category, str(w.message)) for w in caught])
    assert messages[1] == messages[0]
    assert len(messages[1]) == 1
    assert messages[1][0][1].startswith("Detected call of `lr_scheduler.step()` before")


def test_get_lr_outside_step_warns(torch):
    opt = _optimizer(gt)
    s = gt.optim.lr_scheduler.StepLR(opt, step_size=3)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        s.get_lr()


def test_state_dict_round_trip():
    opt = _optimizer(gt)
    s = gt.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    for _ in range(4):
        opt.step()
        s.step()
    state = s.state_dict()
    assert "optimizer" not in state and state["last_epoch"] == 4
    other = gt.optim.lr_scheduler.CosineAnnealingLR(_optimizer(gt), T_max=99)
    other.load_state_dict(state)
    assert other.T_max == 10 and other.get_last_lr() == s.get_last_lr()


@pytest.mark.parametrize(("build", "kind"), [
    (lambda s, opt: s.StepLR(object(), 3), TypeError),
    (lambda s, opt: s.ReduceLROnPlateau(opt, factor=1.0), ValueError),
    (lambda s, opt: s.ReduceLROnPlateau(opt, mode="up"), ValueError),
    (lambda s, opt: s.OneCycleLR(opt, max_lr=0.1), ValueError),
    (lambda s, opt: s.LinearLR(opt, start_factor=0), ValueError),
    (lambda s, opt: s.StepLR(opt, 3, last_epoch=5), KeyError),
    (lambda s, opt: s.LambdaLR(opt, [lambda e: 1.0]), ValueError),
])
def test_errors_match(torch, build, kind):
    texts = []
    for lib in (torch, gt):
        with pytest.raises(kind) as info:
            build(lib.optim.lr_scheduler, _optimizer(lib))
        texts.append(str(info.value))
    assert texts[1] == texts[0]


def test_one_cycle_cycles_adam_beta1(torch):
    traces = []
    for lib in (torch, gt):
        w = lib.zeros(2, requires_grad=True)
        opt = lib.optim.Adam([w], lr=0.1)
        s = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=20)
        trace = []
        for _ in range(19):
            opt.step()
            s.step()
            trace.append((opt.param_groups[0]["lr"], opt.param_groups[0]["betas"]))
        traces.append(trace)
    assert traces[1] == traces[0]
    assert math.isclose(traces[1][-1][0], 1.0 / 25 / 1e4)


def test_cosine_warm_restarts_at_fractional_epochs_and_cyclic_with_adam(torch):
    """CosineAnnealingWarmRestarts.step(epoch) (fractional epochs, T_mult > 1) and CyclicLR
    cycling Adam's beta1, as PyTorch's."""
    traces = []
    for lib in (torch, gt):
        w = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.05)
        s = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
        trace = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in (0.5, 2.25, 3.0, 8.5, 20.75):
                s.step(epoch)
                trace.append((s.get_last_lr(), s.T_cur, s.T_i, s.last_epoch))
        adam = lib.optim.Adam([w], lr=0.1)
        cyclic = lib.optim.lr_scheduler.CyclicLR(adam, 0.001, 0.01, step_size_up=2)
        for _ in range(5):
            adam.step()
            cyclic.step()
            trace.append((cyclic.get_last_lr(), adam.param_groups[0]["betas"]))
        traces.append(trace)
    assert traces[1] == traces[0]


def test_old_base_class_name_for_custom_schedulers(torch):
    """Tutorials subclass `_LRScheduler` (LRScheduler's old name) and override get_lr: the same
    lrs step by step, and the same class relationships, as PyTorch."""

    def trace(lib):
        class Warmup(lib.optim.lr_scheduler._LRScheduler):
            def __init__(self, optimizer, warmup, max_iters):
                self.warmup, self.max_iters = warmup, max_iters
                super().__init__(optimizer)

            def get_lr(self):
                factor = 0.5 * (1 + math.cos(math.pi * self.last_epoch / self.max_iters))
                if self.last_epoch <= self.warmup:
                    factor *= self.last_epoch / self.warmup
                return [base_lr * factor for base_lr in self.base_lrs]

        opt = _optimizer(lib)
        scheduler = Warmup(opt, warmup=5, max_iters=30)
        lrs = [scheduler.get_last_lr()]
        for _ in range(30):
            opt.step()
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
        module = lib.optim.lr_scheduler
        return (lrs, issubclass(module._LRScheduler, module.LRScheduler),
                "_LRScheduler" in module.__all__, module._LRScheduler.__name__)

    assert trace(gt) == trace(torch)
