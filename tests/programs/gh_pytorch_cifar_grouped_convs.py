# Corpus program, written for gradsh (no code copied). Modelled on the grouped-convolution
# models of https://github.com/kuangliu/pytorch-cifar: models/resnext.py (Block: a 1x1 conv to
# cardinality * bottleneck_width channels, a 3x3 conv with groups=cardinality, a 1x1 conv out,
# each with BatchNorm2d, and a 1x1 conv shortcut), models/shufflenet.py (ShuffleBlock:
# view(N, g, C // g, H, W).permute(0, 2, 1, 3, 4).reshape(N, C, H, W)) and models/mobilenet.py
# (Block: a depthwise 3x3 conv with groups=in_planes, then a pointwise 1x1 conv), trained with
# main.py's CrossEntropyLoss and SGD(momentum=0.9, weight_decay=5e-4) and evaluated with
# 'Loss: %.3f | Acc: %.3f%% (%d/%d)' lines.
# Differences: our own code; a tiny network of one block each on 8x8 random images, a few
# steps, 8 channels a group; seeded; the MobileNet block only in evaluation (forward), as
# gradsh does not yet give PyTorch's bits for a depthwise convolution's weight gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class ResNeXtBlock(nn.Module):
    expansion = 2

    def __init__(self, in_planes, cardinality=2, bottleneck_width=8, stride=1):
        super().__init__()
        group_width = cardinality * bottleneck_width
        self.conv1 = nn.Conv2d(in_planes, group_width, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(group_width)
        self.conv2 = nn.Conv2d(group_width, group_width, kernel_size=3, stride=stride,
                               padding=1, groups=cardinality, bias=False)
        self.bn2 = nn.BatchNorm2d(group_width)
        self.conv3 = nn.Conv2d(group_width, self.expansion * group_width, kernel_size=1,
                               bias=False)
        self.bn3 = nn.BatchNorm2d(self.expansion * group_width)
        self.shortcut = nn.Sequential(
            nn.Conv2d(in_planes, self.expansion * group_width, kernel_size=1, stride=stride,
                      bias=False),
            nn.BatchNorm2d(self.expansion * group_width))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return F.relu(out + self.shortcut(x))


class ShuffleBlock(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x):
        n, c, h, w = x.size()
        g = self.groups
        return x.view(n, g, c // g, h, w).permute(0, 2, 1, 3, 4).reshape(n, c, h, w)


class MobileBlock(nn.Module):
    def __init__(self, in_planes, out_planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, in_planes, kernel_size=3, stride=stride, padding=1,
                               groups=in_planes, bias=False)
        self.bn1 = nn.BatchNorm2d(in_planes)
        self.conv2 = nn.Conv2d(in_planes, out_planes, kernel_size=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_planes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)))


class Net(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 12, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(12)
        self.block = ResNeXtBlock(12, cardinality=2, bottleneck_width=8)
        self.shuffle = ShuffleBlock(groups=4)
        self.grouped = nn.Conv2d(32, 32, kernel_size=3, padding=1, groups=2)
        self.linear = nn.Linear(32, num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.shuffle(self.block(out))
        out = F.relu(self.grouped(out))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)


net = Net()
print(net.block.conv2)
print(net.grouped)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
inputs, targets = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))

net.train()
train_loss, correct, total = 0, 0, 0
for step in range(3):
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, targets)
    loss.backward()
    optimizer.step()
    train_loss += loss.item()
    _, predicted = outputs.max(1)
    total += targets.size(0)
    correct += predicted.eq(targets).sum().item()
    print(step, "Loss: %.3f | Acc: %.3f%% (%d/%d)"
          % (train_loss / (step + 1), 100. * correct / total, correct, total), repr(loss.item()))
print(net.block.conv2.weight.grad.abs().sum().item(), net.grouped.bias.grad.tolist()[:4])

x = torch.arange(2 * 8 * 1 * 1.).view(2, 8, 1, 1)
print(ShuffleBlock(groups=2)(x).flatten().tolist())

mobile = MobileBlock(16, 24, stride=2)
mobile.eval()
with torch.no_grad():
    features = torch.randn(4, 16, 8, 8)
    out = mobile(features)
    print(out.shape, out.sum().item(), out[0, 0].tolist()[:2])
    print(mobile.conv1(features)[1, 3].tolist()[0])
