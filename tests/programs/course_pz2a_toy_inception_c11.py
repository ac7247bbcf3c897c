# Corpus program, written for gradsh (no code copied). Modelled on Sung Kim's "PyTorch Zero To
# All" 11_1_toy_inception_mnist.py:
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/11_1_toy_inception_mnist.py
# Like the original: an InceptionA block (1x1, 1x1 -> 5x5 pad 2, 1x1 -> 3x3 -> 3x3, and
# avg_pool2d(3, stride 1, pad 1) -> 1x1 branches concatenated on channels to 88), a Net of
# conv1(1, 10, 5) -> maxpool -> relu -> inception -> conv2(88, 20, 5) -> maxpool -> relu ->
# inception -> Linear(1408, 10) -> F.log_softmax with no dim; SGD(lr=0.01, momentum=0.5);
# train() printing "Train Epoch" lines and test() printing the summed nll_loss (reduction
# 'sum' for the removed size_average=False) and the accuracy via max(1, keepdim=True) and eq.
# Differences: synthetic 28x28 "images" (a seeded random batch whose label is a function of
# the mean of a quadrant) instead of MNIST: 64 training and 32 test images, batch 16, 2 epochs.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)

def make_images(n):
    x = torch.rand(n, 1, 28, 28)
    y = (x[:, 0, :14, :14].mean(dim=(1, 2)) * 40).long() % 10
    return x, y

train_loader = DataLoader(TensorDataset(*make_images(64)), batch_size=16, shuffle=True)
test_loader = DataLoader(TensorDataset(*make_images(32)), batch_size=16, shuffle=False)


class InceptionA(nn.Module):
    def __init__(self, in_channels):
        super(InceptionA, self).__init__()
        self.branch1x1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch5x5_1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch5x5_2 = nn.Conv2d(16, 24, kernel_size=5, padding=2)
        self.branch3x3dbl_1 = nn.Conv2d(in_channels, 16, kernel_size=1)
        self.branch3x3dbl_2 = nn.Conv2d(16, 24, kernel_size=3, padding=1)
        self.branch3x3dbl_3 = nn.Conv2d(24, 24, kernel_size=3, padding=1)
        self.branch_pool = nn.Conv2d(in_channels, 24, kernel_size=1)

    def forward(self, x):
        branch1x1 = self.branch1x1(x)
        branch5x5 = self.branch5x5_2(self.branch5x5_1(x))
        branch3x3dbl = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        branch_pool = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))
        return torch.cat([branch1x1, branch5x5, branch3x3dbl, branch_pool], 1)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(88, 20, kernel_size=5)
        self.incept1 = InceptionA(in_channels=10)
        self.incept2 = InceptionA(in_channels=20)
        self.mp = nn.MaxPool2d(2)
        self.fc = nn.Linear(1408, 10)

    def forward(self, x):
        in_size = x.size(0)
        x = F.relu(self.mp(self.conv1(x)))
        x = self.incept1(x)
        x = F.relu(self.mp(self.conv2(x)))
        x = self.incept2(x)
        x = x.view(in_size, -1)
        x = self.fc(x)
        return F.log_softmax(x)


model = Net()
print(model.incept1)
print(sum(p.numel() for p in model.parameters()))
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.5)


def train(epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))


def test():
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.data.max(1, keepdim=True)[1]
            correct += pred.eq(target.data.view_as(pred)).cpu().sum()
    test_loss /= len(test_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(test_loader.dataset),
        100. * correct / len(test_loader.dataset)))


for epoch in range(1, 3):
    train(epoch)
    test()
