# Corpus program, written for gradsh (no code copied). Modelled on
# https://github.com/kuangliu/pytorch-cifar: models/resnet.py (BasicBlock: two 3x3 convs with
# BatchNorm2d, and a shortcut nn.Sequential of a 1x1 strided conv and a BatchNorm2d when the
# stride or the width changes; ResNet: make_layer with strides [stride] + [1] * (n - 1),
# F.avg_pool2d and a Linear head), models/googlenet.py (Inception: four branches, 1x1, 1x1 ->
# 3x3, 1x1 -> 3x3 -> 3x3 and MaxPool2d(3, stride=1, padding=1) -> 1x1, joined with torch.cat)
# and main.py's train()/test() (CrossEntropyLoss, SGD(lr=0.1, momentum=0.9, weight_decay=5e-4),
# CosineAnnealingLR(T_max=200), 'Loss: %.3f | Acc: %.3f%% (%d/%d)' progress lines).
# Differences: our own code; small widths, 16x16 random images in two batches of 4 instead of
# CIFAR-10, one epoch; seeded; the losses also printed in full.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != self.expansion * planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, self.expansion * planes, 1, stride=stride, bias=False),
                nn.BatchNorm2d(self.expansion * planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        return F.relu(out)


class Inception(nn.Module):
    def __init__(self, in_planes, n1x1, n3x3red, n3x3, n5x5red, n5x5, pool_planes):
        super().__init__()
        self.b1 = nn.Sequential(nn.Conv2d(in_planes, n1x1, 1), nn.BatchNorm2d(n1x1), nn.ReLU(True))
        self.b2 = nn.Sequential(
            nn.Conv2d(in_planes, n3x3red, 1), nn.BatchNorm2d(n3x3red), nn.ReLU(True),
            nn.Conv2d(n3x3red, n3x3, 3, padding=1), nn.BatchNorm2d(n3x3), nn.ReLU(True))
        self.b3 = nn.Sequential(
            nn.Conv2d(in_planes, n5x5red, 1), nn.BatchNorm2d(n5x5red), nn.ReLU(True),
            nn.Conv2d(n5x5red, n5x5, 3, padding=1), nn.BatchNorm2d(n5x5), nn.ReLU(True),
            nn.Conv2d(n5x5, n5x5, 3, padding=1), nn.BatchNorm2d(n5x5), nn.ReLU(True))
        self.b4 = nn.Sequential(
            nn.MaxPool2d(3, stride=1, padding=1),
            nn.Conv2d(in_planes, pool_planes, 1), nn.BatchNorm2d(pool_planes), nn.ReLU(True))

    def forward(self, x):
        return torch.cat([self.b1(x), self.b2(x), self.b3(x), self.b4(x)], 1)


class ResNet(nn.Module):
    def __init__(self, block, num_blocks, num_classes=10):
        super().__init__()
        self.in_planes = 16
        self.conv1 = nn.Conv2d(3, 16, 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.layer1 = self._make_layer(block, 16, num_blocks[0], stride=1)
        self.layer2 = self._make_layer(block, 32, num_blocks[1], stride=2)
        self.inception = Inception(32, 8, 8, 16, 4, 8, 8)
        self.linear = nn.Linear(40, num_classes)

    def _make_layer(self, block, planes, num_blocks, stride):
        layers = []
        for s in [stride] + [1] * (num_blocks - 1):
            layers.append(block(self.in_planes, planes, s))
            self.in_planes = planes * block.expansion
        return nn.Sequential(*layers)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer2(self.layer1(out))
        out = self.inception(out)
        out = F.avg_pool2d(out, 8)
        return self.linear(out.view(out.size(0), -1))


net = ResNet(BasicBlock, [1, 1])
print(net.layer2[0].shortcut)
print(sum(p.numel() for p in net.parameters()), "parameters")
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=200)
data = [(torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))) for _ in range(2)]


def train(epoch):
    print("\nEpoch: %d" % epoch)
    net.train()
    train_loss, correct, total = 0, 0, 0
    for batch_idx, (inputs, targets) in enumerate(data):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        _, predicted = outputs.max(1)
        total += targets.size(0)
        correct += predicted.eq(targets).sum().item()
        print(batch_idx, len(data), "Loss: %.3f | Acc: %.3f%% (%d/%d)"
              % (train_loss / (batch_idx + 1), 100. * correct / total, correct, total),
              repr(loss.item()))


def test(epoch):
    net.eval()
    test_loss = 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(data):
            outputs = net(inputs)
            loss = criterion(outputs, targets)
            test_loss += loss.item()
            print("test", batch_idx, repr(loss.item()), outputs.argmax(1).tolist())


for epoch in range(1):
    train(epoch)
    test(epoch)
    scheduler.step()
print(scheduler.get_last_lr())
print(net.layer2[0].shortcut[0].weight.grad.abs().sum().item())
print(net.inception.b4[1].weight.grad.abs().sum().item())
