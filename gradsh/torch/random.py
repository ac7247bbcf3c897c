"""torch.random: the global generator's seed and state."""

from __future__ import annotations

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
