"""torch.utils.data.DataLoader: batches from a sampler and a collate function, drawing the same
random numbers as PyTorch's (torch/utils/data/dataloader.py), so a seeded shuffle yields
PyTorch's batches; worker processes are emulated in the main process (_workers.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from gradsh.torch.utils.data import _workers
from gradsh.torch.utils.data._utils.collate import default_collate, default_convert
from gradsh.torch.utils.data._workers import fetch_map, get_worker_info
from gradsh.torch.utils.data.dataset import IterableDataset
from gradsh.torch.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    draw_int64,
)

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

_FIXED_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                     "persistent_workers")


class _InfiniteConstantSampler(Sampler):
    """The 'sampler' of an iterable dataset: None forever (the dataset says when it ends)."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


class DataLoader:
    """Iterates over a dataset in batches (batch_size, shuffle, sampler, batch_sampler,
    drop_last, collate_fn, generator, num_workers, worker_init_fn, persistent_workers)."""

    _initialized = False

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Callable[[Any], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Any = None,
                 multiprocessing_context: Any = None, generator: Any = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set "
                             "prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._workers: list[Any] | None = None  # kept between passes if persistent
        self._initialized = True

    def __setattr__(self, attr: str, val: Any) -> None:
        if self._initialized and attr in _FIXED_AFTER_INIT:
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator[Any]:
        # Each pass draws a base seed (for workers, in PyTorch) before the sampler draws its
        # own: the global generator moves as PyTorch's does.
        indices = iter(self._index_sampler)
        if self.num_workers > 0:
            if self._workers is None or not self.persistent_workers:
                # the base seed is drawn once for persistent workers, per pass otherwise
                workers = _workers.start_workers(self, draw_int64(self.generator))
                if self.persistent_workers:
                    self._workers = workers
            else:
                workers = self._workers
            # the first prefetch_factor * num_workers indices are drawn now, as PyTorch's
            # iterator sends them when it is made
            return _workers.iterate(self, workers, indices)
        draw_int64(self.generator)
        if self._iterable:
            return self._iterate_stream(indices)
        return self._iterate_map(indices)

    def _iterate_map(self, indices: Iterator[Any]) -> Iterator[Any]:
        for index in indices:
            yield fetch_map(self.dataset, index, self._auto_collation, self.collate_fn)

    def _iterate_stream(self, indices: Iterator[Any]) -> Iterator[Any]:
        stream = iter(self.dataset)
        for index in indices:
            if not self._auto_collation:
                try:
                    yield self.collate_fn(next(stream))
                except StopIteration:
                    return
                continue
            data = list(_take(stream, len(index)))
            if not data or (self.drop_last and len(data) < len(index)):
                return
            yield self.collate_fn(data)
            if len(data) < len(index):
                return

    def __len__(self) -> int:
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = (length // self.batch_size if self.drop_last
                          else math.ceil(length / self.batch_size))
            return length  # type: ignore[no-any-return]
        return len(self._index_sampler)


def _take(stream: Iterator[Any], n: int) -> Iterator[Any]:
    for _ in range(n):
        try:
            yield next(stream)
        except StopIteration:
            return
