# Corpus program, written for gradsh (no code copied). Modelled on ShusenTang's
# Dive-into-DL-PyTorch (《动手学深度学习》PyTorch版), sections 4.2 模型参数的访问、初始化和共享
# and 4.4 自定义层:
# https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/docs/chapter04_DL_computation/4.2_parameters.md
# https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/docs/chapter04_DL_computation/4.4_custom-layer.md
# Like the book: named_parameters of a Sequential (type of the generator, names, sizes, the
# Parameter class), a Module with a Parameter and a plain tensor attribute, weight_0's data
# and grad before/after backward, init.normal_/init.constant_, a custom init_weight_ (uniform
# then zeroing |w| < 5), param.data += 1, a Linear shared twice in a Sequential (ids equal,
# gradient doubled), CenteredLayer, ParameterList with append, ParameterDict with update and
# choice-dependent forward, the two nested in a Sequential and printed.
# Differences: seeded; MyListDense is the book's MyDense under the name its last example uses;
# the centred layer's mean is printed with a tolerance check as well as its value.
import torch
from torch import nn
from torch.nn import init

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
print(net)
X = torch.rand(2, 4)
Y = net(X).sum()

print(type(net.named_parameters()))
for name, param in net.named_parameters():
    print(name, param.size())
for name, param in net[0].named_parameters():
    print(name, param.size(), type(param))


class MyModel(nn.Module):
    def __init__(self, **kwargs):
        super(MyModel, self).__init__(**kwargs)
        self.weight1 = nn.Parameter(torch.rand(20, 20))
        self.weight2 = torch.rand(20, 20)

    def forward(self, x):
        pass


n = MyModel()
for name, param in n.named_parameters():
    print(name)
print(n, len(n.state_dict()))

weight_0 = list(net[0].parameters())[0]
print(weight_0.data)
print(weight_0.grad)
Y.backward()
print(weight_0.grad)

for name, param in net.named_parameters():
    if "weight" in name:
        init.normal_(param, mean=0, std=0.01)
        print(name, param.data)
for name, param in net.named_parameters():
    if "bias" in name:
        init.constant_(param, val=0)
        print(name, param.data)


def init_weight_(tensor):
    with torch.no_grad():
        tensor.uniform_(-10, 10)
        tensor *= (tensor.abs() >= 5).float()


for name, param in net.named_parameters():
    if "weight" in name:
        init_weight_(param)
        print(name, param.data)
for name, param in net.named_parameters():
    if "bias" in name:
        param.data += 1
        print(name, param.data)

linear = nn.Linear(1, 1, bias=False)
net = nn.Sequential(linear, linear)
print(net)
for name, param in net.named_parameters():
    init.constant_(param, val=3)
    print(name, param.data)
print(id(net[0]) == id(net[1]))
print(id(net[0].weight) == id(net[1].weight))
x = torch.ones(1, 1)
y = net(x).sum()
print(y)
y.backward()
print(net[0].weight.grad)


class CenteredLayer(nn.Module):
    def __init__(self, **kwargs):
        super(CenteredLayer, self).__init__(**kwargs)

    def forward(self, x):
        return x - x.mean()


layer = CenteredLayer()
print(layer(torch.tensor([1, 2, 3, 4, 5], dtype=torch.float)))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
y = net(torch.rand(4, 8))
print(y.mean().item(), abs(y.mean().item()) < 1e-6)
print(net)


class MyListDense(nn.Module):
    def __init__(self):
        super(MyListDense, self).__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.randn(4, 4)) for i in range(3)])
        self.params.append(nn.Parameter(torch.randn(4, 1)))

    def forward(self, x):
        for i in range(len(self.params)):
            x = torch.mm(x, self.params[i])
        return x


net = MyListDense()
print(net)


class MyDictDense(nn.Module):
    def __init__(self):
        super(MyDictDense, self).__init__()
        self.params = nn.ParameterDict({
            "linear1": nn.Parameter(torch.randn(4, 4)),
            "linear2": nn.Parameter(torch.randn(4, 1)),
        })
        self.params.update({"linear3": nn.Parameter(torch.randn(4, 2))})

    def forward(self, x, choice="linear1"):
        return torch.mm(x, self.params[choice])


net = MyDictDense()
print(net)
print(list(net.params.keys()))
for k, v in net.params.items():
    print(k, v.shape, v.requires_grad)
x = torch.ones(1, 4)
print(net(x, "linear1"))
print(net(x, "linear2"))
print(net(x, "linear3"))

net = nn.Sequential(MyDictDense(), MyListDense())
print(net)
print(net(x))
for name, p in net.named_parameters():
    print(name, tuple(p.shape))
