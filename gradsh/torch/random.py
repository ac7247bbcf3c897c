"""torch.random: the global generator's seed and state, and fork_rng."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

from gradsh.torch._missing import module_getattr
from gradsh.torch._random import (  # noqa: F401  (the module's contents)
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__getattr__ = module_getattr("torch.random")


@contextlib.contextmanager
def fork_rng(devices: Iterable[Any] | None = None, enabled: bool = True,
             _caller: str = "fork_rng", _devices_kw: str = "devices",
             device_type: str | None = None) -> Iterator[None]:
    """Run the block and then put the CPU generator back in the state it had before. gradsh has
    no accelerator, so the CPU state is the only one (as for PyTorch on a machine without
    one: no device is counted, so no warning)."""
    if device_type == "meta" or not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
