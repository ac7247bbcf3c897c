"""torch.optim.swa_utils: AveragedModel (equal weights, avg_fn, multi_avg_fn, use_buffers),
SWALR's schedule, update_bn and the argument errors, against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _program(T: Any) -> list[Any]:
    swa_utils = T.optim.swa_utils
    nn = T.nn
    T.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
    opt = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    averaged = [swa_utils.AveragedModel(model),
                swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.99),
                                        use_buffers=True),
                swa_utils.AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(0.9)),
                swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_swa_multi_avg_fn())]
    sched = swa_utils.SWALR(opt, swa_lr=0.02, anneal_epochs=2, anneal_strategy="linear")
    cos = swa_utils.SWALR(T.optim.SGD([T.zeros(1, requires_grad=True)], lr=1.0), swa_lr=0.1)
    data = [T.randn(8, 3) for _ in range(4)]
    out: list[Any] = []
    for _ in range(4):
        for x in data:
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            opt.step()
        for m in averaged:
            m.update_parameters(model)
        sched.step()
        cos.optimizer.step()
        cos.step()
        out += [sched.get_last_lr(), cos.get_last_lr()]
    for m in averaged:
        out += [m.n_averaged, *m.module.parameters(), *m.module.buffers()]
    swa = averaged[0]
    swa_utils.update_bn(data, swa)
    out += [swa.module[1].running_mean, swa.module[1].running_var, swa.module[1].momentum,
            swa.training, swa(T.ones(2, 3)), sorted(swa.state_dict())]
    return out


def test_swa_utils_match_torch(torch: Any) -> None:
    want, have = _program(torch), _program(gtorch)
    assert len(want) == len(have)
    for w, h in zip(want, have):
        if hasattr(w, "detach"):
            # (the training steps' last float32 bits are BatchNorm1d's and SGD's, not this
            # module's: the averages are compared to a few units in the fifth digit)
            np.testing.assert_allclose(h.detach().numpy(), w.detach().numpy(), rtol=5e-5,
                                       atol=1e-7)
        else:
            assert h == w


@pytest.mark.parametrize("call", [
    lambda T: T.optim.swa_utils.SWALR(T.optim.SGD([T.zeros(1)], lr=0.1), 0.1,
                                      anneal_strategy="exp"),
    lambda T: T.optim.swa_utils.SWALR(T.optim.SGD([T.zeros(1)], lr=0.1), 0.1,
                                      anneal_epochs=-1),
    lambda T: T.optim.swa_utils.get_ema_avg_fn(1.5),
    lambda T: T.optim.swa_utils.AveragedModel(T.nn.Linear(1, 1), avg_fn=abs, multi_avg_fn=abs),
])
def test_errors_match_torch(torch: Any, call: Any) -> None:
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(Exception) as have:
        call(gtorch)
    assert type(have.value).__name__ == type(want.value).__name__
    assert str(have.value) == str(want.value)
