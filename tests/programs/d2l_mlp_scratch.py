# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# sections 5.1 "Multilayer Perceptrons" (activation functions and their gradients) and 5.2
# "Implementation of Multilayer Perceptrons", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_multilayer-perceptrons/mlp.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_multilayer-perceptrons/mlp-implementation.md
# Like the book: x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True), y = torch.relu(x) and
# y.backward(torch.ones_like(x), retain_graph=True) for the derivative, the same for sigmoid
# and tanh with x.grad.data.zero_(); an MLP from scratch with W1 = nn.Parameter(torch.randn(
# num_inputs, num_hiddens) * 0.01), a relu written with torch.max(X, zeros_like(X)),
# H = relu(X @ W1 + b1), nn.CrossEntropyLoss(reduction='none'), torch.optim.SGD(params,
# lr=0.1); then the concise version with nn.Sequential(nn.Flatten(), nn.Linear(784, 256),
# nn.ReLU(), nn.Linear(256, 10)) and net.apply(init_weights) using nn.init.normal_(std=0.01).
# Differences: our own code; the plotted curves are summarised by a few sampled values; no
# FashionMNIST: synthetic class-dependent images; 2 epochs per model; seeded.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[75:85])
y = torch.sigmoid(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(y[::20].detach())
print(x.grad[::20])
y = torch.tanh(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[::20])


def fake_images(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.5 + labels.view(-1, 1, 1, 1) / 20
    return data.TensorDataset(images, labels)


train_iter = data.DataLoader(fake_images(512), batch_size=128, shuffle=True)
test_iter = data.DataLoader(fake_images(256), batch_size=128)

num_inputs, num_outputs, num_hiddens = 784, 10, 256
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]
print(W1.is_leaf, W1.requires_grad, type(W1).__name__)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


def evaluate(net):
    correct, total = 0, 0
    with torch.no_grad():
        for X, y in test_iter:
            correct += (net(X).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total


def train(net, loss, updater, epochs):
    for epoch in range(epochs):
        total, n = 0.0, 0
        for X, y in train_iter:
            l = loss(net(X), y)
            updater.zero_grad()
            l.mean().backward()
            updater.step()
            total += float(l.sum())
            n += y.numel()
        print(f"epoch {epoch + 1}, loss {total / n:.3f}, test acc {evaluate(net):.3f}")


loss = nn.CrossEntropyLoss(reduction="none")
updater = torch.optim.SGD(params, lr=0.1)
train(net, loss, updater, 2)

net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
train(net, loss, trainer, 2)
