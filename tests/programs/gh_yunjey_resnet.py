# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "02-intermediate/deep_residual_network" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/02-intermediate/deep_residual_network/main.py
# Like the original: conv3x3 helper (bias=False), ResidualBlock with BatchNorm2d, ReLU(inplace)
# and an optional downsample Sequential, `out += residual`, ResNet.make_layer with stride-2
# stages, AvgPool2d, out.view(out.size(0), -1) into a Linear, CrossEntropyLoss, Adam, the
# update_lr helper that writes param_group['lr'] (decay by 3), model.eval() and the accuracy.
# Differences: our own code; synthetic 3x8x8 images (class = which colour channel is
# brightest, 3 classes) instead of CIFAR-10; channels 4/8/16 and one block per stage,
# AvgPool2d(2), 96/48 samples, 3 epochs with the lr decayed every epoch, a seed; the
# parameter count is printed.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
num_epochs, batch_size, learning_rate = 3, 16, 0.01


def make_split(n):
    images = torch.rand(n, 3, 8, 8) * 0.6
    labels = torch.randint(0, 3, (n,))
    images[torch.arange(n), labels] += 0.4
    return TensorDataset(images, labels)


train_loader = DataLoader(make_split(96), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(make_split(48), batch_size=batch_size, shuffle=False)


def conv3x3(in_channels, out_channels, stride=1):
    return nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1,
                     bias=False)


class ResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride=1, downsample=None):
        super(ResidualBlock, self).__init__()
        self.conv1 = conv3x3(in_channels, out_channels, stride)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(out_channels, out_channels)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = downsample

    def forward(self, x):
        residual = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample:
            residual = self.downsample(x)
        out += residual
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, block, layers, num_classes=3):
        super(ResNet, self).__init__()
        self.in_channels = 4
        self.conv = conv3x3(3, 4)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = self.make_layer(block, 4, layers[0])
        self.layer2 = self.make_layer(block, 8, layers[1], 2)
        self.layer3 = self.make_layer(block, 16, layers[2], 2)
        self.avg_pool = nn.AvgPool2d(2)
        self.fc = nn.Linear(16, num_classes)

    def make_layer(self, block, out_channels, blocks, stride=1):
        downsample = None
        if (stride != 1) or (self.in_channels != out_channels):
            downsample = nn.Sequential(conv3x3(self.in_channels, out_channels, stride=stride),
                                       nn.BatchNorm2d(out_channels))
        layers = [block(self.in_channels, out_channels, stride, downsample)]
        self.in_channels = out_channels
        for _ in range(1, blocks):
            layers.append(block(out_channels, out_channels))
        return nn.Sequential(*layers)

    def forward(self, x):
        out = self.relu(self.bn(self.conv(x)))
        out = self.layer3(self.layer2(self.layer1(out)))
        out = self.avg_pool(out)
        out = out.view(out.size(0), -1)
        return self.fc(out)


model = ResNet(ResidualBlock, [1, 1, 1])
print(model.layer2)
print('parameters:', sum(p.numel() for p in model.parameters()))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


def update_lr(optimizer, lr):
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr


total_step = len(train_loader)
curr_lr = learning_rate
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 2 == 0:
            print("Epoch [{}/{}], Step [{}/{}] Loss: {:.4f}"
                  .format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))
    curr_lr /= 3
    update_lr(optimizer, curr_lr)
    print('lr now', optimizer.param_groups[0]['lr'])

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print('Accuracy of the model on the test images: {} %'.format(100 * correct / total))
