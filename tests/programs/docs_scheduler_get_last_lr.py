# Corpus program, written for gradsh (no code copied). Modelled on the torch.optim.lr_scheduler
# reference pages (MultiStepLR: https://docs.pytorch.org/docs/main/generated/torch.optim.lr_scheduler.MultiStepLR.html,
# ExponentialLR: https://docs.pytorch.org/docs/main/generated/torch.optim.lr_scheduler.ExponentialLR.html,
# LRScheduler.get_last_lr: https://docs.pytorch.org/docs/main/generated/torch.optim.lr_scheduler.LRScheduler.html):
# the "lr = 0.05 if epoch < 30 ..." milestones shrunk to a few epochs, get_last_lr() after
# each scheduler.step() (which must follow optimizer.step()), two param groups with their own
# lr, state_dict() of a scheduler and load_state_dict into a fresh one, and the warning torch
# gives when scheduler.step() comes before optimizer.step().
# Differences: our own code; tiny model; seeded; lrs rounded to 6 places.
import warnings

import torch
from torch.optim.lr_scheduler import (CosineAnnealingLR, ExponentialLR, LambdaLR, MultiStepLR,
                                      StepLR)

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)


def make_opt(lr=0.05):
    return torch.optim.SGD(model.parameters(), lr=lr)


optimizer = make_opt()
scheduler = MultiStepLR(optimizer, milestones=[3, 6], gamma=0.1)
for epoch in range(8):
    optimizer.zero_grad()
    model(torch.randn(4, 2)).sum().backward()
    optimizer.step()
    scheduler.step()
    print(epoch, [round(lr, 6) for lr in scheduler.get_last_lr()])
print(scheduler.last_epoch, scheduler.milestones)

optimizer = make_opt(0.1)
scheduler = ExponentialLR(optimizer, gamma=0.9)
lrs = []
for epoch in range(5):
    optimizer.step()
    lrs.append(round(scheduler.get_last_lr()[0], 6))
    scheduler.step()
print(lrs, round(optimizer.param_groups[0]["lr"], 6))

optimizer = torch.optim.SGD([{"params": [model.weight], "lr": 0.1},
                             {"params": [model.bias], "lr": 0.01}])
scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(5):
    optimizer.step()
    scheduler.step()
    print(epoch, [round(lr, 6) for lr in scheduler.get_last_lr()])
sd = scheduler.state_dict()
print(sorted(sd.keys()))
print(sd["step_size"], sd["gamma"], sd["last_epoch"], sd["base_lrs"])

optimizer = make_opt(1.0)
scheduler = LambdaLR(optimizer, lr_lambda=lambda e: 1 / (e + 1))
for _ in range(3):
    optimizer.step()
    scheduler.step()
print(round(scheduler.get_last_lr()[0], 6), scheduler.state_dict()["lr_lambdas"])

optimizer = make_opt(0.1)
scheduler = CosineAnnealingLR(optimizer, T_max=4, eta_min=0.0)
values = []
for _ in range(9):
    optimizer.step()
    scheduler.step()
    values.append(round(scheduler.get_last_lr()[0], 6))
print(values)
fresh = CosineAnnealingLR(make_opt(0.1), T_max=4)
fresh.load_state_dict(scheduler.state_dict())
print(fresh.last_epoch, [round(v, 6) for v in fresh.get_last_lr()])

optimizer = make_opt(0.1)
scheduler = StepLR(optimizer, step_size=1, gamma=0.5)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scheduler.step()
for w in caught:
    print(w.category.__name__, str(w.message)[:90])
print(round(scheduler.get_last_lr()[0], 6))
