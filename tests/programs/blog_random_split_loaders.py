# Corpus program, written for gradsh (no code copied). Modelled on "Dividing Tensor Datasets
# into Train, Test, and Validation in PyTorch"
# (https://www.codegenes.net/blog/dividing-tensor-datasets-into-train-test-and-validation-pytorch:
# a small Dataset over torch.randn(100, 10), train/val/test sizes of 60 / 20 / 20 from
# int(0.6 * len), random_split, three DataLoaders, printing each batch's shape) and on the
# random_split reference (fractions [0.8, 0.1, 0.1] and a seeded generator for a
# reproducible split).
# Differences: our own code; the same split drawn twice with torch.Generator().manual_seed(42)
# to show it is reproducible; seeded.
import torch
from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split

torch.manual_seed(0)


class MyTensorDataset(Dataset):
    def __init__(self, data):
        self.data = data

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return len(self.data)


data = torch.randn(100, 10)
dataset = MyTensorDataset(data)
train_size = int(0.6 * len(dataset))
val_size = int(0.2 * len(dataset))
test_size = len(dataset) - train_size - val_size
train_dataset, val_dataset, test_dataset = random_split(dataset, [train_size, val_size, test_size])
print(len(train_dataset), len(val_dataset), len(test_dataset))
print(type(train_dataset).__name__, train_dataset.indices[:5])
train_loader = DataLoader(train_dataset, batch_size=16, shuffle=True)
val_loader = DataLoader(val_dataset, batch_size=16, shuffle=False)
for batch in train_loader:
    print(batch.shape)
print([b.shape[0] for b in val_loader])

X = torch.arange(100.0).reshape(100, 1)
y = (X.squeeze(1) % 2).long()
full = TensorDataset(X, y)
train, val, test = random_split(full, [0.8, 0.1, 0.1])
print(len(train), len(val), len(test))
s1 = random_split(full, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
s2 = random_split(full, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
print(s1[1].indices == s2[1].indices, sorted(s1[1].indices)[:6])
print(sorted(set(s1[0].indices) & set(s1[1].indices)))
xb, yb = next(iter(DataLoader(s1[1], batch_size=4)))
print(xb.squeeze(1).tolist(), yb.tolist())
sub = Subset(full, [0, 2, 4])
print(len(sub), sub[1])
odd = random_split(range(10), [0.33, 0.33, 0.34], generator=torch.Generator().manual_seed(0))
print([len(s) for s in odd], [list(s) for s in odd])
try:
    random_split(full, [50, 40])
except ValueError as e:
    print("ValueError:", e)
