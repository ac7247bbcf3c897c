# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples "vae"
# (a variational auto-encoder on MNIST), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/vae/main.py
# Like the original: argparse options (batch size 128, epochs, seed 1, log interval 10),
# torch.manual_seed(args.seed), a VAE with fc1 784->400, fc21 / fc22 400->20, fc3 20->400,
# fc4 400->784, encode with F.relu, reparameterize with std = torch.exp(0.5 * logvar) and
# eps = torch.randn_like(std), decode with torch.sigmoid, optim.Adam(lr=1e-3), the loss
# F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum') plus the KL term
# -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()); train() logging
# 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}' and '====> Epoch: {} Average loss: {:.4f}',
# test() under torch.no_grad() printing '====> Test set loss: {:.4f}', and sampling 64
# codes with torch.randn(64, 20) decoded after each epoch.
# Differences: our own code; no download and no image files: 512 training and 128 test
# synthetic 28x28 images in [0, 1]; batch size 64, 2 epochs, log interval 4; the sampled
# images' shape and mean are printed instead of saved with save_image.
import argparse

import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

parser = argparse.ArgumentParser(description="VAE MNIST Example")
parser.add_argument("--batch-size", type=int, default=64, metavar="N")
parser.add_argument("--epochs", type=int, default=2, metavar="N")
parser.add_argument("--seed", type=int, default=1, metavar="S")
parser.add_argument("--log-interval", type=int, default=4, metavar="N")
args = parser.parse_args([])
torch.manual_seed(args.seed)
device = torch.device("cpu")


def fake_mnist(n):
    base = torch.rand(n, 1, 28, 28)
    return torch.utils.data.TensorDataset((base > 0.7).float() * base, torch.zeros(n))


train_loader = torch.utils.data.DataLoader(fake_mnist(512), batch_size=args.batch_size, shuffle=True)
test_loader = torch.utils.data.DataLoader(fake_mnist(128), batch_size=args.batch_size, shuffle=False)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print("Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}".format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100.0 * batch_idx / len(train_loader), loss.item() / len(data)))
    print("====> Epoch: {} Average loss: {:.4f}".format(
        epoch, train_loss / len(train_loader.dataset)))


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n], recon_batch.view(args.batch_size, 1, 28, 28)[:n]])
                print("comparison", tuple(comparison.shape))
    test_loss /= len(test_loader.dataset)
    print("====> Test set loss: {:.4f}".format(test_loss))


for epoch in range(1, args.epochs + 1):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = torch.randn(64, 20).to(device)
        sample = model.decode(sample).cpu()
        print("sample", tuple(sample.view(64, 1, 28, 28).shape), f"{sample.mean().item():.4f}")
