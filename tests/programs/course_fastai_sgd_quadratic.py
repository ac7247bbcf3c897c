# Corpus program, written for gradsh (no code copied). Modelled on fast.ai's "Practical Deep
# Learning for Coders" chapter 4 (fastbook, "An End-to-End SGD Example",
# https://github.com/fastai/fastbook/blob/master/04_mnist_basics.ipynb): time = arange(0, 20),
# speed = torch.randn(20) * 3 + 0.75 * (time - 9.5) ** 2 + 1, a quadratic f(t, params) =
# a t^2 + b t + c, mse, params = torch.randn(3).requires_grad_(), orig_params = params.clone(),
# apply_step doing params.data -= lr * params.grad.data and params.grad = None, ten steps
# printing the loss; then the chapter's mnist_loss with sigmoid on a tiny synthetic "3 vs 7"
# set, linear1 = xb @ weights + bias, calc_grad, train_epoch, batch_accuracy and
# validate_epoch, and the same with nn.Linear and a BasicOptim class.
# Differences: our own code; synthetic pixels instead of MNIST; seeded.
import torch
from torch import nn

torch.manual_seed(42)
time = torch.arange(0, 20).float()
speed = torch.randn(20) * 3 + 0.75 * (time - 9.5) ** 2 + 1
print(time[:5], speed.shape)


def f(t, params):
    a, b, c = params
    return a * (t ** 2) + (b * t) + c


def mse(preds, targets):
    return ((preds - targets) ** 2).mean()


params = torch.randn(3).requires_grad_()
orig_params = params.clone()
lr = 1e-5


def apply_step(params, prn=True):
    preds = f(time, params)
    loss = mse(preds, speed)
    loss.backward()
    params.data -= lr * params.grad.data
    params.grad = None
    if prn:
        print(loss.item())
    return preds


for i in range(10):
    apply_step(params)
print(orig_params.grad_fn, params.requires_grad)

n = 64
proto3 = (torch.rand(16) > 0.5).float()
proto7 = 1 - proto3
x3 = (proto3 + 0.3 * torch.randn(n, 16)).clamp(0, 1)
x7 = (proto7 + 0.3 * torch.randn(n, 16)).clamp(0, 1)
train_x = torch.cat([x3, x7])
train_y = torch.tensor([1] * n + [0] * n).unsqueeze(1)
dset = list(zip(train_x, train_y))
x, y = dset[0]
print(x.shape, y)


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


weights = init_params((16, 1))
bias = init_params(1)


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


dl = torch.utils.data.DataLoader(dset, batch_size=32, shuffle=True)
xb, yb = next(iter(dl))
print(xb.shape, yb.shape)


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()


calc_grad(xb[:4], yb[:4], linear1)
print(weights.grad.mean(), bias.grad)
weights.grad.zero_()
bias.grad.zero_()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


def validate_epoch(model):
    accs = [batch_accuracy(model(xb), yb) for xb, yb in dl]
    return round(torch.stack(accs).mean().item(), 4)


def train_epoch(model, lr, params):
    for xb, yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()


for i in range(5):
    train_epoch(linear1, 1.0, (weights, bias))
    print(validate_epoch(linear1), end=" ")
print()


class BasicOptim:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def step(self, *args, **kwargs):
        for p in self.params:
            p.data -= p.grad.data * self.lr

    def zero_grad(self, *args, **kwargs):
        for p in self.params:
            p.grad = None


linear_model = nn.Linear(16, 1)
w, b = linear_model.parameters()
print(w.shape, b.shape)
opt = BasicOptim(linear_model.parameters(), 1.0)
for i in range(5):
    for xb, yb in dl:
        calc_grad(xb, yb, linear_model)
        opt.step()
        opt.zero_grad()
    print(validate_epoch(linear_model), end=" ")
print()
