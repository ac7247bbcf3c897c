# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe "Saving
# and loading multiple models in one file using PyTorch", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/saving_multiple_models_in_one_file.py
# Like the original: two instances of a LeNet-style Net, each with an optim.SGD(lr=0.001,
# momentum=0.9); one dictionary holding modelA_state_dict, modelB_state_dict,
# optimizerA_state_dict and optimizerB_state_dict saved with torch.save; fresh models and
# optimizers loading every entry; one model put in eval() and the other in train().
# Differences: our own code; the file is an io.BytesIO; one SGD step is taken first so the
# optimizers have momentum buffers to save, and the restored states are printed; seeded.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
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


netA = Net()
netB = Net()
optimizerA = optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)
print(optimizerA)

x = torch.randn(4, 3, 32, 32)
y = torch.tensor([0, 3, 9, 1])
for net, opt in ((netA, optimizerA), (netB, optimizerB)):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(f"{loss.item():.4f}")

PATH = io.BytesIO()
torch.save({
    "modelA_state_dict": netA.state_dict(),
    "modelB_state_dict": netB.state_dict(),
    "optimizerA_state_dict": optimizerA.state_dict(),
    "optimizerB_state_dict": optimizerB.state_dict(),
}, PATH)

modelA = Net()
modelB = Net()
optimModelA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimModelB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

PATH.seek(0)
checkpoint = torch.load(PATH, weights_only=True)
print(sorted(checkpoint))
print(modelA.load_state_dict(checkpoint["modelA_state_dict"]))
print(modelB.load_state_dict(checkpoint["modelB_state_dict"]))
optimModelA.load_state_dict(checkpoint["optimizerA_state_dict"])
optimModelB.load_state_dict(checkpoint["optimizerB_state_dict"])

modelA.eval()
modelB.train()
print(modelA.training, modelB.training)
saved = checkpoint["optimizerA_state_dict"]
print(saved["param_groups"])
print(sorted(saved["state"]), sorted(saved["state"][0]))
buf = optimModelA.state[modelA.conv1.weight]["momentum_buffer"]
print(buf.shape, torch.equal(buf, optimizerA.state[netA.conv1.weight]["momentum_buffer"]))
print(torch.equal(modelB.fc3.weight, netB.fc3.weight))
