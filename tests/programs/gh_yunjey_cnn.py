# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "02-intermediate/convolutional_neural_network" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/02-intermediate/convolutional_neural_network/main.py
# Like the original: ConvNet with two nn.Sequential layers (Conv2d(k=5, padding=2) ->
# BatchNorm2d -> ReLU -> MaxPool2d(2, 2)), out.reshape(out.size(0), -1) into one Linear,
# CrossEntropyLoss, Adam(lr=0.001), the per-step loss line, model.eval() before the no_grad
# test loop (batch norm switches to its running statistics), the accuracy line.
# Differences: our own code; synthetic 1x12x12 "images" whose class is the quadrant holding a
# bright square (4 classes) instead of MNIST; 8/16 channels, 240/80 samples, 2 epochs, a seed;
# the bn running statistics are printed at the end.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
num_epochs, num_classes, batch_size, learning_rate = 2, 4, 20, 0.001


def make_split(n):
    images = torch.rand(n, 1, 12, 12) * 0.3
    labels = torch.randint(0, num_classes, (n,))
    for k in range(n):
        r, c = divmod(int(labels[k]), 2)
        images[k, 0, r * 6 + 1:r * 6 + 5, c * 6 + 1:c * 6 + 5] += 0.7
    return TensorDataset(images, labels)


train_loader = DataLoader(make_split(240), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(make_split(80), batch_size=batch_size, shuffle=False)


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super(ConvNet, self).__init__()
        self.layer1 = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))
        self.layer2 = nn.Sequential(
            nn.Conv2d(8, 16, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))
        self.fc = nn.Linear(3 * 3 * 16, num_classes)

    def forward(self, x):
        out = self.layer1(x)
        out = self.layer2(out)
        out = out.reshape(out.size(0), -1)
        out = self.fc(out)
        return out


model = ConvNet(num_classes)
print(model)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 3 == 0:
            print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                  .format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print('Test Accuracy of the model on the {} test images: {} %'.format(total, 100 * correct / total))

bn = model.layer1[1]
print(bn.num_batches_tracked)
print(bn.running_mean)
print(bn.running_var)
