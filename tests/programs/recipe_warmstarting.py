# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe
# "Warmstarting model using parameters from a different model", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/warmstarting_model_using_parameters_from_a_different_model.py
# Like the original: two LeNet-style networks, netA and netB (netB's layers named so only
# some keys match), netA's state_dict saved with torch.save, loaded into netB with
# load_state_dict(..., strict=False), which ignores the non-matching keys.
# Differences: our own code; the file is an io.BytesIO; the _IncompatibleKeys result and
# which parameters now equal netA's are printed; the strict load's error is printed; seeded.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.classifier = nn.Linear(84, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.classifier(x)


netA = NetA()
netB = NetB()
print(netB)

path = io.BytesIO()
torch.save(netA.state_dict(), path)
path.seek(0)
state = torch.load(path, weights_only=True)
try:
    netB.load_state_dict(state)
except RuntimeError as e:
    print(type(e).__name__, e)
result = netB.load_state_dict(state, strict=False)
print(result)
print(result.missing_keys)
print(result.unexpected_keys)
for name, p in netB.named_parameters():
    same = name in state and torch.equal(p, state[name])
    print(f"{name:20s} {str(tuple(p.shape)):16s} copied={same}")
out = netB(torch.randn(2, 3, 32, 32))
print(out.shape, out.grad_fn)
