# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "mnist_forward_forward" (Hinton's forward-forward algorithm; based on Mohammad Pezeshki's
# implementation, MIT / BSD-3-Clause):
# https://github.com/pytorch/examples/blob/main/mnist_forward_forward/main.py
# Like the original: argparse options (epochs, lr, threshold, log-interval, ...), the device
# from torch.accelerator.is_available(), get_y_neg() drawing a wrong label per sample with
# torch.randint over the allowed indices, overlay_y_on_x() writing x.max() at the label's
# position (x_[range(n), y] = ...), a Net whose layers live in a plain Python list and whose
# train() overrides nn.Module.train, Layer(nn.Linear) with its own Adam and a forward that
# normalises x by x.norm(2, 1, keepdim=True) + 1e-4, the loss log1p(exp(cat([-g_pos + t,
# g_neg - t]))).mean(), "training layer: i" and "Loss: ..." prints, predict() summing the
# goodness per label, train and test error; net.state_dict() is empty (the layers are in a
# list), which the program prints.
# Differences: our own code; synthetic 64-pixel "images" (a bright stroke per class) instead of
# MNIST, 200 train / 100 test, dims [64, 32, 32], 60 epochs, a seed.
import argparse

import torch
import torch.nn as nn
from torch.optim import Adam

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=60)
parser.add_argument("--lr", type=float, default=0.03)
parser.add_argument("--no_accel", action="store_true")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--train_size", type=int, default=200)
parser.add_argument("--threshold", type=float, default=2)
parser.add_argument("--test_size", type=int, default=100)
parser.add_argument("--log-interval", type=int, default=15)
args = parser.parse_args()
print(args)
torch.manual_seed(args.seed)
use_accel = not args.no_accel and torch.accelerator.is_available()
device = torch.accelerator.current_accelerator() if use_accel else torch.device("cpu")
print(device)


def get_y_neg(y):
    y_neg = y.clone()
    for idx, y_samp in enumerate(y):
        allowed_indices = list(range(10))
        allowed_indices.remove(y_samp.item())
        y_neg[idx] = torch.tensor(allowed_indices)[torch.randint(len(allowed_indices), size=(1,))].item()
    return y_neg.to(device)


def overlay_y_on_x(x, y, classes=10):
    x_ = x.clone()
    x_[:, :classes] *= 0.0
    x_[range(x.shape[0]), y] = x.max()
    return x_


class Net(torch.nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = []
        for d in range(len(dims) - 1):
            self.layers = self.layers + [Layer(dims[d], dims[d + 1]).to(device)]

    def predict(self, x):
        goodness_per_label = []
        for label in range(10):
            h = overlay_y_on_x(x, label)
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness = goodness + [h.pow(2).mean(1)]
            goodness_per_label += [sum(goodness).unsqueeze(1)]
        goodness_per_label = torch.cat(goodness_per_label, 1)
        return goodness_per_label.argmax(1)

    def train(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        for i, layer in enumerate(self.layers):
            print("training layer: ", i)
            h_pos, h_neg = layer.train(h_pos, h_neg)


class Layer(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device, dtype)
        self.relu = torch.nn.ReLU()
        self.opt = Adam(self.parameters(), lr=args.lr)
        self.threshold = args.threshold
        self.num_epochs = args.epochs

    def forward(self, x):
        x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return self.relu(torch.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))

    def train(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)
            loss = torch.log1p(torch.exp(torch.cat([-g_pos + self.threshold, g_neg - self.threshold]))).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if i % args.log_interval == 0:
                print("Loss: ", loss.item())
        return self.forward(x_pos).detach(), self.forward(x_neg).detach()


def make_split(n):
    y = torch.randint(0, 10, (n,))
    x = torch.rand(n, 64) * 0.3
    for k in range(n):
        start = 10 + 5 * int(y[k])
        x[k, start:start + 5] += 1.0
    return (x - 0.1307) / 0.3081, y


x, y = make_split(args.train_size)
x_te, y_te = make_split(args.test_size)
net = Net([64, 32, 32])
print(net, net.state_dict())
x_pos = overlay_y_on_x(x, y)
y_neg = get_y_neg(y)
print(y[:10], y_neg[:10])
x_neg = overlay_y_on_x(x, y_neg)
net.train(x_pos, x_neg)
print("train error:", 1.0 - net.predict(x).eq(y).float().mean().item())
print("test error:", 1.0 - net.predict(x_te).eq(y_te).float().mean().item())
print(net.training, net.layers[0].training)
