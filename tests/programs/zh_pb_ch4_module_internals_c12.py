# Corpus program, written for gradsh (no code copied). Modelled on chenyuntc's pytorch-book
# (陈云《深度学习框架PyTorch：入门与实践》), Chapter 4, sections 4.4-4.6 (优化器, nn.Module深入分析,
# ResNet34 with ResidualBlock):
# https://github.com/chenyuntc/pytorch-book/blob/master/Chapter4/Chapter4.ipynb
# Like the chapter: SGD with per-group learning rates (weights vs biases selected by name,
# a special layer's parameters by id) printed as the optimizer's repr, lr decayed by hand in
# param_groups and printed again; an nn.Module with a Parameter attribute and a submodule:
# repr, _modules, _parameters (an OrderedDict of Parameters), named_parameters,
# named_modules, a BatchNorm1d's _buffers after one batch, Dropout in training and with
# training = False, eval() flags; a bare nn.Module given a Parameter, a plain list of modules
# (kept in __dict__, not _modules) and then an nn.ModuleList; getattr vs __getattr__ (an
# AttributeError for 'training' and 'attr1'); save / load of the state_dict and of the whole
# model; the chapter's ResidualBlock / ResNet34 built and run.
# Differences: a manual seed; the .pth files are in-memory buffers; the whole-model
# torch.load passes weights_only=False (PyTorch 2.6+ default refuses a pickled module);
# ResNet34 runs on a 1x3x32x32 input with 10 classes instead of 224x224 / 1000, and its repr is
# summarised by counting modules.
import io
from collections import OrderedDict

import torch as t
from torch import nn, optim
from torch.nn import functional as F

t.manual_seed(44)


class Linear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.w = nn.Parameter(t.randn(in_features, out_features))
        self.b = nn.Parameter(t.randn(out_features))

    def forward(self, x):
        x = x.mm(self.w)
        return x + self.b.expand_as(x)


class Perceptron(nn.Module):
    def __init__(self, in_features, hidden_features, out_features):
        super(Perceptron, self).__init__()
        self.layer1 = Linear(in_features, hidden_features)
        self.layer2 = Linear(hidden_features, out_features)

    def forward(self, x):
        x = self.layer1(x)
        x = t.sigmoid(x)
        return self.layer2(x)


net = Perceptron(3, 4, 1)
optimizer = optim.SGD(params=net.parameters(), lr=1)
optimizer.zero_grad()
input = t.randn(32, 3)
output = net(input)
output.backward(output)
optimizer.step()
print(net.layer2.b)

weight_params = [param for name, param in net.named_parameters() if name.endswith('.w')]
bias_params = [param for name, param in net.named_parameters() if name.endswith('.b')]
optimizer = optim.SGD([
    {'params': bias_params},
    {'params': weight_params, 'lr': 1e-2}
], lr=1e-5)
print(optimizer)

special_layers = nn.ModuleList([net.layer1])
special_layers_params = list(map(id, special_layers.parameters()))
base_params = [param for param in net.parameters() if id(param) not in special_layers_params]
optimizer = t.optim.SGD([
    {'params': base_params},
    {'params': special_layers.parameters(), 'lr': 0.01}
], lr=0.001)
print(optimizer)
old_lr = 0.1
optimizer1 = optim.SGD([
    {'params': bias_params},
    {'params': weight_params, 'lr': old_lr * 0.1}
], lr=1e-5)
print(optimizer1)
for param_group in optimizer.param_groups:
    param_group['lr'] *= 0.1
print(optimizer)
print(optim.Adam(net.parameters(), lr=3e-4, weight_decay=1e-5))


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.param1 = nn.Parameter(t.rand(3, 3))
        self.submodel1 = nn.Linear(3, 4)

    def forward(self, input):
        x = self.param1.mm(input)
        x = self.submodel1(x)
        return x


net = Net()
print(net)
print(net._modules)
print(net._parameters)
print(net.param1)
for name, param in net.named_parameters():
    print(name, param.size())
for name, submodel in net.named_modules():
    print(name, submodel)

bn = nn.BatchNorm1d(2)
input = t.rand(3, 2)
output = bn(input)
print(bn._buffers)
input = t.arange(0, 12).view(3, 4).float()
model = nn.Dropout()
print(model(input))
model.training = False
print(model(input))
print(net.training, net.submodel1.training)
net.eval()
print(net.training, net.submodel1.training)
print(list(net.named_modules()))

module = nn.Module()
module.param = nn.Parameter(t.ones(2, 2))
print(module._parameters)
submodule1 = nn.Linear(2, 2)
submodule2 = nn.Linear(2, 2)
module_list = [submodule1, submodule2]
module.submodules = module_list
print('_modules: ', module._modules)
print("__dict__['submodules']:", module.__dict__.get('submodules'))
module_list = nn.ModuleList(module_list)
module.submodules = module_list
print('ModuleList is instance of nn.Module: ', isinstance(module_list, nn.Module))
print('_modules: ', module._modules)
print("__dict__['submodules']:", module.__dict__.get('submodules'))
print(getattr(module, 'training'))
try:
    module.__getattr__('training')
except AttributeError as err:
    print('AttributeError:', err)
module.attr1 = 2
print(getattr(module, 'attr1'))
try:
    module.__getattr__('attr1')
except AttributeError as err:
    print('AttributeError:', err)
print(getattr(module, 'param'))
print(module)

buf = io.BytesIO()
t.save(net.state_dict(), buf)
buf.seek(0)
net2 = Net()
print(net2.load_state_dict(t.load(buf)))
print(t.equal(net2.param1, net.param1))
buf = io.BytesIO()
t.save(net, buf)
buf.seek(0)
net2 = t.load(buf, weights_only=False)
print(net2)
print(net2.training, t.equal(net2.submodel1.weight, net.submodel1.weight))
try:
    net2.load_state_dict({'param1': t.zeros(3, 3)})
except RuntimeError as err:
    print('RuntimeError:', err)
print(net2.load_state_dict({'param1': t.zeros(3, 3)}, strict=False))


class ResidualBlock(nn.Module):
    def __init__(self, inchannel, outchannel, stride=1, shortcut=None):
        super(ResidualBlock, self).__init__()
        self.left = nn.Sequential(
            nn.Conv2d(inchannel, outchannel, 3, stride, 1, bias=False),
            nn.BatchNorm2d(outchannel),
            nn.ReLU(inplace=True),
            nn.Conv2d(outchannel, outchannel, 3, 1, 1, bias=False),
            nn.BatchNorm2d(outchannel))
        self.right = shortcut

    def forward(self, x):
        out = self.left(x)
        residual = x if self.right is None else self.right(x)
        out += residual
        return F.relu(out)


class ResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super(ResNet, self).__init__()
        self.pre = nn.Sequential(
            nn.Conv2d(3, 64, 7, 2, 3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, 1)
        )
        self.layer1 = self._make_layer(64, 64, 3, 1, is_shortcut=False)
        self.layer2 = self._make_layer(64, 128, 4, 2)
        self.layer3 = self._make_layer(128, 256, 6, 2)
        self.layer4 = self._make_layer(256, 512, 3, 2)
        self.classifier = nn.Linear(512, num_classes)

    def _make_layer(self, inchannel, outchannel, block_num, stride, is_shortcut=True):
        if is_shortcut:
            shortcut = nn.Sequential(
                nn.Conv2d(inchannel, outchannel, 1, stride, bias=False),
                nn.BatchNorm2d(outchannel))
        else:
            shortcut = None
        layers = []
        layers.append(ResidualBlock(inchannel, outchannel, stride, shortcut))
        for i in range(1, block_num):
            layers.append(ResidualBlock(outchannel, outchannel))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.pre(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = F.avg_pool2d(x, x.shape[-1])
        x = x.view(x.size(0), -1)
        return self.classifier(x)


model = ResNet(num_classes=10)
print(len(list(model.modules())), sum(p.numel() for p in model.parameters()))
print(model.layer2[0])
model.eval()
input = t.randn(1, 3, 32, 32)
o = model(input)
print(o.shape)
print(o)
