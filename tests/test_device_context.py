"""`with torch.device(d):` sets the default device for factory calls, as PyTorch's does."""

from __future__ import annotations

from typing import Any

import gradsh.torch as gtorch
from gradsh.engine.ops.arguments import DefaultDevice


def _run(lib: Any) -> list[str]:
    seen = []
    with lib.device("cpu") as dev:
        seen.append(repr(dev))
        seen.append(str(lib.zeros(2).device))
        with lib.device("cpu"):
            seen.append(str(lib.nn.Linear(2, 3).weight.device))
        seen.append(str(lib.get_default_device()))
    seen.append(str(lib.randn(1).device))
    return seen


def test_device_context_matches_torch(torch: Any) -> None:
    assert _run(gtorch) == _run(torch)


def test_context_restores_the_default_after_an_error() -> None:
    before = DefaultDevice.value
    try:
        with gtorch.device("cpu"):
            raise ValueError("inside")
    except ValueError:
        pass
    assert DefaultDevice.value == before
