"""torch.utils.data.distributed: DistributedSampler, each replica's share of a dataset's indices
(training scripts import it at the top; with num_replicas and rank given it runs anywhere)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from gradsh.torch._missing import module_getattr
from gradsh.torch.utils.data.sampler import Sampler

__getattr__ = module_getattr("torch.utils.data.distributed")

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    """The indices of replica `rank` out of `num_replicas`: the dataset's order (shuffled by a
    generator seeded with seed + epoch), padded by its own start (or cut, `drop_last`) to a
    multiple of the replicas, then every num_replicas-th from `rank`."""

    def __init__(self, dataset: Any, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        from gradsh.torch import distributed as dist

        if num_replicas is None:
            num_replicas = dist.get_world_size()  # (no process group: PyTorch's error)
        if rank is None:
            rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        import gradsh.torch as torch

        if self.shuffle:
            generator = torch.Generator()
            generator.manual_seed(self.seed + self.epoch)
            indices = torch.randperm(len(self.dataset), generator=generator).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            repeats = math.ceil(padding / len(indices)) if indices else 0
            indices += (indices * max(repeats, 1))[:padding]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """The epoch that seeds the next shuffle (call it before each epoch's iteration)."""
        self.epoch = epoch
