# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Building a Convolutional Neural Network in PyTorch" (Adrian Tam, 2023):
# https://machinelearningmastery.com/building-a-convolutional-neural-network-in-pytorch/
# Like the post: the CIFAR-10 model Conv2d(3, 32, 3, padding=1) -> ReLU -> Dropout(0.3) ->
# Conv2d(32, 32, 3, padding=1) -> ReLU -> MaxPool2d(2) -> Flatten -> Linear(8192, 512) ->
# ReLU -> Dropout(0.5) -> Linear(512, 10), written as a module with named layers
# (conv1/act1/drop1/conv2/act2/pool2/flat/fc3/act3/drop3/fc4); the input shape comments
# checked by printing the shape after each stage; SGD(lr=0.001, momentum=0.9) with
# CrossEntropyLoss; per-epoch test accuracy printed as "Epoch %d: model accuracy %.2f%%";
# the feature maps of the first convolution for one image (the post plots them).
# Differences: 48 synthetic 32x32 colour images in 3 batches of 16 (class-dependent
# colour means plus noise) instead of torchvision's CIFAR-10; 2 epochs instead of 20;
# a seed.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
colors = torch.rand(10, 3, 1, 1)
y_all = torch.randint(0, 10, (64,))
X_all = colors[y_all] + 0.5 * torch.randn(64, 3, 32, 32)
trainloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_all[:48], y_all[:48]),
                                          shuffle=True, batch_size=16)
testloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_all[48:], y_all[48:]),
                                         shuffle=True, batch_size=16)


class CIFAR10Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=(3, 3), stride=1, padding=1)
        self.act1 = nn.ReLU()
        self.drop1 = nn.Dropout(0.3)
        self.conv2 = nn.Conv2d(32, 32, kernel_size=(3, 3), stride=1, padding=1)
        self.act2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(kernel_size=(2, 2))
        self.flat = nn.Flatten()
        self.fc3 = nn.Linear(8192, 512)
        self.act3 = nn.ReLU()
        self.drop3 = nn.Dropout(0.5)
        self.fc4 = nn.Linear(512, 10)

    def forward(self, x, verbose=False):
        x = self.act1(self.conv1(x))
        x = self.drop1(x)
        x = self.act2(self.conv2(x))
        x = self.pool2(x)
        if verbose:
            print("after pool2:", x.shape)
        x = self.flat(x)
        x = self.act3(self.fc3(x))
        x = self.drop3(x)
        x = self.fc4(x)
        return x


model = CIFAR10Model()
print(model)
print(model(X_all[:1], verbose=True).shape)
loss_fn = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

n_epochs = 2
for epoch in range(n_epochs):
    model.train()
    for inputs, labels in trainloader:
        y_pred = model(inputs)
        loss = loss_fn(y_pred, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("batch loss %.6f" % loss.item())
    acc = 0
    count = 0
    model.eval()
    with torch.no_grad():
        for inputs, labels in testloader:
            y_pred = model(inputs)
            acc += (torch.argmax(y_pred, 1) == labels).float().sum()
            count += len(labels)
    acc /= count
    print("Epoch %d: model accuracy %.2f%%" % (epoch, acc * 100))

model.eval()
with torch.no_grad():
    feature_maps = model.act1(model.conv1(X_all[:1]))
print(feature_maps.shape, feature_maps[0, :4].mean(dim=(1, 2)))
print(model.fc3.weight[0, :5], model.fc4.bias)
