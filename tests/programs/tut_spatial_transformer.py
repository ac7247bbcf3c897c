# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "Spatial
# Transformer Networks Tutorial", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/spatial_transformer_tutorial.py
# Like the original: the classifier (conv1 5x5 -> max_pool2d -> relu, conv2 with Dropout2d,
# fc1/fc2, F.dropout, log_softmax) behind a spatial transformer: a localization net (Conv2d 7x7,
# MaxPool2d, ReLU(True), Conv2d 5x5, MaxPool2d, ReLU(True)), fc_loc regressing the 2x3 affine
# matrix with its last layer's weight zeroed and its bias copied from the identity transform,
# F.affine_grid(theta, x.size()) and F.grid_sample; SGD(lr=0.01), nll_loss, the train log line
# and a no_grad test with the summed loss and accuracy; the transformed batch compared with the
# input (the tutorial plots it).
# Differences: our own code; synthetic 28x28 images (a bright bar at a class-dependent position,
# shifted at random) instead of MNIST; 64 training and 32 test images, 2 epochs, a seed.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cpu")


def make_split(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.2
    shifts = torch.randint(-2, 3, (n,))
    for k in range(n):
        row = 3 + 2 * int(labels[k]) + int(shifts[k])
        images[k, 0, row:row + 2, 4:24] = 1.0
    return TensorDataset((images - 0.1307) / 0.3081, labels)


train_loader = DataLoader(make_split(64), batch_size=16, shuffle=True)
test_loader = DataLoader(make_split(32), batch_size=16, shuffle=False)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)
        self.localization = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=7),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Conv2d(8, 10, kernel_size=5),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True)
        )
        self.fc_loc = nn.Sequential(
            nn.Linear(10 * 3 * 3, 32),
            nn.ReLU(True),
            nn.Linear(32, 3 * 2)
        )
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 10 * 3 * 3)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size())
        x = F.grid_sample(x, grid)
        return x

    def forward(self, x):
        x = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


model = Net().to(device)
optimizer = optim.SGD(model.parameters(), lr=0.01)


def train(epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
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
    with torch.no_grad():
        model.eval()
        test_loss = 0
        correct = 0
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, size_average=False).item()
            pred = output.max(1, keepdim=True)[1]
            correct += pred.eq(target.view_as(pred)).sum().item()
        test_loss /= len(test_loader.dataset)
        print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'
              .format(test_loss, correct, len(test_loader.dataset),
                      100. * correct / len(test_loader.dataset)))


for epoch in range(1, 3):
    train(epoch)
    test()

with torch.no_grad():
    data = next(iter(test_loader))[0][:4]
    transformed = model.stn(data)
    print(transformed.shape, '{:.5f}'.format((transformed - data).abs().mean().item()))
    xs = model.localization(data).view(-1, 90)
    print(model.fc_loc(xs).view(-1, 2, 3)[0])
theta = torch.tensor([[[0.8, -0.2, 0.1], [0.3, 1.1, -0.05]]], requires_grad=True)
img = torch.arange(16.).view(1, 1, 4, 4)
grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)
out = F.grid_sample(img, grid, align_corners=False)
print(grid)
print(out)
out.sum().backward()
print(theta.grad)
