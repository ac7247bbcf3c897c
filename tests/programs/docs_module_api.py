# Corpus program, written for gradsh (no code copied). Modelled on the torch.nn.Module
# docstrings and the "Modules" note of the PyTorch docs, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/module.py
# https://github.com/pytorch/pytorch/blob/main/docs/source/notes/modules.rst
# Like the docs: a custom module with nn.Parameter attributes and a registered buffer
# (persistent and not), extra_repr, named_parameters / named_buffers / named_modules /
# children / modules, add_module and register_module, ModuleList (append, extend, insert,
# indexing), ModuleDict, ParameterList, ParameterDict, state_dict keys, requires_grad_(False)
# to freeze, train()/eval() propagating to children, zero_grad, to(dtype), get_submodule /
# get_parameter, and Module.apply for initialisation.
# Differences: our own code and module names; seeded.
import torch
from torch import nn

torch.manual_seed(0)


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, input):
        self.calls += 1
        return (input @ self.weight) + self.bias

    def extra_repr(self):
        return f"in={self.weight.shape[0]}, out={self.weight.shape[1]}"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = MyLinear(4, 3)
        self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(3)) for _ in range(2)])
        self.extra = nn.ParameterDict({"temp": nn.Parameter(torch.tensor(1.5))})
        self.add_module("act", nn.ReLU())

    def forward(self, x):
        x = self.act(self.l0(x))
        for block, scale in zip(self.blocks, self.scales):
            x = self.act(block(x)) * scale
        return self.heads["cls"](x) / self.extra["temp"], self.heads["reg"](x)


net = Net()
print(net)
print([name for name, _ in net.named_parameters()])
print([(name, tuple(b.shape)) for name, b in net.named_buffers()])
print(list(net.state_dict().keys()))
print([name for name, _ in net.named_modules()])
print([type(m).__name__ for m in net.children()])
print(sum(p.numel() for p in net.parameters()))

cls, reg = net(torch.randn(5, 4))
print(cls.shape, reg.shape, net.l0.calls)
(cls.sum() + reg.sum()).backward()
print(net.extra["temp"].grad is not None, net.scales[1].grad.shape)

net.blocks.append(nn.Linear(3, 3))
net.blocks.insert(0, nn.Identity())
net.blocks.extend([nn.Dropout(0.1)])
print(len(net.blocks), net.blocks[-1], net.blocks[0])
print(net.blocks)
print(net.heads.keys(), "reg" in net.heads, len(net.heads))
net.register_module("post", nn.LayerNorm(2))
print(net.get_submodule("heads.cls"), net.get_parameter("l0.bias").shape)

net.eval()
print(net.training, net.blocks[-1].training, net.heads["cls"].training)
net.train()
print(net.training, net.act.training)

net.l0.requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad][:3])
net.zero_grad()
print(net.extra["temp"].grad, net.blocks[1].weight.grad)

double = MyLinear(2, 2).to(torch.float64)
print(double.weight.dtype, double.calls.dtype)
print(double)


@torch.no_grad()
def init_weights(m):
    print(type(m).__name__)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)


nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)).apply(init_weights)
try:
    net.missing_layer
except AttributeError as e:
    print("AttributeError:", e)
try:
    net.register_buffer("l0", torch.zeros(1))
except KeyError as e:
    print("KeyError:", e)
try:
    net.l0.weight = torch.zeros(4, 3)
except TypeError as e:
    print("TypeError:", e)
