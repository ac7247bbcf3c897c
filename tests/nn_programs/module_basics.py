"""Module registration, iteration, containers, modes and printing."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
        self.act = nn.Tanh()
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("count", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)
        self.note = "plain attribute"

    def forward(self, x):
        return self.act(self.fc(x)) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.b = self.a  # shared: listed once
        self.head = nn.Sequential(nn.Linear(3, 1), nn.Sigmoid())

    def forward(self, x):
        return self.head(self.b(self.a(x)[:, :2]))


net = Net()
print(net)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
print([n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print(len(list(net.modules(remove_duplicate=False))))
print(net.get_submodule("head.0"), net.get_parameter("a.fc.bias").shape)
print(type(net.a.scale).__name__, net.a.scale.is_leaf, net.a.scale.requires_grad)
print(net.a.note, "count" in net.a._buffers, "note" in net.a.__dict__)

# re-assignment rules
blk = Block()
blk.scale = None
print([n for n, _ in blk.named_parameters()])
for bad in (lambda: setattr(blk, "scale", torch.ones(3)),
            lambda: setattr(blk, "fc", 3),
            lambda: setattr(blk, "count", 5),
            lambda: blk.register_buffer("fc", torch.ones(1)),
            lambda: blk.register_parameter("a.b", None),
            lambda: blk.add_module("", nn.ReLU()),
            lambda: blk.register_parameter("p", nn.Parameter(torch.ones(2)) * 2),
            lambda: nn.Module.register_buffer(nn.Module.__new__(nn.Module), "x", None),
            lambda: blk.missing,
            lambda: net.get_submodule("head.5"),
            lambda: nn.Sequential(nn.ReLU())[3],
            lambda: nn.Module()(1)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
blk.fc = nn.Identity()
print(blk)
del blk.fc
print(hasattr(blk, "fc"), [n for n, _ in blk.named_children()])

# containers
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2), nn.ReLU())
print(len(seq), seq[-1], seq[1:3], type(seq[1:]).__name__)
del seq[1]
print(seq)
seq.append(nn.Tanh())
seq.insert(0, nn.Identity())
print(list(seq._modules), seq.pop(0))
print(seq + nn.Sequential(nn.ELU()))
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
ml.append(nn.ReLU())
ml.extend([nn.ReLU(), nn.ReLU()])
print(ml, len(ml), ml[-1], ml[1:2])
md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
md["c"] = nn.ELU()
print(md, list(md.keys()), "a" in md, md.pop("b"))
pl = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3, 2))])
pl.append(torch.full((1,), 2.0))
print(pl, len(pl), type(pl[0]).__name__)
pd = nn.ParameterDict({"w": torch.ones(2), "b": torch.zeros(1)})
pd["z"] = nn.Parameter(torch.ones(1))
print(pd, list(pd.keys()), [n for n, _ in pd.named_parameters()])

# modes, grads, casts
print(net.training, net.eval().training, net.head[0].training, net.train().head[1].training)
out = net(torch.randn(4, 2)).sum()
out.backward()
print(net.a.fc.weight.grad)
net.zero_grad(set_to_none=False)
print(net.a.fc.weight.grad, net.a.fc.weight.grad.requires_grad)
net.zero_grad()
print(net.a.fc.weight.grad)
net.requires_grad_(False)
print(all(not p.requires_grad for p in net.parameters()))
w = net.a.fc.weight
net.double()
print(w is net.a.fc.weight, w.dtype, net.a.count.dtype, net.a.fc.bias.dtype)
net.to(torch.float32)
print(w.dtype)
try:
    net.to(torch.int64)
except TypeError as e:
    print(e)
net.apply(lambda m: print(type(m).__name__))
print(nn.Linear(3, 3).extra_repr(), repr(nn.Conv2d(1, 2, (3, 1), stride=2, padding=(1, 0),
                                                   bias=False, groups=1, dilation=2)))
