# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples "mnist"
# (basic MNIST CNN), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/mnist/main.py
# Like the original: argparse options with defaults (batch sizes 64/1000, lr 1.0, gamma 0.7,
# seed 1, log interval 10), torch.manual_seed(args.seed), a Net with Conv2d(1, 32, 3, 1),
# Conv2d(32, 64, 3, 1), F.relu, F.max_pool2d, Dropout(0.25) and Dropout(0.5), torch.flatten,
# Linear(9216, 128), Linear(128, 10), F.log_softmax; optim.Adadelta and StepLR(step_size=1);
# a train loop with F.nll_loss and the 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}' log
# line; a test loop summing nll_loss(reduction='sum'), argmax(dim=1, keepdim=True),
# pred.eq(target.view_as(pred)), and the '\nTest set: ...' line.
# Differences: our own code; no torchvision download: TensorDatasets of synthetic images
# normalised like MNIST ((u - 0.1307) / 0.3081 with u uniform in [0, 1)) and int64 labels,
# from numpy.random.default_rng(0), 640 training and 200 test samples; 2 epochs by default.
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.drop1 = nn.Dropout(0.25)
        self.drop2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = self.drop1(F.max_pool2d(x, 2))
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        x = self.fc2(self.drop2(x))
        return F.log_softmax(x, dim=1)


def train(args, model, loader, optimizer, epoch):
    model.train()
    for i, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if i % args.log_interval == 0:
            print("Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}".format(
                epoch, i * len(data), len(loader.dataset), 100. * i / len(loader), loss.item()))


def test(model, loader):
    model.eval()
    total, correct = 0, 0
    with torch.no_grad():
        for data, target in loader:
            out = model(data)
            total += F.nll_loss(out, target, reduction="sum").item()
            pred = out.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    total /= len(loader.dataset)
    print("\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n".format(
        total, correct, len(loader.dataset), 100. * correct / len(loader.dataset)))


def synthetic_mnist(rng, n):
    images = (rng.random((n, 1, 28, 28), dtype=np.float32) - 0.1307) / 0.3081
    return TensorDataset(torch.from_numpy(images), torch.from_numpy(rng.integers(0, 10, n)))


def main():
    parser = argparse.ArgumentParser(description="MNIST-style CNN")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--test-batch-size", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    rng = np.random.default_rng(0)
    train_loader = DataLoader(synthetic_mnist(rng, 640), batch_size=args.batch_size)
    test_loader = DataLoader(synthetic_mnist(rng, 200), batch_size=args.test_batch_size)
    model = Net()
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, train_loader, optimizer, epoch)
        test(model, test_loader)
        scheduler.step()
        print("lr now", scheduler.get_last_lr())


if __name__ == "__main__":
    main()
