# Corpus program, written for gradsh (no code copied). Modelled on "Weight Initialization in
# PyTorch" (https://www.binarystudy.com/2023/03/weight-initialization-in-pytorch.html: uniform_,
# normal_, xavier_uniform_ / xavier_normal_, kaiming_uniform_ / kaiming_normal_, applied to a
# layer and through model.apply) and the Udemy bootcamp notebook in
# https://github.com/jineoni/Udemy-neural-network-bootcamp (a Linear(5, 5) printed after each
# init: uniform_(a=0, b=3), normal_(0, 1), constant_ for biases), plus the CSDN note on
# kaiming_normal_'s std = sqrt(2 / ((1 + a^2) fan_in)) (https://blog.csdn.net/tangweirensheng/article/details/120658728)
# checked with calculate_gain, and orthogonal_ giving W W^T = I.
# Differences: our own code; seeded; statistics printed rounded.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(5, 5)
print(layer.weight)
nn.init.uniform_(layer.weight, a=0.0, b=3.0)
print(layer.weight)
nn.init.normal_(layer.weight, mean=0.0, std=1.0)
print(layer.weight)
nn.init.constant_(layer.bias, 0.1)
print(layer.bias)
nn.init.ones_(layer.weight)
nn.init.zeros_(layer.bias)
print(layer.weight.sum().item(), layer.bias.sum().item())
nn.init.eye_(layer.weight)
print(layer.weight.diag())

big = nn.Linear(400, 300)
nn.init.xavier_uniform_(big.weight)
bound = math.sqrt(6 / (400 + 300))
print(round(bound, 4), big.weight.abs().max().item() <= bound)
nn.init.xavier_normal_(big.weight, gain=nn.init.calculate_gain("tanh"))
print(round(nn.init.calculate_gain("tanh"), 4), round(big.weight.std().item(), 2))
nn.init.kaiming_normal_(big.weight, mode="fan_in", nonlinearity="relu")
print(round(big.weight.std().item(), 3), round(math.sqrt(2 / 400), 3))
nn.init.kaiming_normal_(big.weight, mode="fan_out", nonlinearity="relu")
print(round(big.weight.std().item(), 3), round(math.sqrt(2 / 300), 3))
nn.init.kaiming_uniform_(big.weight, a=math.sqrt(5))
print(round(big.weight.abs().max().item(), 3))
for name in ["linear", "sigmoid", "relu", "selu"]:
    print(name, round(nn.init.calculate_gain(name), 4))
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 4))

q = torch.empty(3, 5)
nn.init.orthogonal_(q)
print(torch.allclose(q @ q.t(), torch.eye(3), atol=1e-5))
t = torch.empty(4, 6)
nn.init.trunc_normal_(t, std=0.02, a=-0.04, b=0.04)
print(t.abs().max().item() <= 0.04)
s = torch.empty(10, 10)
nn.init.sparse_(s, sparsity=0.3)
print((s == 0).sum(dim=0))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
        print("init", m)


net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
net.apply(init_weights)
print(net[0].bias, net[2].bias)
try:
    nn.init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.calculate_gain("swish")
except ValueError as e:
    print("ValueError:", e)
