# Corpus program, written for gradsh (no code copied). Modelled on the 60-minute blitz
# "Neural Networks" tutorial (LeNet), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/blitz/neural_networks_tutorial.py
# Like the original: a LeNet-style nn.Module (Conv2d 1->6 5x5, Conv2d 6->16 5x5, F.relu,
# F.max_pool2d with a tuple and an int, torch.flatten, three Linear layers), print(net), the
# parameter count and conv1.weight's size, a forward on a random 1x1x32x32 input, backward
# with random gradients, nn.MSELoss against a random target, walking loss.grad_fn and
# next_functions, conv1.bias.grad before/after backward, and an optim.SGD step.
# Differences: our own code; seeded. grad_fn objects print an address (masked by the harness).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = LeNet()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())

image = torch.randn(1, 1, 32, 32)
out = net(image)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))

output = net(image)
target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])

net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad)

optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
loss = criterion(net(image), target)
loss.backward()
optimizer.step()
print(criterion(net(image), target))
