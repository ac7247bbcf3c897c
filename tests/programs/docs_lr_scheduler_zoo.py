# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.optim.lr_scheduler, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/optim/lr_scheduler.py
# Like the docs: ConstantLR(factor=0.5, total_iters=4), LinearLR(start_factor=0.5,
# total_iters=4), MultiplicativeLR with lambda 0.95, PolynomialLR(total_iters=4, power=1.0),
# CosineAnnealingLR(T_max), SequentialLR of ConstantLR then ExponentialLR with milestones=[2],
# ChainedScheduler of ConstantLR and ExponentialLR, OneCycleLR(max_lr=0.01, steps_per_epoch,
# epochs) stepped per batch, each followed through its epochs with get_last_lr(); a
# scheduler's state_dict().
# Differences: our own code; an SGD on one parameter stands in for the training; the lr of
# each epoch is printed rather than used; the learning rates are the docs' ones.
import torch
from torch.optim import SGD
from torch.optim import lr_scheduler as S

p = torch.nn.Parameter(torch.zeros(2))


def follow(name, make, epochs=8, lr=0.05, **opt_kw):
    opt = SGD([p], lr=lr, **opt_kw)
    sched = make(opt)
    lrs = []
    for _ in range(epochs):
        opt.step()
        lrs.append(round(sched.get_last_lr()[0], 8))
        sched.step()
    print(f"{name:18s}", lrs)
    return sched


follow("ConstantLR", lambda o: S.ConstantLR(o, factor=0.5, total_iters=4))
follow("LinearLR", lambda o: S.LinearLR(o, start_factor=0.5, total_iters=4))
follow("MultiplicativeLR", lambda o: S.MultiplicativeLR(o, lr_lambda=lambda epoch: 0.95))
follow("PolynomialLR", lambda o: S.PolynomialLR(o, total_iters=4, power=1.0), lr=0.001)
follow("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.001), epochs=10)
follow("SequentialLR", lambda o: S.SequentialLR(
    o, schedulers=[S.ConstantLR(o, factor=0.1, total_iters=2),
                   S.ExponentialLR(o, gamma=0.9)], milestones=[2]), lr=1.0)
follow("ChainedScheduler", lambda o: S.ChainedScheduler(
    [S.ConstantLR(o, factor=0.1, total_iters=2), S.ExponentialLR(o, gamma=0.9)]), lr=1.0)
sched = follow("StepLR", lambda o: S.StepLR(o, step_size=3, gamma=0.1))
print(sched.state_dict())
print(type(sched).__name__, sched.last_epoch, sched.base_lrs)

opt = SGD([p], lr=0.1, momentum=0.9)
steps_per_epoch, epochs = 5, 3
sched = S.OneCycleLR(opt, max_lr=0.01, steps_per_epoch=steps_per_epoch, epochs=epochs)
rows = []
for epoch in range(epochs):
    for batch in range(steps_per_epoch):
        opt.step()
        sched.step()
        rows.append((round(opt.param_groups[0]["lr"], 7), round(opt.param_groups[0]["momentum"], 5)))
print(rows)

opt = SGD([p], lr=0.1)
sched = S.LambdaLR(opt, lr_lambda=lambda epoch: 0.65 ** epoch)
for epoch in range(3):
    opt.step()
    sched.step()
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"], sched.get_last_lr())
try:
    S.StepLR(SGD([p], lr=0.1), step_size=2, last_epoch=3)
except KeyError as e:
    print("KeyError:", e)
