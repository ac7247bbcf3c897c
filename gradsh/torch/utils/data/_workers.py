"""DataLoader worker processes (num_workers > 0), emulated in the main process.

PyTorch forks `num_workers` processes, each with its own copy of the dataset and its own random
state (random, torch and numpy seeded from the iterator's base seed plus the worker id), and
hands out batches round-robin; with in_order=True they come back in the order they were sent.
Here each worker is a copy of the dataset and a saved random state: a batch is fetched with the
worker's state swapped in, so a dataset that draws random numbers draws what it would in that
worker, and the main process's generators move only as PyTorch's main process's do.
Batches are fetched when the loop asks for them (no prefetching threads): output a dataset
prints from inside a worker is not interleaved as a real worker's would be.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine.random import default_generator


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """What torch.utils.data.get_worker_info() returns inside a worker."""

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any = None
    worker_method: str | None = "multiprocessing"


_current: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The running worker's WorkerInfo; None in the main process."""
    return _current


class _Worker:
    """One worker: its dataset copy, its random states and (iterable datasets) its iterator."""

    def __init__(self, worker_id: int, num_workers: int, base_seed: int, dataset: Any,
                 init_fn: Callable[[int], Any] | None, iterable: bool) -> None:
        self.info = WorkerInfo(worker_id, num_workers, base_seed + worker_id, _copied(dataset))
        self.base_seed = base_seed
        self.init_fn = init_fn
        self.iterable = iterable
        self.states: tuple[Any, Any, Any] | None = None  # torch, random, numpy
        self.stream: Iterator[Any] | None = None
        self.ended = False

    def run(self, fetch: Callable[[Any], Any]) -> Any:
        """fetch(dataset) inside this worker: its random states and get_worker_info()."""
        global _current
        main = (default_generator.get_state(), random.getstate(), np.random.get_state())
        previous, _current = _current, self.info
        try:
            if self.states is None:
                self._start()
            else:
                default_generator.set_state(self.states[0])
                random.setstate(self.states[1])
                np.random.set_state(self.states[2])
            return fetch(self.info.dataset)
        finally:
            self.states = (default_generator.get_state(), random.getstate(),
                           np.random.get_state())
            _current = previous
            default_generator.set_state(main[0])
            random.setstate(main[1])
            np.random.set_state(main[2])

    def _start(self) -> None:
        """What _worker_loop does before its first task: seed, worker_init_fn, the fetcher."""
        seed = self.info.seed
        random.seed(seed)
        default_generator.manual_seed(seed)
        words = np.random.SeedSequence([self.info.id, self.base_seed & 0xFFFFFFFF,
                                        self.base_seed >> 32, 0]).generate_state(4)
        np.random.seed([int(w) for w in words])  # torch's _generate_state: the same words
        if self.init_fn is not None:
            self.init_fn(self.info.id)
        self.resume()

    def resume(self) -> None:
        """A new pass (persistent workers keep their dataset copy and random state)."""
        self.ended = False
        self.stream = iter(self.info.dataset) if self.iterable else None


def _copied(dataset: Any) -> Any:
    """The worker's copy of the dataset (a forked process's memory): what it changes stays in
    the worker. A dataset that cannot be copied is shared."""
    try:
        return copy.deepcopy(dataset)
    except Exception:  # noqa: BLE001  an open file, a generator: share it
        return dataset


def start_workers(loader: Any, base_seed: int) -> list[_Worker]:
    return [_Worker(i, loader.num_workers, base_seed, loader.dataset, loader.worker_init_fn,
                    loader._iterable) for i in range(loader.num_workers)]


def iterate(loader: Any, workers: list[_Worker], indices: Iterator[Any]) -> Iterator[Any]:
    """The batches of one pass, as _MultiProcessingDataLoaderIter returns them in order: the
    first prefetch_factor * num_workers indices are sent round-robin now (the sampler draws
    when the iterator is made), then one more each time a batch comes back; a worker whose
    iterable dataset ran out gets no more."""
    for worker in workers:
        if worker.states is not None:  # a persistent worker's new pass
            worker.run(lambda _dataset, w=worker: w.resume())
    tasks = _Tasks(workers, indices)
    for _ in range(loader.prefetch_factor * len(workers)):
        tasks.put()
    return _batches(loader, workers, tasks)


class _Tasks:
    """The indices sent and not yet returned, each with its worker."""

    def __init__(self, workers: list[_Worker], indices: Iterator[Any]) -> None:
        self.indices = indices
        self.active = [True] * len(workers)
        self.cycle = itertools.cycle(range(len(workers)))
        self.sent: deque[tuple[int, Any]] = deque()

    def put(self) -> None:
        try:
            index = next(self.indices)
        except StopIteration:
            return
        for _ in range(len(self.active)):  # the next active worker, if any
            worker_id = next(self.cycle)
            if self.active[worker_id]:
                self.sent.append((worker_id, index))
                return


def _batches(loader: Any, workers: list[_Worker], tasks: _Tasks) -> Iterator[Any]:
    while tasks.sent:
        worker_id, index = tasks.sent.popleft()
        if not tasks.active[worker_id]:
            continue
        worker = workers[worker_id]
        try:
            batch = worker.run(lambda dataset, w=worker, i=index: _fetch(loader, w, dataset, i))
        except StopIteration:
            tasks.active[worker_id] = False
            tasks.put()
            continue
        tasks.put()
        yield batch


def fetch_map(dataset: Any, index: Any, auto_collation: bool,
              collate: Callable[[Any], Any]) -> Any:
    """_MapDatasetFetcher.fetch: a batch of samples (__getitems__ if the dataset has one)."""
    if not auto_collation:
        return collate(dataset[index])
    getitems = getattr(dataset, "__getitems__", None)
    if callable(getitems):
        return collate(getitems(index))
    return collate([dataset[i] for i in index])


def _fetch(loader: Any, worker: _Worker, dataset: Any, index: Any) -> Any:
    """torch.utils.data._utils.fetch: one batch (or sample) from the worker's dataset copy."""
    collate = loader.collate_fn
    if not worker.iterable:
        return fetch_map(dataset, index, loader._auto_collation, collate)
    assert worker.stream is not None
    if worker.ended:
        raise StopIteration
    if not loader._auto_collation:
        return collate(next(worker.stream))
    data = []
    for _ in index:
        try:
            data.append(next(worker.stream))
        except StopIteration:
            worker.ended = True
            break
    if not data or (loader.drop_last and len(data) < len(index)):
        raise StopIteration
    return collate(data)
