"""torch.manual_seed, torch.Generator and the global generator's state."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gradsh.engine import random as _engine_random
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor

default_generator = _engine_random.default_generator
# torch.manual_seed returns the global generator, which prints as PyTorch's does
_engine_random.Generator.__repr__ = (  # type: ignore[method-assign]
    lambda self: f"<torch._C.Generator object at {id(self):#x}>")


class Generator(_engine_random.Generator):
    """torch.Generator(device='cpu'): seeded with PyTorch's default seed until told otherwise."""

    _DEFAULT_SEED = 67280421310721

    def __init__(self, device: Any = "cpu") -> None:
        super().__init__(self._DEFAULT_SEED)
        self.device = device

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"


def manual_seed(seed: int) -> _engine_random.Generator:
    """Seed the global generator; returns it, as PyTorch does."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The global generator's state as a uint8 tensor (gradsh's own encoding of it)."""
    data = np.frombuffer(pickle.dumps(default_generator.get_state()), dtype=np.uint8).copy()
    return Tensor._make(data, "cpu")


def set_rng_state(new_state: Tensor) -> None:
    try:
        state = pickle.loads(np.asarray(new_state._data, dtype=np.uint8).tobytes())
    except Exception:  # noqa: BLE001  (not a state get_rng_state made)
        raise TorchRuntimeError("Expected either a ByteTensor made by torch.get_rng_state() "
                                "(gradsh's encoding)") from None
    default_generator.set_state(state)
