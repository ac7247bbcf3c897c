# What programs print of torch's functions: configs that log the activation, registries keyed
# by function, `inspect` checks (gaps3: torch.relu printed as a Python function).
import copy
import inspect
import pickle

import torch
import torch.nn as nn
import torch.nn.functional as F

print(torch.relu, torch.add, torch.tensor)
print(F.relu, F.linear, F.conv2d, F.gelu, F.softmax)
print(torch.special.expit, torch.linalg.det, torch.fft.fft)
for f in (torch.relu, F.relu, F.linear, torch.linalg.norm, torch.split):
    print(f.__name__, f.__module__, f.__qualname__, type(f).__name__, f.__self__ if hasattr(f, "__self__") else "-",
          callable(f), inspect.isbuiltin(f), inspect.isfunction(f), inspect.isroutine(f))
acts = {torch.relu: "relu", torch.tanh: "tanh", torch.sigmoid: "sigmoid"}
print(acts[torch.tanh], len(acts), torch.relu == torch.tanh, F.conv2d is torch.conv2d)
print(sorted(acts.values()), str(torch.sigmoid).split(" at ")[0])
try:
    print(inspect.signature(torch.relu))
except ValueError as error:
    print(type(error).__name__, str(error).split(" at ")[0])


class Net(nn.Module):
    def __init__(self, act=torch.relu):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.act = act

    def forward(self, x):
        return self.act(self.fc(x))


net = Net()
print(copy.deepcopy(net).act is torch.relu, net.act.__name__)
print(pickle.loads(pickle.dumps(F.relu)) is F.relu)
print(f"activation: {net.act.__name__}", repr(torch.nn.functional.relu).startswith("<function relu at"))
