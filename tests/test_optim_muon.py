"""torch.optim.Muon against PyTorch: seeded runs bit for bit (the bfloat16 Newton-Schulz
orthogonalisation, Nesterov or plain momentum, both learning-rate adjustments, tall, wide and
square matrices), repr and state dict, constructor errors; dir(torch.optim) lists it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt


def _trajectory(lib: Any, shape: tuple[int, int], kwargs: dict[str, Any]) -> list[np.ndarray]:
    lib.manual_seed(3)
    w = lib.nn.Parameter(lib.randn(*shape))
    opt = lib.optim.Muon([w], lr=0.02, **kwargs)
    weights = lib.arange(float(w.numel())).view(shape)
    seen = []
    for _ in range(6):
        loss = (lib.sin(w) * weights).sum() ** 2 / 100
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen += [loss.detach().numpy(), w.detach().numpy().copy(),
                 opt.state[w]["momentum_buffer"].numpy().copy()]
    return seen


_SLOW_MOMENTUM = {"weight_decay": 0.0, "momentum": 0.5, "ns_steps": 3}


@pytest.mark.parametrize(("shape", "kwargs"), [
    ((6, 4), {}), ((3, 7), {}), ((5, 5), {}),
    ((6, 4), {"nesterov": False, "adjust_lr_fn": "match_rms_adamw"}),
    ((3, 7), {"nesterov": False, "adjust_lr_fn": "match_rms_adamw"}),
    ((5, 5), {"nesterov": False, "adjust_lr_fn": "match_rms_adamw"}),
    ((6, 4), _SLOW_MOMENTUM), ((3, 7), _SLOW_MOMENTUM),
    pytest.param((5, 5), _SLOW_MOMENTUM, marks=pytest.mark.xfail(strict=True, reason=(
        "the first step's last bfloat16 addmm(o, gram_update, o, beta=3.4445) differs from "
        "PyTorch's in one element (random bfloat16 addmm inputs of these shapes match); "
        "not found yet"))),
])
def test_muon_steps_bit_for_bit(torch: Any, one_thread: None, shape: tuple[int, int],
                                kwargs: dict[str, Any]) -> None:
    for ours, theirs in zip(_trajectory(gt, shape, kwargs), _trajectory(torch, shape, kwargs),
                            strict=True):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours, theirs)


def test_muon_repr_state_dict_and_errors(torch: Any) -> None:
    seen = []
    for lib in (gt, torch):
        w = lib.nn.Parameter(lib.ones(2, 3))
        opt = lib.optim.Muon([w], lr=0.1, adjust_lr_fn="original")
        (w * w).sum().backward()
        opt.step()
        groups = opt.state_dict()["param_groups"]
        errors = []
        for params, kwargs in (([w], {"lr": -1.0}), ([w], {"momentum": -0.5}),
                               ([w], {"weight_decay": -1.0}), ([w], {"adjust_lr_fn": "x"}),
                               ([lib.nn.Parameter(lib.ones(3))], {})):
            with pytest.raises(ValueError) as error:
                lib.optim.Muon(params, **kwargs)
            errors.append(str(error.value))
        seen.append((repr(opt), groups, errors, "Muon" in dir(lib.optim)))
    assert seen[0] == seen[1]
