# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples "mnist" as
# it stood in 2018 (the LeNet-like Net with Dropout2d, before ex_mnist.py's rewrite),
# BSD-3-Clause: https://github.com/pytorch/examples/blob/master/mnist/main.py
# Like the original: argparse options with defaults (batch sizes 64/1000, lr 0.01, momentum
# 0.5, seed 1, log interval 10), torch.manual_seed(args.seed), a Net with
# Conv2d(1, 10, kernel_size=5), Conv2d(10, 20, kernel_size=5), nn.Dropout2d after the second,
# F.relu(F.max_pool2d(..., 2)), x.view(-1, 320), Linear(320, 50), F.dropout(x,
# training=self.training), Linear(50, 10) and F.log_softmax(x, dim=1); optim.SGD with
# momentum; a train loop with F.nll_loss and the 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss:
# {:.6f}' line; a test loop summing F.nll_loss(reduction='sum'), output.max(1, keepdim=True)[1],
# pred.eq(target.view_as(pred)).sum().item() and the '\nTest set: ...' line.
# Differences: our own code; no torchvision download: TensorDatasets of synthetic images
# normalised like MNIST ((u - 0.1307) / 0.3081 with u uniform in [0, 1)) and int64 labels,
# from numpy.random.default_rng(0), 1280 training and 300 test samples; 3 epochs by default.
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def train(args, model, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))


def test(args, model, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()  # sum up batch loss
            pred = output.max(1, keepdim=True)[1]  # index of the max log-probability
            correct += pred.eq(target.view_as(pred)).sum().item()

    test_loss /= len(test_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(test_loader.dataset),
        100. * correct / len(test_loader.dataset)))


def synthetic_mnist(rng, n):
    images = (rng.random((n, 1, 28, 28), dtype=np.float32) - 0.1307) / 0.3081
    return TensorDataset(torch.from_numpy(images), torch.from_numpy(rng.integers(0, 10, n)))


def main():
    parser = argparse.ArgumentParser(description='PyTorch MNIST Example')
    parser.add_argument('--batch-size', type=int, default=64, metavar='N')
    parser.add_argument('--test-batch-size', type=int, default=1000, metavar='N')
    parser.add_argument('--epochs', type=int, default=3, metavar='N')
    parser.add_argument('--lr', type=float, default=0.01, metavar='LR')
    parser.add_argument('--momentum', type=float, default=0.5, metavar='M')
    parser.add_argument('--seed', type=int, default=1, metavar='S')
    parser.add_argument('--log-interval', type=int, default=10, metavar='N')
    args = parser.parse_args()

    torch.manual_seed(args.seed)

    rng = np.random.default_rng(0)
    train_loader = DataLoader(synthetic_mnist(rng, 1280), batch_size=args.batch_size,
                              shuffle=True)
    test_loader = DataLoader(synthetic_mnist(rng, 300), batch_size=args.test_batch_size,
                             shuffle=True)

    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)

    for epoch in range(1, args.epochs + 1):
        train(args, model, train_loader, optimizer, epoch)
        test(args, model, test_loader)


if __name__ == '__main__':
    main()
