# Corpus program, written for gradsh (no code copied). Modelled on the torch.optim
# documentation ("How to use an optimizer", "Per-parameter options", "Taking an optimization
# step", "How to adjust learning rate") and the lr_scheduler docstring examples, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/optim.md
# https://github.com/pytorch/pytorch/blob/main/torch/optim/lr_scheduler.py
# Like the docs: SGD with momentum, per-parameter groups (a base group and a classifier group
# with its own lr), zero_grad / backward / step, a closure passed to step, ExponentialLR
# chained with MultiStepLR, StepLR, LambdaLR with one lambda per group, ReduceLROnPlateau on
# a validation loss, Adam; param_groups read and written, get_last_lr().
# Differences: our own code and model; the lr values are printed each epoch; seeded.
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import (ExponentialLR, LambdaLR, MultiStepLR, ReduceLROnPlateau,
                                      StepLR)

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
        self.classifier = nn.Linear(8, 3)

    def forward(self, x):
        return self.classifier(self.base(x))


x = torch.randn(32, 4)
y = torch.randint(0, 3, (32,))
loss_fn = nn.CrossEntropyLoss()

model = Net()
opt = optim.SGD([
    {"params": model.base.parameters()},
    {"params": model.classifier.parameters(), "lr": 1e-3},
], lr=1e-2, momentum=0.9)
print(opt)
print([g["lr"] for g in opt.param_groups])

for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item())


def closure():
    opt.zero_grad()
    out = loss_fn(model(x), y)
    out.backward()
    return out


print(opt.step(closure).item())

opt = optim.SGD(model.parameters(), lr=0.05)
sched1 = ExponentialLR(opt, gamma=0.9)
sched2 = MultiStepLR(opt, milestones=[3, 5], gamma=0.1)
for epoch in range(6):
    opt.zero_grad()
    loss_fn(model(x), y).backward()
    opt.step()
    sched1.step()
    sched2.step()
    print(epoch, sched1.get_last_lr(), opt.param_groups[0]["lr"])

opt = optim.SGD(model.parameters(), lr=0.05)
sched = StepLR(opt, step_size=2, gamma=0.1)
for epoch in range(5):
    opt.step()
    sched.step()
    print("StepLR", epoch, sched.get_last_lr())

opt = optim.SGD([{"params": model.base.parameters()},
                 {"params": model.classifier.parameters()}], lr=0.1)
sched = LambdaLR(opt, lr_lambda=[lambda e: e // 2, lambda e: 0.95 ** e])
for epoch in range(4):
    opt.step()
    sched.step()
    print("LambdaLR", epoch, sched.get_last_lr())

opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
plateau = ReduceLROnPlateau(opt, "min", patience=1)
for epoch, val_loss in enumerate([1.0, 0.9, 0.95, 0.97, 0.99, 0.5]):
    opt.step()
    plateau.step(val_loss)
    print("Plateau", epoch, opt.param_groups[0]["lr"])

opt = optim.Adam(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
print("Adam", loss.item())
opt.param_groups[0]["lr"] = 0.001
print(opt.param_groups[0]["lr"], opt.param_groups[0]["betas"], len(opt.state))
print(sorted(opt.state[model.classifier.weight].keys()))
