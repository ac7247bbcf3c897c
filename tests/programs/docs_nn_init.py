# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.nn.init, BSD-3-Clause: https://github.com/pytorch/pytorch/blob/main/torch/nn/init.py
# Like the docs: calculate_gain('leaky_relu', 0.2); uniform_, normal_, trunc_normal_,
# constant_, ones_, zeros_, eye_, dirac_ (a Conv2d-shaped weight), xavier_uniform_ with
# gain=calculate_gain('relu'), xavier_normal_, kaiming_uniform_ and kaiming_normal_
# (mode='fan_out', nonlinearity='relu'), orthogonal_ and sparse_ on torch.empty tensors; plus
# the usual "init_weights" function passed to model.apply.
# Differences: our own code and shapes; each initialised tensor is summarised (shape, mean,
# std or exact values) instead of only created; the errors for bad arguments are printed;
# seeded. Each call consumes random numbers in the same order as torch, so the printed
# values check the generators too.
import math

import torch
from torch import nn

torch.manual_seed(0)

print(nn.init.calculate_gain("leaky_relu", 0.2))
for name in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(name, nn.init.calculate_gain(name))
try:
    nn.init.calculate_gain("softmax")
except ValueError as e:
    print("ValueError:", e)


def summary(t):
    return f"{tuple(t.shape)} mean={t.mean().item():.4f} std={t.std().item():.4f}"


w = torch.empty(3, 5)
print(nn.init.uniform_(w))
print(nn.init.normal_(w))
print(nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5))
print(nn.init.constant_(w, 0.3))
print(nn.init.ones_(w))
print(nn.init.zeros_(w))
print(nn.init.eye_(w))
d = torch.empty(3, 16, 5, 5)
nn.init.dirac_(d)
print(d.sum().item(), d[1, 1, 2, 2].item(), d[0, 1].abs().sum().item())
g = torch.empty(4, 2, 3, 3)
nn.init.dirac_(g, 2)
print(g.sum().item(), torch.nonzero(g).tolist()[:4])

big = torch.empty(200, 300)
print(summary(nn.init.xavier_uniform_(big, gain=nn.init.calculate_gain("relu"))))
print(summary(nn.init.xavier_normal_(big)))
print(summary(nn.init.kaiming_uniform_(big, mode="fan_in", nonlinearity="relu")))
print(summary(nn.init.kaiming_normal_(big, mode="fan_out", nonlinearity="relu")))
print(summary(nn.init.kaiming_uniform_(big, a=math.sqrt(5))))
q = nn.init.orthogonal_(torch.empty(3, 5))
print(torch.allclose(q @ q.T, torch.eye(3), atol=1e-6))
s = nn.init.sparse_(torch.empty(10, 4), sparsity=0.3)
print((s == 0).sum(dim=0))

try:
    nn.init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.eye_(torch.empty(2, 2, 2))
except ValueError as e:
    print("ValueError:", e)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


model.apply(init_weights)
print(model[0].bias)
print(model[2].weight)
with torch.no_grad():
    nn.init.normal_(model[2].weight, mean=0.0, std=0.02)
print(model[2].weight.requires_grad, model[2].weight.grad_fn)
print(model[2].weight)
