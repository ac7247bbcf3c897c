# Corpus program, written for gradsh (no code copied). Modelled on the dataloader notebook of
# https://github.com/walkacross/pytorch-libtorch-API-translation ("dataloader": features =
# torch.arange(27).reshape(9, 3) * 1.0 and random integer labels, a CustomDataset with
# __getitem__ / __len__ and an assert on the lengths, then DataLoader with batch_size,
# shuffle, drop_last, batch_size=None for unbatched loading, a batch_sampler and a
# collate_fn), and on the notes of https://github.com/zhenlan0426/Notes on what the loader
# does (indices = next(batch_sampler); batch = collate_fn([dataset[i] for i in indices]),
# default_collate stacking tensors and turning floats into float64 and ints into int64).
# Differences: our own code; seeded.
import torch
from torch.utils.data import BatchSampler, DataLoader, Dataset, SequentialSampler
from torch.utils.data import default_collate

torch.manual_seed(0)
sample_size = 9
number_features = 3
features = torch.arange(sample_size * number_features).reshape(sample_size, number_features) * 1.0
label = torch.randint(low=0, high=3, size=(sample_size,))
print(features)
print(label)


class CustomDataset(Dataset):
    def __init__(self, features, labels):
        super().__init__()
        self.features = features
        self.labels = labels
        assert features.shape[0] == labels.shape[0]

    def __getitem__(self, i):
        return self.features[i], self.labels[i]

    def __len__(self):
        return self.features.shape[0]


dataset = CustomDataset(features, label)
for x, y in DataLoader(dataset, batch_size=4):
    print(x.shape, y)
print([y.tolist() for _, y in DataLoader(dataset, batch_size=4, drop_last=True)])
print(len(DataLoader(dataset, batch_size=4)), len(DataLoader(dataset, batch_size=4, drop_last=True)))
for x, y in DataLoader(dataset, batch_size=None):
    print(x, y)
    break
for x, y in DataLoader(dataset, batch_size=3, shuffle=True):
    print(y)
bs = BatchSampler(SequentialSampler(dataset), batch_size=4, drop_last=False)
print(list(bs))
for x, y in DataLoader(dataset, batch_sampler=bs):
    print(x[:, 0])
print(default_collate([1.5, 2.5]), default_collate([1, 2]).dtype)
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))
print(default_collate([{"a": torch.tensor(1.0), "b": 2}, {"a": torch.tensor(3.0), "b": 4}]))
print(default_collate([[1, 2], [3, 4]]))
print(default_collate(["x", "y"]))
loader = DataLoader(dataset, batch_size=5, collate_fn=lambda batch: len(batch))
print(list(loader))
