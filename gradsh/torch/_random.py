"""torch.manual_seed, torch.Generator and the global generator's state."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine import random as _engine_random
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
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

    def get_state(self) -> Tensor:  # type: ignore[override]
        """The state as PyTorch's uint8 tensor (torch.get_rng_state's layout)."""
        return Tensor._make(_encode_state(self.raw_state()), "cpu")

    def set_state(self, new_state: Any) -> Generator:  # type: ignore[override]
        if not isinstance(new_state, Tensor):
            raise TorchTypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        set_rng_state(new_state, self)
        return self


def manual_seed(seed: int) -> _engine_random.Generator:
    """Seed the global generator; returns it, as PyTorch does."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


# PyTorch's CPUGeneratorImplState (THGeneratorStateNew): the legacy THGeneratorState (seed,
# left, seeded, next, the 624 mt19937 words as uint64, normal_x / normal_y / normal_rho,
# normal_is_valid) then a float normal sample and its flag, padded to 5056 bytes.
_STATE_SIZE = 5056
_WORDS = slice(24, 24 + 624 * 8)
_NORMAL_Y = 5024
_NORMAL_VALID = 5040


def _encode_state(state: _engine_random.GeneratorState) -> np.ndarray:
    """The bytes torch.get_rng_state() returns for this state. at::mt19937 counts `left` down to
    the next twist and `next` up from it; its `next` reads 0 after seeding, which is what the
    state of 624 untempered words (pos 624) shows here."""
    raw = np.zeros(_STATE_SIZE, dtype=np.uint8)
    head = np.array([state.seed], dtype="<u8").view(np.uint8)
    raw[0:8] = head
    raw[8:16] = np.array([625 - state.pos, 1], dtype="<i4").view(np.uint8)
    raw[16:24] = np.array([state.pos % 624], dtype="<u8").view(np.uint8)
    words = np.frombuffer(state.key, dtype="<u4").astype("<u8")
    raw[_WORDS] = words.view(np.uint8)
    if state.next_double_normal is not None:
        raw[_NORMAL_Y:_NORMAL_Y + 8] = np.array([state.next_double_normal], "<f8").view(np.uint8)
        raw[_NORMAL_VALID:_NORMAL_VALID + 4] = np.array([1], "<i4").view(np.uint8)
    return raw


def _decode_state(raw: np.ndarray) -> _engine_random.GeneratorState:
    seed = int(raw[0:8].view("<u8")[0])
    left = int(raw[8:12].view("<i4")[0])
    key = raw[_WORDS].view("<u8").astype("<u4").tobytes()
    normal = None
    if int(raw[_NORMAL_VALID:_NORMAL_VALID + 4].view("<i4")[0]):
        normal = float(raw[_NORMAL_Y:_NORMAL_Y + 8].view("<f8")[0])
    return _engine_random.GeneratorState(seed, key, min(624, max(0, 625 - left)), normal)


def get_rng_state() -> Tensor:
    """The global generator's state as a uint8 tensor, in PyTorch's byte layout."""
    return Tensor._make(_encode_state(default_generator.get_state()), "cpu")


def set_rng_state(new_state: Tensor, generator: Any = None) -> None:
    if not isinstance(new_state, Tensor) or new_state.dtype is not dtypes.uint8:
        raise TorchTypeError("RNG state must be a torch.ByteTensor")
    raw = np.ascontiguousarray(new_state._data, dtype=np.uint8).reshape(-1)
    if raw.size != _STATE_SIZE:
        raise TorchRuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but "
                                f"found the input RNG state size to be {raw.size}")
    (generator or default_generator).set_raw_state(_decode_state(raw))
