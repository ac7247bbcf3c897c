# Corpus program modelled on the Stack Overflow question "How do I initialize weights in
# PyTorch?" (https://stackoverflow.com/questions/49433936) and its answers: a function passed to
# model.apply() that calls torch.nn.init.xavier_uniform_ on every nn.Linear weight and
# m.bias.data.fill_(0.01); the answer's comparison of uniform, normal and "general rule"
# (1/sqrt(n)) initialisations; the default init left by the constructor.
# Changed: a small model, a seed, a few weight statistics printed instead of the answer's
# training curves on MNIST. Written for gradsh.
import math

import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(net.apply(init_weights))
print(net[0].weight)
print(net[0].bias)
print(net[2].bias)


def weights_init_uniform_rule(m):
    classname = m.__class__.__name__
    if classname.find('Linear') != -1:
        n = m.in_features
        y = 1.0 / math.sqrt(n)
        m.weight.data.uniform_(-y, y)
        m.bias.data.fill_(0)


def weights_init_normal(m):
    classname = m.__class__.__name__
    if classname.find('Linear') != -1:
        y = m.in_features
        m.weight.data.normal_(0.0, 1 / math.sqrt(y))
        m.bias.data.fill_(0)


for fn in (weights_init_uniform_rule, weights_init_normal):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    model.apply(fn)
    w = model[0].weight
    print(fn.__name__, round(w.mean().item(), 4), round(w.std().item(), 4),
          round(w.abs().max().item(), 4))

torch.manual_seed(2)
layer = nn.Linear(5, 3)
print(layer.weight.abs().max().item() <= 1 / math.sqrt(5))
nn.init.kaiming_normal_(layer.weight, mode='fan_out', nonlinearity='relu')
print(layer.weight)
nn.init.constant_(layer.bias, 0.5)
nn.init.orthogonal_(layer.weight)
print(torch.allclose(layer.weight @ layer.weight.T, torch.eye(3), atol=1e-6))
print(layer.state_dict())
conv = nn.Conv2d(1, 2, 3)
nn.init.dirac_(conv.weight)
print(conv.weight)
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('tanh'))
