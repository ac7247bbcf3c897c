"""torch.utils.data against PyTorch: the same batches for the same seed (shuffle from the global
generator or a given one), drop_last, collation of tuples/dicts/numbers/NumPy arrays,
random_split, Subset, ConcatDataset, samplers, errors."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest

import gradsh.torch as gt


def _plain(value):
    """A batch as plain data: tensors as (dtype, values) so both libraries compare equal."""
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        return ("tensor", str(value.dtype), value.detach().numpy().tolist())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_plain(v) for v in value])
    return value


def _tensor_dataset(lib, n: int = 23):
    x = lib.arange(n * 3, dtype=lib.float32).reshape(n, 3)
    y = lib.arange(n)
    return lib.utils.data.TensorDataset(x, y)


def _epochs(lib, make, epochs: int = 3, seed: int = 20200910):
    lib.manual_seed(seed)
    loader = make(lib)
    batches = [[_plain(b) for b in loader] for _ in range(epochs)]
    return batches, lib.rand(3).tolist()  # the global generator afterwards too


LOADERS = {
    "shuffle": lambda lib: lib.utils.data.DataLoader(_tensor_dataset(lib), batch_size=5,
                                                     shuffle=True),
    "shuffle_drop_last": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=4, shuffle=True, drop_last=True),
    "sequential": lambda lib: lib.utils.data.DataLoader(_tensor_dataset(lib), batch_size=6),
    "no_batching": lambda lib: lib.utils.data.DataLoader(_tensor_dataset(lib, 5),
                                                         batch_size=None, shuffle=True),
    "generator": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=7, shuffle=True,
        generator=lib.Generator().manual_seed(99)),
    "replacement": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=8,
        sampler=lib.utils.data.RandomSampler(_tensor_dataset(lib), replacement=True,
                                             num_samples=70)),
    "subset_random": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=3,
        sampler=lib.utils.data.SubsetRandomSampler([1, 4, 9, 16, 22])),
    "weighted": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=5,
        sampler=lib.utils.data.WeightedRandomSampler([0.1 * (i % 4) for i in range(23)], 40)),
    "weighted_no_replacement": lambda lib: lib.utils.data.DataLoader(
        _tensor_dataset(lib), batch_size=4,
        sampler=lib.utils.data.WeightedRandomSampler(lib.linspace(1, 2, 23), 12, False)),
}


@pytest.mark.parametrize("name", list(LOADERS))
def test_batches_match_torch(torch, name):
    assert _epochs(gt, LOADERS[name]) == _epochs(torch, LOADERS[name])


def test_lengths_match(torch):
    for make in LOADERS.values():
        assert len(make(gt)) == len(make(torch))


class Samples:
    """A map-style dataset of mixed samples (numbers, NumPy arrays, dicts, namedtuples)."""

    Point = namedtuple("Point", "x y")

    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if self.kind == "numbers":
            return (i, 0.5 * i, bool(i % 2))
        if self.kind == "numpy":
            return np.arange(3, dtype=np.float32) * i, np.int64(i), np.float64(i / 3)
        if self.kind == "dict":
            return {"a": float(i), "b": [i, i + 1], "name": f"s{i}"}
        return self.Point(x=float(i), y=np.array([i, -i]))


@pytest.mark.parametrize("kind", ["numbers", "numpy", "dict", "namedtuple"])
def test_default_collate_matches(torch, kind):
    ours = [_plain(b) for b in gt.utils.data.DataLoader(Samples(kind), batch_size=4)]
    theirs = [_plain(b) for b in torch.utils.data.DataLoader(Samples(kind), batch_size=4)]
    assert ours == theirs


def test_default_collate_errors_match(torch):
    for batch in ([object(), object()], [[1, 2], [3]]):
        with pytest.raises((TypeError, RuntimeError)) as theirs:
            torch.utils.data.default_collate(batch)
        with pytest.raises(type(theirs.value)) as ours:
            gt.utils.data.default_collate(batch)
        assert str(ours.value).replace("gradsh.", "") == str(theirs.value)


class Stream(gt.utils.data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


def test_iterable_dataset(torch):
    class TorchStream(torch.utils.data.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

    for kwargs in ({"batch_size": 4}, {"batch_size": 4, "drop_last": True},
                   {"batch_size": None}):
        ours = [_plain(b) for b in gt.utils.data.DataLoader(Stream(10), **kwargs)]
        theirs = [_plain(b) for b in torch.utils.data.DataLoader(TorchStream(10), **kwargs)]
        assert ours == theirs
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        gt.utils.data.DataLoader(Stream(3), shuffle=True)


def test_random_split_and_subset(torch):
    results = []
    for lib in (torch, gt):
        lib.manual_seed(0)
        ds = _tensor_dataset(lib, 10)
        a, b = lib.utils.data.random_split(ds, [0.7, 0.3])
        c, d, e = lib.utils.data.random_split(range(9), [2, 3, 4],
                                              generator=lib.Generator().manual_seed(42))
        results.append((a.indices, b.indices, len(a), _plain(b[1]), list(c), list(d), list(e),
                        lib.rand(2).tolist()))
    assert results[1] == results[0]


def test_concat_dataset_and_add(torch):
    for lib in (torch, gt):
        both = _tensor_dataset(lib, 3) + _tensor_dataset(lib, 2)
        assert isinstance(both, lib.utils.data.ConcatDataset)
        assert len(both) == 5 and int(both[3][1]) == 0 and int(both[-1][1]) == 1
        assert both.cumulative_sizes == [3, 5]


def test_batch_sampler(torch):
    for drop_last in (False, True):
        ours = gt.utils.data.BatchSampler(gt.utils.data.SequentialSampler(range(10)), 3,
                                          drop_last)
        theirs = torch.utils.data.BatchSampler(torch.utils.data.SequentialSampler(range(10)), 3,
                                               drop_last)
        assert list(ours) == list(theirs) and len(ours) == len(theirs)


def _noisy_dataset(lib):
    """A dataset drawing from torch's, random's and NumPy's generators in __getitem__: in a
    worker each draws from the worker's own seeded state."""
    import random

    class Noisy(lib.utils.data.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            info = lib.utils.data.get_worker_info()
            return (i, lib.rand(2), random.random(), float(np.random.rand()),
                    -1 if info is None else info.id)

    return Noisy()


@pytest.mark.parametrize("persistent", [False, True])
def test_worker_processes_draw_what_pytorchs_do(torch, persistent):
    def make(lib):
        return lib.utils.data.DataLoader(_noisy_dataset(lib), batch_size=2, shuffle=True,
                                         num_workers=2, persistent_workers=persistent)
    state = np.random.get_state()
    try:
        assert _epochs(gt, make) == _epochs(torch, make)
    finally:
        np.random.set_state(state)


def _split_range(lib):
    class Split(lib.utils.data.IterableDataset):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            return iter(range(info.id * 5, 5 + info.id * 8))  # 5 and 8 samples
    return Split()


def test_iterable_dataset_workers_take_turns(torch):
    for kwargs in ({"batch_size": 2}, {"batch_size": 2, "drop_last": True}, {"batch_size": None}):
        theirs = [_plain(b) for b in torch.utils.data.DataLoader(
            _split_range(torch), num_workers=2, **kwargs)]
        ours = [_plain(b) for b in gt.utils.data.DataLoader(_split_range(gt), num_workers=2,
                                                           **kwargs)]
        assert ours == theirs


def _worker_datasets(lib):
    """A map-style dataset whose items show the loading worker and its three generators, and
    an iterable one that each worker reads a different (and differently long) part of."""
    import random

    class Items(lib.utils.data.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            info = lib.utils.data.get_worker_info()
            return (i, -1 if info is None else info.id, lib.rand(2), random.random(),
                    float(np.random.rand()))

    class Stream(lib.utils.data.IterableDataset):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            k = 0 if info is None else info.id
            return iter(range(100 * k, 100 * k + 3 + k))

    return Items(), Stream()


def _worker_runs(lib):
    import random

    lib.manual_seed(7)
    random.seed(7)
    np.random.seed(7)
    items, stream = _worker_datasets(lib)
    data = lib.utils.data
    runs = []
    for options in ({"shuffle": True}, {"persistent_workers": True, "prefetch_factor": 1,
                                        "worker_init_fn": lambda worker: np.random.seed(worker + 1)}):
        loader = data.DataLoader(items, batch_size=2, num_workers=2, **options)
        runs.append([[_plain(b) for b in loader] for _ in range(2)])
    iterator = iter(data.DataLoader(items, batch_size=3, num_workers=2))
    runs.append([type(iterator).__name__, len(iterator), _plain(next(iterator))])
    for options in ({"batch_size": 2}, {"batch_size": 2, "drop_last": True},
                    {"batch_size": None}):
        runs.append([_plain(b) for b in data.DataLoader(stream, num_workers=2, **options)])
    runs.append(type(iter(data.DataLoader(items))).__name__)
    return runs, lib.rand(2).tolist(), random.random(), float(np.random.rand())


def test_workers_load_as_pytorch_worker_processes(torch):
    """num_workers > 0: the same batches, in the same order, with each worker's random
    numbers, as PyTorch's worker processes; the main generators move as PyTorch's do."""
    assert _worker_runs(gt) == _worker_runs(torch)


@pytest.mark.parametrize("kwargs", [
    {"shuffle": True, "sampler": [0, 1]},
    {"batch_sampler": [[0]], "batch_size": 2},
    {"batch_size": None, "drop_last": True},
    {"num_workers": -1},
    {"prefetch_factor": 2},
    {"persistent_workers": True},
    {"num_workers": 1, "prefetch_factor": -1},
])
def test_option_errors_match(torch, kwargs):
    with pytest.raises(ValueError) as theirs:
        torch.utils.data.DataLoader(_tensor_dataset(torch), **kwargs)
    with pytest.raises(ValueError) as ours:
        gt.utils.data.DataLoader(_tensor_dataset(gt), **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_tensor_dataset_size_mismatch():
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        gt.utils.data.TensorDataset(gt.zeros(3), gt.zeros(4))


def test_loader_attributes_are_fixed_after_init():
    loader = gt.utils.data.DataLoader(_tensor_dataset(gt))
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        loader.batch_size = 3


def _stream(lib, a, b):
    class Stream(lib.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(a, b))

        def __len__(self):
            return b - a
    return Stream()


def test_chain_and_stack_datasets(torch):
    results = []
    for lib in (torch, gt):
        chained = _stream(lib, 0, 3) + _stream(lib, 10, 12)
        images, labels = _tensor_dataset(lib, 4).tensors
        stacked = lib.utils.data.StackDataset(x=lib.utils.data.TensorDataset(images),
                                              y=lib.utils.data.TensorDataset(labels))
        results.append((type(chained).__name__, list(chained), len(chained), len(stacked),
                        [_plain(b) for b in lib.utils.data.DataLoader(stacked, batch_size=3)],
                        _plain(lib.utils.data.StackDataset(images, labels)[1])))
    assert results[1] == results[0]


def test_distributed_sampler_shares_as_torch(torch) -> None:
    """DistributedSampler (torch.utils.data.distributed, also in torch.utils.data) with the
    replicas given: each rank's indices per epoch, shuffled or not, padded or cut; the rank
    check's ValueError; and torch.multiprocessing imports (annotated-transformer's header)."""
    import gradsh.torch.multiprocessing as mp
    from gradsh.torch.utils.data.distributed import DistributedSampler

    assert gt.utils.data.DistributedSampler is DistributedSampler
    assert mp.get_sharing_strategy() == torch.multiprocessing.get_sharing_strategy()
    for replicas, rank, shuffle, drop_last in [(3, 0, True, False), (3, 2, True, True),
                                               (4, 1, False, False), (2, 1, True, False),
                                               (4, 3, False, True)]:
        samplers = [s(list(range(10)), num_replicas=replicas, rank=rank, shuffle=shuffle,
                      seed=1, drop_last=drop_last)
                    for s in (torch.utils.data.distributed.DistributedSampler,
                              DistributedSampler)]
        for epoch in range(3):
            for s in samplers:
                s.set_epoch(epoch)
            theirs, ours = (list(s) for s in samplers)
            assert ours == theirs and len(samplers[1]) == len(samplers[0])
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        DistributedSampler(list(range(4)), num_replicas=2, rank=2)
