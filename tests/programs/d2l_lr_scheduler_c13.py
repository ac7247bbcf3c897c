# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning's
# "Learning Rate Scheduling" section (PyTorch tab; CC BY-SA 4.0 / MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_optimization/lr-scheduler.md
# Like the original: LeNet (Conv2d padding 2, MaxPool2d, Flatten, three Linear layers), a
# train function that steps a scheduler at the end of each epoch, telling PyTorch's built-in
# schedulers from custom ones with scheduler.__module__ == lr_scheduler.__name__ and setting
# param_group['lr'] = scheduler(epoch) for the latter; the lr set by hand through
# trainer.param_groups[0]["lr"]; SquareRootScheduler, FactorScheduler (factor 0.9, floor
# 1e-2), lr_scheduler.MultiStepLR(milestones=[15, 30], gamma=0.5) sampled with get_lr
# (get_last_lr, step, step), the hand-written MultiFactorScheduler, and CosineScheduler with
# and without warmup; the schedules printed instead of plotted.
# Differences: random 1x28x28 images with labels from a fixed rule instead of Fashion-MNIST,
# 48 images in batches of 16, 3 epochs per training run; d2l's Accumulator / accuracy helpers
# written out; no Animator; seeded.
import math

import torch
from torch import nn
from torch.optim import lr_scheduler

torch.manual_seed(0)


def net_fn():
    return nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.ReLU(),
        nn.MaxPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.ReLU(),
        nn.MaxPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.Linear(16 * 5 * 5, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10))


loss = nn.CrossEntropyLoss()
device = torch.device('cpu')
X_all = torch.randn(48, 1, 28, 28)
y_all = (X_all[:, 0, :14].mean(dim=(1, 2)) * 40).long().clamp(-4, 5) + 4
test_X, test_y = torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))
train_iter = [(X_all[i:i + 16], y_all[i:i + 16]) for i in range(0, 48, 16)]


def accuracy(y_hat, y):
    return float((y_hat.argmax(axis=1).type(y.dtype) == y).type(y.dtype).sum())


def train(net, train_iter, num_epochs, loss, trainer, device, scheduler=None):
    net.to(device)
    for epoch in range(num_epochs):
        metric = [0.0, 0.0, 0.0]
        for i, (X, y) in enumerate(train_iter):
            net.train()
            trainer.zero_grad()
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            trainer.step()
            with torch.no_grad():
                for j, v in enumerate((l * X.shape[0], accuracy(y_hat, y), X.shape[0])):
                    metric[j] += float(v)
            train_loss = metric[0] / metric[2]
            train_acc = metric[1] / metric[2]
        net.eval()
        with torch.no_grad():
            test_acc = accuracy(net(test_X), test_y) / len(test_y)
        if scheduler:
            if scheduler.__module__ == lr_scheduler.__name__:
                scheduler.step()
            else:
                for param_group in trainer.param_groups:
                    param_group['lr'] = scheduler(epoch)
        print(f'  epoch {epoch}: lr {trainer.param_groups[0]["lr"]:.4f}')
    print(f'train loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}')


lr, num_epochs = 0.3, 3
net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr=lr)
train(net, train_iter, num_epochs, loss, trainer, device)
lr = 0.1
trainer.param_groups[0]["lr"] = lr
print(f'learning rate is now {trainer.param_groups[0]["lr"]:.2f}')


class SquareRootScheduler:
    def __init__(self, lr=0.1):
        self.lr = lr

    def __call__(self, num_update):
        return self.lr * pow(num_update + 1.0, -0.5)


scheduler = SquareRootScheduler(lr=0.1)
print([round(scheduler(t), 4) for t in range(30)][::5])
print(scheduler.__module__, lr_scheduler.__name__, scheduler.__module__ == lr_scheduler.__name__)
net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr)
train(net, train_iter, num_epochs, loss, trainer, device, scheduler)


class FactorScheduler:
    def __init__(self, factor=1, stop_factor_lr=1e-7, base_lr=0.1):
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.base_lr = base_lr

    def __call__(self, num_update):
        self.base_lr = max(self.stop_factor_lr, self.base_lr * self.factor)
        return self.base_lr


scheduler = FactorScheduler(factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
print([round(scheduler(t), 4) for t in range(50)][::7])

net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[15, 30], gamma=0.5)
print(type(scheduler).__module__, type(scheduler).__name__, scheduler.__module__)


def get_lr(trainer, scheduler):
    lr = scheduler.get_last_lr()[0]
    trainer.step()
    scheduler.step()
    return lr


print([get_lr(trainer, scheduler) for t in range(40)][13:33])
print(scheduler.state_dict())
net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[1, 2], gamma=0.5)
train(net, train_iter, num_epochs, loss, trainer, device, scheduler)


class MultiFactorScheduler:
    def __init__(self, step, factor, base_lr):
        self.step = step
        self.factor = factor
        self.base_lr = base_lr

    def __call__(self, epoch):
        if epoch in self.step:
            self.base_lr = self.base_lr * self.factor
            return self.base_lr
        return self.base_lr


scheduler = MultiFactorScheduler(step=[15, 30], factor=0.5, base_lr=0.5)
print([scheduler(t) for t in range(40)][13:33])


class CosineScheduler:
    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0,
                 warmup_begin_lr=0):
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.warmup_steps = warmup_steps
        self.warmup_begin_lr = warmup_begin_lr
        self.max_steps = self.max_update - self.warmup_steps

    def get_warmup_lr(self, epoch):
        increase = (self.base_lr_orig - self.warmup_begin_lr) \
            * float(epoch) / float(self.warmup_steps)
        return self.warmup_begin_lr + increase

    def __call__(self, epoch):
        if epoch < self.warmup_steps:
            return self.get_warmup_lr(epoch)
        if epoch <= self.max_update:
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * (
                1 + math.cos(math.pi * (epoch - self.warmup_steps) / self.max_steps)) / 2
        return self.base_lr


scheduler = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01)
print([round(scheduler(t), 5) for t in range(30)])
net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
train(net, train_iter, num_epochs, loss, trainer, device, scheduler)
scheduler = CosineScheduler(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
print([round(scheduler(t), 5) for t in range(30)])
net = net_fn()
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
train(net, train_iter, num_epochs, loss, trainer, device, scheduler)
