# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Transforms", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/transforms_tutorial.py
# Like the original: a dataset whose transform turns a PIL-style uint8 HxW image into a
# FloatTensor scaled to [0, 1] (what ToTensor does) and whose target_transform is a Lambda
# turning the integer label into a one-hot vector with
# torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1).
# Differences: our own code; torchvision is not used: ToTensor and Lambda are small classes
# written here with the same behaviour (HWC uint8 -> CHW float / 255), and the "images" are
# uint8 arrays from numpy.random.default_rng(0); the transformed samples are printed.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

rng = np.random.default_rng(0)


class ToTensor:
    def __call__(self, pic):
        array = pic[:, :, None] if pic.ndim == 2 else pic
        return torch.from_numpy(array.transpose(2, 0, 1).copy()).float().div(255)

    def __repr__(self):
        return "ToTensor()"


class Lambda:
    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, value):
        return self.lambd(value)

    def __repr__(self):
        return "Lambda()"


class FakeFashion(Dataset):
    def __init__(self, n, transform=None, target_transform=None):
        self.images = rng.integers(0, 256, (n, 4, 4), dtype=np.uint8)
        self.labels = rng.integers(0, 10, n)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image, label = self.images[idx], int(self.labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


ds = FakeFashion(
    8,
    transform=ToTensor(),
    target_transform=Lambda(lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)),
)
print(ds.transform, ds.target_transform)
image, target = ds[0]
print(image)
print(image.dtype, image.shape, image.min().item(), image.max().item())
print(target)
print(target.argmax().item(), int(ds.labels[0]))

loader = DataLoader(ds, batch_size=4)
for images, targets in loader:
    print(images.shape, targets.shape, targets.dtype)
    print(targets.sum(dim=1))
    print(targets.argmax(dim=1))
