# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning's
# optimization chapter (PyTorch tabs), Apache-2.0 / CC BY-SA 4.0:
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/gd.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/momentum.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/adagrad.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/rmsprop.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/adam.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/lr-scheduler.md
# Like the book: gd(eta, f_grad) on x^2 and on x*cos(c*x) with c = d2l.tensor(0.15*pi) (so x
# turns into a tensor), Newton's method on cosh(c*x), train_2d with gd_2d and momentum_2d
# printing 'epoch 20, x1: ..., x2: ...'; the from-scratch minibatch updates (sgd_momentum,
# adagrad, rmsprop, adam and yogi) writing p[:] and state[:] under torch.no_grad() and zeroing
# p.grad.data, run through a train_ch11-style loop (linreg + squared_loss, evaluated every 200
# examples) and compared with train_concise_ch11 (nn.Linear, MSELoss(reduction='none'),
# torch.optim, normal_ init); the SquareRoot, Factor and Cosine schedulers and MultiStepLR's
# get_last_lr().
# Differences: our own code; the airfoil data set is replaced by 400 synthetic rows of 5
# features; one epoch each; no timer or plots (the printed losses stay); a seed.
import math

import numpy as np
import torch
from torch import nn
from torch.optim import lr_scheduler

torch.manual_seed(0)


def f(x):
    return x ** 2


def f_grad(x):
    return 2 * x


def gd(eta, f_grad):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x)
        results.append(float(x))
    print(f'epoch 10, x: {x:f}')
    return results


gd(0.2, f_grad)
gd(0.05, f_grad)
print(gd(1.1, f_grad)[-3:])
c = torch.tensor(0.15 * np.pi)


def f_grad(x):
    return torch.cos(c * x) - c * x * torch.sin(c * x)


res = gd(2, f_grad)
print(type(res[-1]).__name__, res[:3])

c = torch.tensor(0.5)


def newton(eta=1):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * (c * torch.sinh(c * x)) / (c ** 2 * torch.cosh(c * x))
        results.append(float(x))
    print('epoch 10, x:', x)
    return results


newton()
newton(0.5)


def train_2d(trainer, steps=20, f_grad=None):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results


def f_2d_grad(x1, x2):
    return (2 * x1, 4 * x2)


def gd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    return (x1 - eta * g1, x2 - eta * g2, 0, 0)


eta = 0.1
train_2d(gd_2d, f_grad=f_2d_grad)


def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


eta, beta = 0.6, 0.5
train_2d(momentum_2d)
eta, beta = 0.6, 0.25
train_2d(momentum_2d)

features = torch.randn(400, 5)
labels = features @ torch.tensor([[0.5], [-1.0], [0.3], [2.0], [-0.7]]) + 0.1 * torch.randn(400, 1)
feature_dim = 5


def data_iter_fn(batch_size=10):
    dataset = torch.utils.data.TensorDataset(features, labels)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def evaluate_loss(net, loss):
    return float(loss(net(features), labels).mean())


def train_ch11(trainer_fn, states, hyperparams, data_iter, feature_dim, num_epochs=1):
    w = torch.normal(mean=0.0, std=0.01, size=(feature_dim, 1), requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    net, loss = lambda X: linreg(X, w, b), squared_loss
    n, losses = 0, []
    for _ in range(num_epochs):
        for X, y in data_iter:
            l = loss(net(X), y).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
            n += X.shape[0]
            if n % 200 == 0:
                losses.append(evaluate_loss(net, loss))
    print(f'loss: {losses[-1]:.3f}', [round(v, 4) for v in losses])
    return w


def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=1):
    net = nn.Sequential(nn.Linear(5, 1))

    def init_weights(module):
        if type(module) == nn.Linear:
            torch.nn.init.normal_(module.weight, std=0.01)

    net.apply(init_weights)
    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    n, losses = 0, []
    for _ in range(num_epochs):
        for X, y in data_iter:
            optimizer.zero_grad()
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            l.mean().backward()
            optimizer.step()
            n += X.shape[0]
            if n % 200 == 0:
                losses.append(evaluate_loss(net, loss) / 2)
    print(f'loss: {losses[-1]:.3f}', [round(v, 4) for v in losses])


def init_momentum_states(feature_dim):
    return (torch.zeros((feature_dim, 1)), torch.zeros(1))


def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()


def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


def yogi(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-3
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = s + (1 - beta2) * torch.sign(torch.square(p.grad) - s) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


data_iter = data_iter_fn(batch_size=10)
train_ch11(sgd_momentum, init_momentum_states(feature_dim), {'lr': 0.02, 'momentum': 0.5}, data_iter, feature_dim)
train_ch11(sgd_momentum, init_momentum_states(feature_dim), {'lr': 0.01, 'momentum': 0.9}, data_iter, feature_dim)
train_concise_ch11(torch.optim.SGD, {'lr': 0.005, 'momentum': 0.9}, data_iter)
train_ch11(adagrad, init_momentum_states(feature_dim), {'lr': 0.1}, data_iter, feature_dim)
train_concise_ch11(torch.optim.Adagrad, {'lr': 0.1}, data_iter)
train_ch11(rmsprop, init_momentum_states(feature_dim), {'lr': 0.01, 'gamma': 0.9}, data_iter, feature_dim)
train_concise_ch11(torch.optim.RMSprop, {'lr': 0.01, 'alpha': 0.9}, data_iter)
w = train_ch11(adam, init_adam_states(feature_dim), {'lr': 0.01, 't': 1}, data_iter, feature_dim)
print(w.T)
train_concise_ch11(torch.optim.Adam, {'lr': 0.01}, data_iter)
train_ch11(yogi, init_adam_states(feature_dim), {'lr': 0.01, 't': 1}, data_iter, feature_dim)


class SquareRootScheduler:
    def __init__(self, lr=0.1):
        self.lr = lr

    def __call__(self, num_update):
        return self.lr * pow(num_update + 1.0, -0.5)


class FactorScheduler:
    def __init__(self, factor=1, stop_factor_lr=1e-7, base_lr=0.1):
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.base_lr = base_lr

    def __call__(self, num_update):
        self.base_lr = max(self.stop_factor_lr, self.base_lr * self.factor)
        return self.base_lr


class CosineScheduler:
    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0):
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.warmup_steps = warmup_steps
        self.warmup_begin_lr = warmup_begin_lr
        self.max_steps = self.max_update - self.warmup_steps

    def get_warmup_lr(self, epoch):
        increase = (self.base_lr_orig - self.warmup_begin_lr) * float(epoch) / float(self.warmup_steps)
        return self.warmup_begin_lr + increase

    def __call__(self, epoch):
        if epoch < self.warmup_steps:
            return self.get_warmup_lr(epoch)
        if epoch <= self.max_update:
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * (
                1 + math.cos(math.pi * (epoch - self.warmup_steps) / self.max_steps)) / 2
        return self.base_lr


print([round(SquareRootScheduler(lr=0.1)(t), 5) for t in range(5)])
scheduler = FactorScheduler(factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
print([round(scheduler(t), 5) for t in range(0, 50, 10)])
scheduler = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01, warmup_steps=5)
print([round(scheduler(t), 5) for t in range(0, 30, 3)])

net = nn.Sequential(nn.Linear(5, 1))
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[15, 30], gamma=0.5)


def get_lr(trainer, scheduler):
    lr = scheduler.get_last_lr()[0]
    trainer.step()
    scheduler.step()
    return lr


print([get_lr(trainer, scheduler) for t in range(0, 40, 4)])
trainer.param_groups[0]["lr"] = 0.1
print(f'learning rate is now {trainer.param_groups[0]["lr"]:.2f}')
