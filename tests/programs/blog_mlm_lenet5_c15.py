# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Handwritten Digit Recognition with LeNet5 Model in PyTorch" (Adrian Tam, 2023):
# https://machinelearningmastery.com/handwritten-digit-recognition-with-lenet5-model-in-pytorch/
# Like the post: LeNet5 with Conv2d(1, 6, kernel_size=5, stride=1, padding=2), Tanh,
# AvgPool2d(kernel_size=2, stride=2), Conv2d(6, 16, 5), Tanh, AvgPool2d, Conv2d(16, 120, 5),
# Tanh, Flatten, Linear(120, 84), Tanh, Linear(84, 10); Adam and CrossEntropyLoss;
# DataLoader(shuffle=True, batch_size=100) for training; accuracy over the test loader as
# the sum of (argmax == y) over the count, printed "Epoch %d: model accuracy %.2f%%".
# Differences: synthetic 28x28 "digits" (10 random blurred stroke templates plus noise,
# 300 training / 100 test images) instead of torchvision's MNIST; 3 epochs instead of 10;
# a seed; the output shape of each layer printed once.
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

torch.manual_seed(42)

templates = (torch.rand(10, 1, 28, 28) > 0.85).float()
templates = F.avg_pool2d(templates, 3, stride=1, padding=1)


def make(n):
    y = torch.randint(0, 10, (n,))
    X = templates[y] + 0.3 * torch.randn(n, 1, 28, 28)
    return X, y


X_train, y_train = make(300)
X_test, y_test = make(100)
trainloader = torch.utils.data.DataLoader(list(zip(X_train, y_train)), shuffle=True, batch_size=100)
testloader = torch.utils.data.DataLoader(list(zip(X_test, y_test)), shuffle=True, batch_size=100)


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, kernel_size=5, stride=1, padding=2)
        self.act1 = nn.Tanh()
        self.pool1 = nn.AvgPool2d(kernel_size=2, stride=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5, stride=1, padding=0)
        self.act2 = nn.Tanh()
        self.pool2 = nn.AvgPool2d(kernel_size=2, stride=2)
        self.conv3 = nn.Conv2d(16, 120, kernel_size=5, stride=1, padding=0)
        self.act3 = nn.Tanh()
        self.flat = nn.Flatten()
        self.fc1 = nn.Linear(1 * 1 * 120, 84)
        self.act4 = nn.Tanh()
        self.fc2 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.act1(self.conv1(x))
        x = self.pool1(x)
        x = self.act2(self.conv2(x))
        x = self.pool2(x)
        x = self.act3(self.conv3(x))
        x = self.act4(self.fc1(self.flat(x)))
        x = self.fc2(x)
        return x


model = LeNet5()
print(model)
x = X_train[:2]
for name, layer in model.named_children():
    x = layer(x)
    print(f"{name:6s} {tuple(x.shape)}")

optimizer = optim.Adam(model.parameters())
loss_fn = nn.CrossEntropyLoss()

n_epochs = 3
for epoch in range(n_epochs):
    model.train()
    for X_batch, y_batch in trainloader:
        y_pred = model(X_batch)
        loss = loss_fn(y_pred, y_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    acc = 0
    count = 0
    for X_batch, y_batch in testloader:
        y_pred = model(X_batch)
        acc += (torch.argmax(y_pred, 1) == y_batch).float().sum()
        count += len(y_batch)
    acc = acc / count
    print("Epoch %d: model accuracy %.2f%% (last batch loss %.6f)" % (epoch, acc * 100, loss.item()))
print(model.conv1.weight.grad[0, 0])
