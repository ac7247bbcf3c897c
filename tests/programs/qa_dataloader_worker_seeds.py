# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch issue "np.random
# generates the same random numbers for each data batch" (a dataset drawing numpy.random and
# random in __getitem__, read through DataLoader(num_workers=4)):
# https://github.com/pytorch/pytorch/issues/5059
# its follow-up in xingyizhou/CenterNet (a dataset returning np.random.randint and
# torch.initial_seed() from each worker; worker_init_fn reseeding NumPy from
# torch.initial_seed() // 2**32 + worker_id; the same draws again next epoch):
# https://github.com/xingyizhou/CenterNet/issues/233
# and the IterableDataset example of torch.utils.data's documentation (get_worker_info()
# splitting range(start, end) between workers).
# Like the originals: worker processes, the per-worker seeds PyTorch derives from the main
# generator (torch.initial_seed() in the worker), NumPy and random reseeded in each worker,
# worker_init_fn, two epochs, persistent_workers, an IterableDataset split by worker id.
# Differences: seeded; two workers (the issues use four and eight); batches printed as lists.
import math
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info

torch.manual_seed(0)
np.random.seed(0)
random.seed(0)


class RandomDataset(Dataset):
    """Each sample: its index, a NumPy draw, a random draw and a torch draw."""

    def __len__(self):
        return 8

    def __getitem__(self, ind):
        return [ind, np.random.randint(1, 10000), random.randint(10000, 20000),
                int(torch.randint(0, 1000, (1,)))]


def show(loader, epochs=2):
    for epoch in range(epochs):
        for batch in loader:
            print(epoch, torch.stack(batch, 1).tolist())


print("main process:")
show(DataLoader(RandomDataset(), 4, shuffle=False))
print("two workers:")
show(DataLoader(RandomDataset(), 4, shuffle=False, num_workers=2))
print("main generator after the passes:", torch.rand(2))


class FalseDataset(Dataset):
    def __init__(self, length):
        self.len = length

    def __len__(self):
        return self.len

    def __getitem__(self, index):
        info = get_worker_info()
        return [np.random.randint(1, 10000), torch.initial_seed() % 1000, info.id]


def reseed_numpy(worker_id):
    np.random.seed(torch.initial_seed() // 2**32 + worker_id)


for init_fn in (None, reseed_numpy):
    loader = DataLoader(FalseDataset(6), batch_size=1, shuffle=True, num_workers=2,
                        worker_init_fn=init_fn)
    for epoch in range(2):
        rows = [[int(v) for v in batch] for batch in loader]
        print("init_fn" if init_fn else "default", epoch, rows)

persistent = DataLoader(FalseDataset(4), batch_size=2, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print("persistent", epoch, [b[0].tolist() for b in persistent])
print("in the main process:", get_worker_info())


class RangeDataset(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        assert end > start, "this example code only works with end >= start"
        self.start = start
        self.end = end

    def __iter__(self):
        worker_info = get_worker_info()
        if worker_info is None:  # single-process data loading: the full range
            iter_start, iter_end = self.start, self.end
        else:  # split the workload
            per_worker = int(math.ceil((self.end - self.start) / float(worker_info.num_workers)))
            iter_start = self.start + worker_info.id * per_worker
            iter_end = min(iter_start + per_worker, self.end)
        return iter(range(iter_start, iter_end))


ds = RangeDataset(start=3, end=7)
print(list(DataLoader(ds, num_workers=0)))
print(list(DataLoader(ds, num_workers=2)))
print([b.tolist() for b in DataLoader(RangeDataset(0, 11), batch_size=3, num_workers=2)])
print([b.tolist() for b in DataLoader(RangeDataset(0, 11), batch_size=3, num_workers=2,
                                      drop_last=True)])
