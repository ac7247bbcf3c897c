# Corpus program, written for gradsh (no code copied). Modelled on the torch.utils.data
# documentation (https://pytorch.org/docs/stable/data.html: map-style and iterable-style
# datasets, random_split with a generator, Subset, batch_size / drop_last, samplers,
# collate_fn) and the Stack Overflow questions "How to split a dataset into train and
# validation in PyTorch" (https://stackoverflow.com/questions/50544730) and "How to use
# collate_fn with DataLoader" for variable-length sequences padded with
# nn.utils.rnn.pad_sequence.
# Differences: our own code and data; seeded generators; every batch summarised.
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                              RandomSampler, SequentialSampler, Subset, TensorDataset,
                              random_split)

torch.manual_seed(0)
full = TensorDataset(torch.arange(20.0).view(10, 2), torch.arange(10))
train_set, val_set = random_split(full, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
print(len(train_set), len(val_set), type(train_set).__name__, train_set.indices, val_set.indices)
a, b, c = random_split(range(10), [3, 3, 4], generator=torch.Generator().manual_seed(1))
print(list(a), list(b), list(c))
try:
    random_split(full, [5, 6])
except ValueError as e:
    print("ValueError:", e)

sub = Subset(full, [0, 2, 4])
print(sub[1], len(sub))
loader = DataLoader(train_set, batch_size=3, shuffle=True, drop_last=True)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb.tolist())
loader = DataLoader(val_set, batch_size=3)
print(len(loader), [yb.tolist() for _, yb in loader])

print(list(SequentialSampler(range(4))), len(list(RandomSampler(range(5)))))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
g = torch.Generator()
g.manual_seed(7)
print(list(RandomSampler(range(6), generator=g)))


class Sentences(Dataset):
    def __init__(self):
        self.data = [[1, 2, 3], [4, 5], [6], [7, 8, 9, 10], [11, 12]]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        seq = torch.tensor(self.data[i])
        return seq, len(seq)


def collate_fn(batch):
    seqs, lengths = zip(*batch)
    return pad_sequence(seqs, batch_first=True, padding_value=0), torch.tensor(lengths)


for padded, lengths in DataLoader(Sentences(), batch_size=2, collate_fn=collate_fn):
    print(padded, lengths)
print(pad_sequence([torch.ones(2), torch.ones(3) * 2]))

for batch in DataLoader(Sentences(), batch_size=None):
    print(batch, end=" ")
print()
try:
    next(iter(DataLoader(Sentences(), batch_size=2)))
except RuntimeError as e:
    print("RuntimeError:", e)


class Counter(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


print(list(DataLoader(Counter(3, 10), batch_size=4)))
both = ConcatDataset([Subset(full, [1, 2]), Subset(full, [9])])
print(len(both), [y.item() for _, y in both])
dict_loader = DataLoader([{"x": torch.tensor([i, i]), "id": i} for i in range(4)], batch_size=2)
for batch in dict_loader:
    print(batch)
