"""torch.utils.data.DataLoader: batches from a sampler and a collate function,
drawing the same random numbers as PyTorch's (torch/utils/data/dataloader.py), so a seeded
shuffle yields PyTorch's batches."""

from __future__ import annotations

import collections
import itertools
import math
import os
from collections.abc import Callable, Iterator
from typing import Any

from gradsh.engine.exceptions import warn
from gradsh.torch import accelerator
from gradsh.torch.utils.data._utils.collate import default_collate, default_convert
from gradsh.torch.utils.data._utils.worker import Worker, get_worker_info
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
    drop_last, collate_fn, generator). `num_workers` > 0 runs PyTorch's workers one after
    another in this process, with their random states (_MultiProcessingDataLoaderIter)."""

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
        self._iterator: _MultiProcessingDataLoaderIter | None = None  # persistent workers'
        self._initialized = True
        self._check_worker_number_rationality()

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

    def __iter__(self) -> _BaseDataLoaderIter:
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        if not self.persistent_workers:
            self._check_worker_number_rationality()
            return _MultiProcessingDataLoaderIter(self)
        if self._iterator is None:
            self._check_worker_number_rationality()
            self._iterator = _MultiProcessingDataLoaderIter(self)
        else:
            self._iterator._reset(self)
        return self._iterator

    def _check_worker_number_rationality(self) -> None:
        """PyTorch's warning for more workers than the CPUs this process may use."""
        if not self.num_workers:
            return
        suggested = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count())
        if suggested is not None and self.num_workers <= suggested:
            return
        if suggested is None:
            advice = ("DataLoader is not able to compute a suggested max number of worker in "
                      "current system.")
        else:
            cpuset = "" if hasattr(os, "sched_getaffinity") else (
                " (`cpuset` is not taken into account)")
            advice = (f"Our suggested max number of worker in current system is {suggested}"
                      f"{cpuset}, which is smaller than what this DataLoader is going to "
                      "create.")
        warn(f"This DataLoader will create {self.num_workers} worker processes in total. "
             f"{advice} Please be aware that excessive worker creation might get DataLoader "
             "running slow or even freeze, lower the worker number to avoid potential "
             "slowness/freeze if necessary.")

    def __len__(self) -> int:
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = (length // self.batch_size if self.drop_last
                          else math.ceil(length / self.batch_size))
            return length  # type: ignore[no-any-return]
        return len(self._index_sampler)


class _Fetcher:
    """Loads one batch (or one sample without auto-collation) for an index from the sampler:
    PyTorch's _MapDatasetFetcher and _IterableDatasetFetcher (an iterable dataset is read
    from one stream, started when the fetcher is made)."""

    def __init__(self, loader: DataLoader, dataset: Any) -> None:
        self.dataset = dataset
        self.auto_collation = loader._auto_collation
        self.collate_fn = loader.collate_fn
        self.drop_last = loader.drop_last
        self.stream = iter(dataset) if loader._iterable else None
        self.ended = False

    def fetch(self, index: Any) -> Any:
        if self.stream is not None:
            return self.collate_fn(self._read_stream(index))
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        getitems = getattr(self.dataset, "__getitems__", None)
        if getitems:
            return self.collate_fn(getitems(index))
        return self.collate_fn([self.dataset[i] for i in index])

    def _read_stream(self, index: Any) -> Any:
        assert self.stream is not None
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return next(self.stream)
        data = []
        for _ in index:
            try:
                data.append(next(self.stream))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return data


class _BaseDataLoaderIter:
    """What iter(DataLoader) returns: batches in the sampler's order, with len()."""

    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._persistent_workers = loader.persistent_workers
        self._sampler_iter = iter(self._index_sampler)
        if loader.pin_memory and loader.pin_memory_device:
            warn("pin_memory_device is deprecated, the current accelerator will be used as the "
                 f"device,ignore pin_memory_device='{loader.pin_memory_device}'.")
        if loader.pin_memory and not accelerator.is_available():
            warn("'pin_memory' argument is set as true but no accelerator is found, then device "
                 "pinned memory won't be used.")
        # PyTorch draws the workers' base seed on every pass, workers or not, before the
        # sampler draws its own: the global generator moves as PyTorch's does.
        self._base_seed = draw_int64(loader.generator)
        self._num_yielded = 0

    def __iter__(self) -> _BaseDataLoaderIter:
        return self

    def _reset(self, loader: DataLoader) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def _next_data(self) -> Any:
        raise NotImplementedError

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._fetcher = _Fetcher(loader, loader.dataset)

    def _next_data(self) -> Any:
        return self._fetcher.fetch(self._next_index())


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """PyTorch's worker processes, run one after another in this process: batch indices go
    round-robin to the workers still loading, prefetch_factor * num_workers ahead of the
    batch returned (the sampler draws as early as PyTorch's does), and come back in order.
    Each worker loads with its own generators and dataset copy (_utils/worker.py)."""

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        count = self._num_workers
        self._prefetch = loader.prefetch_factor * count
        self._workers = [Worker(i, count, self._base_seed, loader.dataset,
                                loader.worker_init_fn) for i in range(count)]
        self._fetchers: list[_Fetcher] = []
        self._start(loader)

    def _start(self, loader: DataLoader) -> None:
        self._fetchers = [worker.run(_Fetcher, loader, worker.dataset)
                          for worker in self._workers]
        self._active = [True] * len(self._workers)
        self._cycle = itertools.cycle(range(len(self._workers)))
        self._tasks: collections.deque[tuple[int, Any]] = collections.deque()
        for _ in range(self._prefetch):
            self._try_put_index()

    def _reset(self, loader: DataLoader) -> None:
        super()._reset(loader)
        self._start(loader)

    def _try_put_index(self) -> None:
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(len(self._workers)):
            worker = next(self._cycle)
            if self._active[worker]:
                self._tasks.append((worker, index))
                return

    def _next_data(self) -> Any:
        while self._tasks:
            worker, index = self._tasks.popleft()
            if not self._active[worker]:
                continue
            try:
                data = self._workers[worker].run(self._fetchers[worker].fetch, index)
            except StopIteration:  # an iterable dataset's worker has no more
                self._active[worker] = False
                self._try_put_index()
                continue
            self._try_put_index()
            return data
        raise StopIteration
