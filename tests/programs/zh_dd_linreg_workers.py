# Corpus program, written for gradsh (no code copied). Modelled on the Chinese "Dive into Deep
# Learning (PyTorch)" by ShusenTang, section 3.3 线性回归的简洁实现 (Apache-2.0):
# https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/code/chapter03_DL-basics/3.3_linear-regression-pytorch.ipynb
# Like the book: features from np.random.normal, labels 2*x0 - 3.4*x1 + 4.2 plus noise;
# Data.TensorDataset in a Data.DataLoader(shuffle=True, num_workers=2) (the book's "多线程来读
# 数据"), the first batch printed; a LinearNet module, then nn.Sequential written three ways
# (layers, add_module, OrderedDict) and printed; init.normal_ / init.constant_; nn.MSELoss;
# optim.SGD(lr=0.03) printed; three epochs printing 'epoch %d, loss: %f'; true_w / true_b beside
# the learned weight and bias. Differences: our own code; seeded (torch, NumPy); its
# torch.set_default_tensor_type call (deprecated) is left out.
from collections import OrderedDict

import numpy as np
import torch
import torch.optim as optim
import torch.utils.data as Data
from torch import nn
from torch.nn import init

torch.manual_seed(1)
np.random.seed(0)

num_inputs, num_examples = 2, 1000
true_w, true_b = [2, -3.4], 4.2
features = torch.tensor(np.random.normal(0, 1, (num_examples, num_inputs)), dtype=torch.float)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.tensor(np.random.normal(0, 0.01, size=labels.size()), dtype=torch.float)

batch_size = 10
dataset = Data.TensorDataset(features, labels)
data_iter = Data.DataLoader(dataset=dataset, batch_size=batch_size, shuffle=True,
                            num_workers=2)
for X, y in data_iter:
    print(X, "\n", y)
    break
print(type(iter(data_iter)).__name__, len(data_iter))


class LinearNet(nn.Module):
    def __init__(self, n_feature):
        super(LinearNet, self).__init__()
        self.linear = nn.Linear(n_feature, 1)

    def forward(self, x):
        return self.linear(x)


print(LinearNet(num_inputs))
net = nn.Sequential(nn.Linear(num_inputs, 1))
print(net)
net = nn.Sequential()
net.add_module("linear", nn.Linear(num_inputs, 1))
print(net)
net = nn.Sequential(OrderedDict([("linear", nn.Linear(num_inputs, 1))]))
print(net)
print(net[0])
for param in net.parameters():
    print(param)

init.normal_(net[0].weight, mean=0.0, std=0.01)
init.constant_(net[0].bias, val=0.0)
for param in net.parameters():
    print(param)

loss = nn.MSELoss()
optimizer = optim.SGD(net.parameters(), lr=0.03)
print(optimizer)
for param_group in optimizer.param_groups:
    print(param_group["lr"])

num_epochs = 3
for epoch in range(1, num_epochs + 1):
    for X, y in data_iter:
        output = net(X)
        l = loss(output, y.view(-1, 1))
        optimizer.zero_grad()
        l.backward()
        optimizer.step()
    print("epoch %d, loss: %f" % (epoch, l.item()))

dense = net[0]
print(true_w, dense.weight)
print(true_b, dense.bias)
