"""torch.utils.data: datasets, samplers and the DataLoader (workers emulated in-process)."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.utils.data._utils.collate import default_collate, default_convert
from gradsh.torch.utils.data.dataloader import DataLoader, get_worker_info
from gradsh.torch.utils.data.distributed import DistributedSampler
from gradsh.torch.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from gradsh.torch.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__getattr__ = module_getattr("torch.utils.data")

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "DistributedSampler", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info", "random_split"]
