# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "mnist_rnn" (an LSTM reading MNIST images row by row), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/mnist_rnn/main.py
# Like the original: a Net with nn.LSTM(input_size=28, hidden_size=64, batch_first=True),
# the last time step's output through nn.BatchNorm1d(64), nn.Dropout2d(0.25), Linear(64, 32),
# F.relu, nn.Dropout2d(0.5), Linear(32, 10) and F.log_softmax; input.reshape(-1, 28, 28);
# optim.Adadelta(lr) with StepLR(step_size=1, gamma); train() logging
# 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}' every log_interval batches and test()
# summing F.nll_loss(reduction='sum') with argmax accuracy,
# '\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.
# Differences: our own code; no download: 320 training and 128 test synthetic images whose
# rows carry a class-dependent offset; batch sizes 32 / 64, 2 epochs, log interval 5;
# seeded. Dropout2d on the (N, C) activations warns on stderr, as in the original.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(input_size=28, hidden_size=64, batch_first=True)
        self.batchnorm = nn.BatchNorm1d(64)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, input):
        input = input.reshape(-1, 28, 28)
        output, hidden = self.rnn(input)
        output = output[:, -1, :]
        output = self.batchnorm(output)
        output = self.dropout1(output)
        output = self.fc1(output)
        output = F.relu(output)
        output = self.dropout2(output)
        output = self.fc2(output)
        return F.log_softmax(output, dim=1)


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print("Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}".format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100.0 * batch_idx / len(train_loader), loss.item()))


def test(args, model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    print("\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n".format(
        test_loss, correct, len(test_loader.dataset), 100.0 * correct / len(test_loader.dataset)))


def fake_mnist(n):
    target = torch.randint(0, 10, (n,))
    data = torch.rand(n, 1, 28, 28) + target.view(-1, 1, 1, 1) * 0.1
    return TensorDataset((data - 0.1307) / 0.3081, target)


def main():
    parser = argparse.ArgumentParser(description="PyTorch MNIST Example using RNN")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--test-batch-size", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--gamma", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-interval", type=int, default=5)
    args = parser.parse_args([])
    torch.manual_seed(args.seed)
    device = torch.device("cpu")
    train_loader = DataLoader(fake_mnist(320), batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(fake_mnist(128), batch_size=args.test_batch_size, shuffle=True)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(args, model, device, test_loader)
        scheduler.step()


if __name__ == "__main__":
    main()
