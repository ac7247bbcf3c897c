"""DataLoader workers run in the main process: each with the random state, dataset copy and
WorkerInfo that PyTorch's worker process has (torch/utils/data/_utils/worker.py), swapped in
while it loads, so that a program with num_workers > 0 gets PyTorch's batches."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine.random import default_generator

__all__ = ["WorkerInfo", "Worker", "get_worker_info"]


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """Information about the current DataLoader worker (get_worker_info())."""

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any = None
    worker_method: str | None = "multiprocessing"


class _Current:
    info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The loading worker's WorkerInfo while a worker loads; None in the main process."""
    return _Current.info


def _generate_state(base_seed: int, worker_id: int) -> list[int]:
    """NumPy's seed for a worker: PyTorch's hash of (base_seed, worker_id) (SeedSequence's)."""
    mask32, xshift = 0xFFFFFFFF, 16
    mult_a, mult_b = 0x931E8875, 0x58F38DED
    hash_a = [0x43B0D7E5]

    def hash_value(value: int) -> int:
        value = (value ^ hash_a[0]) & mask32
        hash_a[0] = (hash_a[0] * mult_a) & mask32
        value = (value * hash_a[0]) & mask32
        return (value ^ (value >> xshift)) & mask32

    def mix(x: int, y: int) -> int:
        result = ((0xCA01F9DD * x) & mask32) - ((0x4973F715 * y) & mask32)
        result &= mask32
        return (result ^ (result >> xshift)) & mask32

    entropy = [worker_id, base_seed & mask32, base_seed >> 32, 0]
    pool = [hash_value(value) for value in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash_value(pool[i_src]))
    hash_b = 0x8B51F9DD
    state = []
    for value in pool:
        value = (value ^ hash_b) & mask32
        hash_b = (hash_b * mult_b) & mask32
        value = (value * hash_b) & mask32
        state.append((value ^ (value >> xshift)) & mask32)
    return state


class Worker:
    """One worker: its own torch, `random` and NumPy generators (seeded as PyTorch seeds a
    worker process) and its own shallow copy of the dataset (a process's copy: attributes
    its worker_init_fn sets stay its own)."""

    def __init__(self, worker_id: int, num_workers: int, base_seed: int, dataset: Any,
                 init_fn: Callable[[int], Any] | None) -> None:
        try:
            dataset = copy.copy(dataset)
        except Exception:  # a dataset that cannot be copied is shared (as threads would)
            pass
        self.id = worker_id
        self.dataset = dataset
        seed = base_seed + worker_id
        self.info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                               dataset=dataset)
        main = self._swap_in(None)
        try:
            random.seed(seed)
            default_generator.manual_seed(seed)
            np.random.seed(_generate_state(base_seed, worker_id))
        finally:
            self._state = self._swap_out(main)
        if init_fn is not None:
            self.run(init_fn, worker_id)

    def _swap_in(self, state: tuple[Any, ...] | None) -> tuple[Any, ...]:
        main = (default_generator.get_state(), random.getstate(), np.random.get_state())
        if state is not None:
            default_generator.set_state(state[0])
            random.setstate(state[1])
            np.random.set_state(state[2])
        return main

    def _swap_out(self, main: tuple[Any, ...]) -> tuple[Any, ...]:
        mine = (default_generator.get_state(), random.getstate(), np.random.get_state())
        default_generator.set_state(main[0])
        random.setstate(main[1])
        np.random.set_state(main[2])
        return mine

    def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """function(*args) as this worker: its generators and get_worker_info() in place."""
        main = self._swap_in(self._state)
        outer, _Current.info = _Current.info, self.info
        try:
            return function(*args)
        finally:
            _Current.info = outer
            self._state = self._swap_out(main)
