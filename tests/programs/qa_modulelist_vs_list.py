# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow question
# "When should I use nn.ModuleList and when should I use nn.Sequential?"
# (https://stackoverflow.com/questions/47544051) and the PyTorch forum thread "Module
# parameters not registered when stored in a list"
# (https://discuss.pytorch.org/t/when-should-i-use-nn-modulelist-and-when-should-i-use-nn-sequential/5463):
# layers kept in a plain Python list are invisible to model.parameters(), state_dict(), the
# optimizer, .to() and print(model); nn.ModuleList registers them; a plain tensor attribute
# is not a parameter, nn.Parameter is; register_buffer for state that is saved but not
# trained; nn.Sequential's OrderedDict form and indexing / slicing.
# Differences: our own code; seeded.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)


class WithList(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4) for _ in range(3)]
        self.scale = torch.ones(4)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x * self.scale


class WithModuleList(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.scale = nn.Parameter(torch.ones(4))
        self.register_buffer("steps", torch.tensor(0))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
        return x * self.scale


for cls in (WithList, WithModuleList):
    m = cls()
    print(cls.__name__, len(list(m.parameters())), list(m.state_dict().keys()))
    print(m)
try:
    torch.optim.SGD(WithList().parameters(), lr=0.1)
except ValueError as e:
    print("ValueError:", e)

m = WithList()
out = m(torch.randn(2, 4)).sum()
out.backward()
print(m.layers[0].weight.grad is not None, m.scale.grad, m.scale.requires_grad)

seq = nn.Sequential(OrderedDict([
    ("conv1", nn.Conv2d(1, 20, 5)),
    ("relu1", nn.ReLU()),
    ("conv2", nn.Conv2d(20, 64, 5)),
    ("relu2", nn.ReLU()),
]))
print(seq)
print(seq.conv2, seq[0], type(seq[1:]).__name__, len(seq[1:]))
print(seq[-1], list(seq._modules.keys()))
seq.append(nn.Flatten())
print(len(seq), seq[-1])
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml += nn.ModuleList([nn.Sigmoid()])
print(ml, ml[1:])
try:
    ml(torch.ones(1))
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    nn.ModuleList([torch.ones(1)])
except TypeError as e:
    print("TypeError:", e)
