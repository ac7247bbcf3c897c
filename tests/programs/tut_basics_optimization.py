# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Optimizing Model Parameters" (FashionMNIST), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/optimization_tutorial.py
# Like the original: DataLoader(batch_size=64) over a dataset of (1, 28, 28) images, the
# Flatten + Linear/ReLU stack, nn.CrossEntropyLoss, optim.SGD(lr=1e-3), a train loop printing
# `loss: {loss:>7f}  [{current:>5d}/{size:>5d}]` every 100 batches and a test loop with
# model.eval(), no_grad, argmax accuracy and `Accuracy: {(100*correct):>0.1f}%`.
# Differences: our own code; no download: a TensorDataset of synthetic images (float32 in
# [0, 1)) and labels (int64 in [0, 10)) from numpy.random.default_rng(0), 6464 training and
# 640 test samples; 2 epochs instead of 10; seeded.
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


def fake_fashion(n):
    images = torch.from_numpy(rng.random((n, 1, 28, 28), dtype=np.float32))
    labels = torch.from_numpy(rng.integers(0, 10, n))
    return TensorDataset(images, labels)


train_loader = DataLoader(fake_fashion(6464), batch_size=64)
test_loader = DataLoader(fake_fashion(640), batch_size=64)

model = nn.Sequential(
    nn.Flatten(),
    nn.Linear(28 * 28, 512), nn.ReLU(),
    nn.Linear(512, 512), nn.ReLU(),
    nn.Linear(512, 10),
)
batch_size = 64
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train_one_epoch(loader):
    size = len(loader.dataset)
    model.train()
    for batch, (X, y) in enumerate(loader):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 100 == 0:
            value, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {value:>7f}  [{current:>5d}/{size:>5d}]")


def evaluate(loader):
    model.eval()
    total_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in loader:
            pred = model(X)
            total_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    total_loss /= len(loader)
    correct /= len(loader.dataset)
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {total_loss:>8f} \n")


for epoch in range(2):
    print(f"Epoch {epoch + 1}\n-------------------------------")
    train_one_epoch(train_loader)
    evaluate(test_loader)
print("Done!")
