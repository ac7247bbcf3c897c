# Corpus program, written for gradsh (no code copied). Modelled on the torch.optim
# documentation's algorithm list and "Per-parameter options", and the optimizers'
# docstrings (constructor arguments, add_param_group, state_dict, zero_grad(set_to_none)),
# BSD-3-Clause: https://github.com/pytorch/pytorch/blob/main/docs/source/optim.md
# https://github.com/pytorch/pytorch/tree/main/torch/optim
# Like the docs: each optimizer constructed from model.parameters() and printed (its repr
# lists every option of the param group), SGD with momentum and nesterov, Adam with amsgrad,
# AdamW, RMSprop, Adagrad, Adadelta; per-parameter groups through dicts, a group added later
# with add_param_group, and state_dict() after a step.
# Differences: our own code; every optimizer runs five steps on the same small regression
# problem and prints its final loss; the errors for bad arguments are printed; seeded.
import torch
from torch import nn, optim

torch.manual_seed(0)
X = torch.randn(32, 3)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3


def fresh():
    torch.manual_seed(1)
    return nn.Linear(3, 1)


makers = [
    ("SGD", lambda p: optim.SGD(p, lr=0.1)),
    ("SGD momentum", lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD wd", lambda p: optim.SGD(p, lr=0.1, momentum=0.5, dampening=0.1, weight_decay=1e-2)),
    ("Adam", lambda p: optim.Adam(p, lr=0.05)),
    ("Adam amsgrad", lambda p: optim.Adam(p, lr=0.05, betas=(0.8, 0.99), amsgrad=True)),
    ("AdamW", lambda p: optim.AdamW(p, lr=0.05, weight_decay=0.1)),
    ("RMSprop", lambda p: optim.RMSprop(p, lr=0.01, momentum=0.9, centered=True)),
    ("Adagrad", lambda p: optim.Adagrad(p, lr=0.5, lr_decay=0.01)),
    ("Adadelta", lambda p: optim.Adadelta(p, lr=1.0, rho=0.9)),
]
for name, make in makers:
    model = fresh()
    opt = make(model.parameters())
    for _ in range(5):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
    print(name, f"{loss.item():.5f}", sorted(opt.state[model.weight]))
print(opt)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[2].parameters(), "lr": 1e-3},
], lr=1e-2, momentum=0.9)
print(opt)
print([g["lr"] for g in opt.param_groups], len(opt.param_groups[0]["params"]))
extra = torch.zeros(2, requires_grad=True)
opt.add_param_group({"params": [extra], "lr": 0.5, "momentum": 0.0})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["nesterov"])
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)

loss = nn.functional.mse_loss(model(X), Y) + extra.pow(2).sum()
loss.backward()
opt.step()
sd = opt.state_dict()
print(sd["param_groups"])
print({k: sorted(v) for k, v in sd["state"].items()})
opt.zero_grad()
print(model[0].weight.grad)
opt.zero_grad(set_to_none=False)
print(model[0].weight.grad)

for bad in [lambda: optim.SGD(model.parameters(), lr=-0.1),
            lambda: optim.Adam(model.parameters(), betas=(1.5, 0.9)),
            lambda: optim.SGD(model.parameters(), lr=0.1, nesterov=True),
            lambda: optim.Adam([]),
            lambda: optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
