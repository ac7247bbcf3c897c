# Corpus program, written for gradsh (no code copied). Modelled on chenyuntc's pytorch-book
# (陈云《深度学习框架PyTorch：入门与实践》), Chapter 4 (神经网络工具箱 nn), sections 4.1-4.3:
# https://github.com/chenyuntc/pytorch-book/blob/master/Chapter4/Chapter4.ipynb
# Like the chapter (which imports torch as t): a hand-written Linear with nn.Parameter and
# expand_as, a Perceptron of two of them and its named_parameters; a sharpening 3x3 kernel put
# into Conv2d.weight.data; AvgPool2d on a randint (int64) map and its empty parameter list;
# Linear then BatchNorm1d with weight set to 4 and the batch mean / biased std; Dropout(0.5);
# ReLU(inplace=True); the three ways of building a Sequential and indexing them; ModuleList
# iterated by hand and a plain list attribute that is not registered; LSTM(4, 3) against an
# LSTMCell loop (allclose); Embedding and Embedding.from_pretrained; CrossEntropyLoss on
# scores; nn.Linear vs F.linear and nn.ReLU vs F.relu compared with ==; grid_sample upscaling
# with a linspace grid; init.xavier_normal_ against normal_ with the hand formula.
# Differences: the lena image is replaced by a synthetic 1x1x12x12 ramp (no file), its
# upscaling is to 16x16 and printed as a few values; printed values instead of PIL images.
import math
from collections import OrderedDict

import torch as t
from torch import nn
from torch.nn import functional as F
from torch.nn import init

t.manual_seed(4)


class Linear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.w = nn.Parameter(t.randn(in_features, out_features))
        self.b = nn.Parameter(t.randn(out_features))

    def forward(self, x):
        x = x.mm(self.w)
        return x + self.b.expand_as(x)


layer = Linear(4, 3)
input = t.randn(2, 4)
output = layer(input)
print(output)
for name, parameter in layer.named_parameters():
    print(name, parameter)


class Perceptron(nn.Module):
    def __init__(self, in_features, hidden_features, out_features):
        super(Perceptron, self).__init__()
        self.layer1 = Linear(in_features, hidden_features)
        self.layer2 = Linear(hidden_features, out_features)

    def forward(self, x):
        x = self.layer1(x)
        x = t.sigmoid(x)
        return self.layer2(x)


perceptron = Perceptron(3, 4, 1)
for name, param in perceptron.named_parameters():
    print(name, param.size())
print(perceptron)

lena = (t.arange(144).float().view(1, 1, 12, 12) % 13) / 12.0
print("Input Size:", lena.size())
kernel = t.ones(3, 3) / (-9.)
kernel[1][1] = 1
conv = nn.Conv2d(1, 1, (3, 3), 1, bias=False)
conv.weight.data = kernel.view(1, 1, 3, 3)
out = conv(lena)
print("Output Size:", out.size())
print(out.data.squeeze(0)[0, :2])

input = t.randint(10, (1, 1, 4, 4))
print(input)
pool = nn.AvgPool2d(2, 2)
print(pool(input))
print(list(pool.parameters()))
print(pool(lena).shape, pool)

input = t.randn(2, 3)
linear = nn.Linear(3, 4)
h = linear(input)
print(h)
bn = nn.BatchNorm1d(4)
bn.weight.data = t.ones(4) * 4
bn.bias.data = t.zeros(4)
bn_out = bn(h)
print(bn_out)
print(bn_out.mean(0), bn_out.std(0, unbiased=False))
dropout = nn.Dropout(0.5)
o = dropout(bn_out)
print(o)

relu = nn.ReLU(inplace=True)
input = t.randn(2, 3)
print(input)
output = relu(input)
print(output)
print(output is input, relu)

net1 = nn.Sequential()
net1.add_module('conv', nn.Conv2d(3, 3, 3))
net1.add_module('batchnorm', nn.BatchNorm2d(3))
net1.add_module('activation_layer', nn.ReLU())
net2 = nn.Sequential(nn.Conv2d(3, 3, 3), nn.BatchNorm2d(3), nn.ReLU())
net3 = nn.Sequential(OrderedDict([
    ('conv1', nn.Conv2d(3, 3, 3)),
    ('bn1', nn.BatchNorm2d(3)),
    ('relu1', nn.ReLU())
]))
print('net1:', net1)
print('net2:', net2)
print('net3:', net3)
print((net1.conv, net2[0], net3.conv1))
input = t.rand(1, 3, 4, 4)
print(net1(input).shape, net2(input).sum().item() >= 0, net3(input).shape)
output = net3.relu1(net1.batchnorm(net1.conv(input)))
print(output.shape)

modellist = nn.ModuleList([nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)])
input = t.randn(1, 3)
for model in modellist:
    input = model(input)
print(input)
try:
    modellist(input)
except NotImplementedError as err:
    print('NotImplementedError:', err)


class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.list = [nn.Linear(3, 4), nn.ReLU()]
        self.module_list = nn.ModuleList([nn.Conv2d(3, 3, 3), nn.ReLU()])

    def forward(self):
        pass


model = MyModule()
print(model)
for name, param in model.named_parameters():
    print(name, param.size())

t.manual_seed(2021)
input = t.randn(2, 3, 4).float()
lstm = nn.LSTM(4, 3, 1)
h0 = t.randn(1, 3, 3)
c0 = t.randn(1, 3, 3)
out1, hn = lstm(input, (h0, c0))
print(out1.shape, lstm)
t.manual_seed(2021)
input = t.randn(2, 3, 4).float()
lstm = nn.LSTMCell(4, 3)
hx = t.randn(3, 3)
cx = t.randn(3, 3)
out = []
for i_ in input:
    hx, cx = lstm(i_, (hx, cx))
    out.append(hx)
out2 = t.stack(out)
print(out2.shape, lstm)
print(out1.allclose(out2))

embedding = nn.Embedding(4, 5)
weight = t.arange(0, 20).view(4, 5).float()
print(nn.Embedding.from_pretrained(weight))
print(nn.Embedding.from_pretrained(weight).weight.requires_grad)
input = t.arange(3, 0, -1).long()
output = embedding(input)
print(output)

score = t.randn(3, 2)
label = t.Tensor([1, 0, 1]).long()
criterion = nn.CrossEntropyLoss()
loss = criterion(score, label)
print(loss)

input = t.randn(2, 3)
model = nn.Linear(3, 4)
output1 = model(input)
output2 = nn.functional.linear(input, model.weight, model.bias)
print(output1 == output2)
b = nn.functional.relu(input)
b2 = nn.ReLU()(input)
print(b == b2)

w = 16
h_out = t.linspace(-1, 1, w).view(-1, 1).repeat(1, w)
w_out = t.linspace(-1, 1, w).repeat(w, 1)
grid = t.cat((w_out.unsqueeze(2), h_out.unsqueeze(2)), dim=2)
grid = grid.unsqueeze(0)
print(grid.shape)
out = F.grid_sample(lena, grid=grid, mode='bilinear', align_corners=False)
print(out.shape)
print(out[0, 0, :2])
out = F.grid_sample(lena, grid=grid, mode='bilinear', align_corners=True)
print(out[0, 0, 5, :6])

linear = nn.Linear(3, 4)
t.manual_seed(2021)
print(init.xavier_normal_(linear.weight))
t.manual_seed(2021)
std = math.sqrt(2) / math.sqrt(7.)
print(linear.weight.data.normal_(0, std))
