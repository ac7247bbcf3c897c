# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 11 (卷积神经网络 高级篇), whose code is copied in many CSDN and
# Zhihu notes (see https://bill-xing.com/2025/11/12/pytorch%E5%88%98%E4%BA%8C%E5%A4%A7%E4%BA%BA/6%E9%80%BB%E8%BE%91%E6%96%AF%E8%92%82%E5%9B%9E%E5%BD%92
# for the series): the InceptionA block (1x1 branch, 1x1 -> 5x5 branch, 1x1 -> 3x3 -> 3x3
# branch, avg_pool2d(kernel_size=3, stride=1, padding=1) -> 1x1 pool branch, torch.cat on
# dim=1 giving 88 channels), the Net with conv1 (1->10, k5), incep1, conv2 (88->20, k5),
# incep2, max pooling and fc(1408, 10); the ResidualBlock (two 3x3 convs with padding 1,
# F.relu(x + y)) and its Net (conv 1->16 k5, rblock, conv 16->32 k5, rblock, fc(512, 10));
# the train() loop printing '[%d, %5d] loss: %.3f' and test() printing accuracy.
# Differences: seeded random 28x28 "digits" (8 per batch, 4 batches) instead of MNIST; one
# epoch per network; the running loss is printed every 2 batches.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class InceptionA(nn.Module):
    def __init__(self, in_channels):
        super(InceptionA, self).__init__()
        self.branch1x1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch5x5_1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch5x5_2 = nn.Conv2d(16, 24, kernel_size=5, padding=2)
        self.branch3x3_1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch3x3_2 = nn.Conv2d(16, 24, kernel_size=3, padding=1)
        self.branch3x3_3 = nn.Conv2d(24, 24, kernel_size=3, padding=1)
        self.branch_pool = nn.Conv2d(in_channels, 24, kernel_size=1)

    def forward(self, x):
        branch1x1 = self.branch1x1(x)
        branch5x5 = self.branch5x5_2(self.branch5x5_1(x))
        branch3x3 = self.branch3x3_3(self.branch3x3_2(self.branch3x3_1(x)))
        branch_pool = F.avg_pool2d(x, kernel_size=3, stride=1, padding=1)
        branch_pool = self.branch_pool(branch_pool)
        outputs = [branch1x1, branch5x5, branch3x3, branch_pool]
        return torch.cat(outputs, dim=1)


class InceptionNet(nn.Module):
    def __init__(self):
        super(InceptionNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(88, 20, kernel_size=5)
        self.incep1 = InceptionA(in_channels=10)
        self.incep2 = InceptionA(in_channels=20)
        self.mp = nn.MaxPool2d(2)
        self.fc = nn.Linear(1408, 10)

    def forward(self, x):
        in_size = x.size(0)
        x = F.relu(self.mp(self.conv1(x)))
        x = self.incep1(x)
        x = F.relu(self.mp(self.conv2(x)))
        x = self.incep2(x)
        x = x.view(in_size, -1)
        return self.fc(x)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.channels = channels
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, x):
        y = F.relu(self.conv1(x))
        y = self.conv2(y)
        return F.relu(x + y)


class ResNet(nn.Module):
    def __init__(self):
        super(ResNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=5)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=5)
        self.mp = nn.MaxPool2d(2)
        self.rblock1 = ResidualBlock(16)
        self.rblock2 = ResidualBlock(32)
        self.fc = nn.Linear(512, 10)

    def forward(self, x):
        in_size = x.size(0)
        x = self.mp(F.relu(self.conv1(x)))
        x = self.rblock1(x)
        x = self.mp(F.relu(self.conv2(x)))
        x = self.rblock2(x)
        x = x.view(in_size, -1)
        return self.fc(x)


train_loader = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(4)]
test_loader = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(2)]
criterion = nn.CrossEntropyLoss()

block = InceptionA(10)
print(block(torch.randn(2, 10, 12, 12)).shape)
print(sum(p.numel() for p in block.parameters()))

for model in (InceptionNet(), ResNet()):
    print(type(model).__name__, sum(p.numel() for p in model.parameters()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)

    def train(epoch):
        running_loss = 0.0
        for batch_idx, data in enumerate(train_loader, 0):
            inputs, target = data
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, target)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if batch_idx % 2 == 1:
                print('[%d, %5d] loss: %.3f' % (epoch + 1, batch_idx + 1, running_loss / 2))
                running_loss = 0.0

    def test():
        correct = 0
        total = 0
        with torch.no_grad():
            for data in test_loader:
                images, labels = data
                outputs = model(images)
                _, predicted = torch.max(outputs.data, dim=1)
                total += labels.size(0)
                correct += (predicted == labels).sum().item()
        print('accuracy on test set: %d %% ' % (100 * correct / total))

    train(0)
    test()
    print(model.fc.bias.grad[:4])
