# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Datasets & DataLoaders", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/data_tutorial.py
# Like the original: a labels_map of the ten FashionMNIST class names, a random sample index
# drawn with torch.randint(len(dataset), size=(1,)).item() for a 3x3 grid of samples (the
# names printed instead of plotted), a custom Dataset with __init__ / __len__ / __getitem__
# reading an annotations table and applying transform / target_transform, DataLoader with
# batch_size=64 and shuffle=True, and next(iter(train_dataloader)) printing the feature and
# label batch shapes, one image squeezed and its label.
# Differences: our own code; no download and no image files: the "annotations file" is an
# in-memory CSV text and the "images" are uint8 arrays from numpy.random.default_rng(0);
# the transform scales them to floats in [0, 1]; seeded.
import csv
import io

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

labels_map = {
    0: "T-Shirt", 1: "Trouser", 2: "Pullover", 3: "Dress", 4: "Coat",
    5: "Sandal", 6: "Shirt", 7: "Sneaker", 8: "Bag", 9: "Ankle Boot",
}

# the annotations file: one "file name, label" row per image
rows = [(f"img_{i:04d}.png", int(rng.integers(0, 10))) for i in range(200)]
annotations_csv = "\n".join(f"{name},{label}" for name, label in rows)
image_store = {name: rng.integers(0, 256, (28, 28), dtype=np.uint8) for name, _ in rows}


def read_image(name):
    # stands in for torchvision.io.read_image: a (1, H, W) uint8 tensor
    return torch.from_numpy(image_store[name]).unsqueeze(0)


class CustomImageDataset(Dataset):
    def __init__(self, annotations_file, transform=None, target_transform=None):
        self.img_labels = list(csv.reader(io.StringIO(annotations_file)))
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.img_labels)

    def __getitem__(self, idx):
        name, label = self.img_labels[idx]
        image = read_image(name)
        label = int(label)
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


def to_float(image):
    return image.float() / 255


training_data = CustomImageDataset(annotations_csv, transform=to_float)
print(len(training_data))
cols, rows_ = 3, 3
for i in range(1, cols * rows_ + 1):
    sample_idx = torch.randint(len(training_data), size=(1,)).item()
    img, label = training_data[sample_idx]
    print(i, sample_idx, labels_map[label], tuple(img.shape), round(img.mean().item(), 4))

train_dataloader = DataLoader(training_data, batch_size=64, shuffle=True)
print(len(train_dataloader))
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
print(img.shape, img.dtype)
print(f"Label: {label}")
print(train_labels[:10])
sizes = [len(labels) for _, labels in train_dataloader]
print(sizes)
