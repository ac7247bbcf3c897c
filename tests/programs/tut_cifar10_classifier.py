# Corpus program, written for gradsh (no code copied). Modelled on the 60-minute blitz
# "Training a Classifier" (CIFAR-10), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/blitz/cifar10_tutorial.py
# Like the original: a class-name tuple, DataLoader(batch_size=4, shuffle=True) for training
# and shuffle=False for testing, a Net with Conv2d(3, 6, 5), MaxPool2d(2, 2), Conv2d(6, 16, 5),
# three Linear layers and torch.flatten(x, 1); nn.CrossEntropyLoss and optim.SGD(lr=0.001,
# momentum=0.9); a loop over epochs and enumerate(trainloader, 0) printing the running loss
# every N mini-batches as '[%d, %5d] loss: %.3f'; 'Finished Training'; the predicted classes
# of one test batch via torch.max(outputs, 1); overall accuracy under no_grad with
# (predicted == labels).sum().item(); per-class accuracy with dicts and zip.
# Differences: our own code; no torchvision download: TensorDatasets of synthetic 3x32x32
# images in [-1, 1) and int64 labels from numpy.random.default_rng(0) (400 train, 80 test);
# 2 epochs, loss printed every 40 mini-batches; no image display, no saving to disk; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")


def fake_cifar(n):
    images = rng.random((n, 3, 32, 32), dtype=np.float32) * 2 - 1
    return TensorDataset(torch.from_numpy(images), torch.from_numpy(rng.integers(0, 10, n)))


trainloader = DataLoader(fake_cifar(400), batch_size=4, shuffle=True)
testloader = DataLoader(fake_cifar(80), batch_size=4, shuffle=False)


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
        x = torch.flatten(x, 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):
    running = 0.0
    for i, (inputs, labels) in enumerate(trainloader, 0):
        optimizer.zero_grad()
        loss = criterion(net(inputs), labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
        if i % 40 == 39:
            print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running / 40))
            running = 0.0
print("Finished Training")

images, labels = next(iter(testloader))
print("GroundTruth: ", " ".join(f"{classes[labels[j]]:5s}" for j in range(4)))
_, predicted = torch.max(net(images), 1)
print("Predicted: ", " ".join(f"{classes[predicted[j]]:5s}" for j in range(4)))

correct = total = 0
with torch.no_grad():
    for images, labels in testloader:
        _, predicted = torch.max(net(images).data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f"Accuracy of the network on the {total} test images: {100 * correct // total} %")

hits = {name: 0 for name in classes}
seen = {name: 0 for name in classes}
with torch.no_grad():
    for images, labels in testloader:
        _, preds = torch.max(net(images), 1)
        for label, pred in zip(labels, preds):
            seen[classes[label]] += 1
            if label == pred:
                hits[classes[label]] += 1
for name in classes:
    if seen[name]:
        print(f"Accuracy for class: {name:5s} is {100 * float(hits[name]) / seen[name]:.1f} %")
