# Corpus program, written for gradsh (no code copied). Modelled on Udacity's
# deep-learning-v2-pytorch "intro-to-pytorch" notebooks, Part 2 (Neural Networks in PyTorch)
# and Part 3 (Training Neural Networks), solutions (MIT):
# https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/Part%202%20-%20Neural%20Networks%20in%20PyTorch%20(Solution).ipynb
# https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/Part%203%20-%20Training%20Neural%20Networks%20(Solution).ipynb
# Like the notebooks: `dataiter.next()` (the old iterator API: under current PyTorch an
# AttributeError, caught and printed here, then next(dataiter)), a sigmoid activation and a
# softmax written with torch.exp / torch.sum(...).view(-1, 1), Network classes printed, the
# weights printed (large tensors summarised with ...), fc1.bias.data.fill_(0) and
# weight.data.normal_(std=0.01), images.resize_(n, 1, pixels), nn.Sequential printed and
# indexed, an OrderedDict-named Sequential (model.fc1), CrossEntropyLoss on logits and NLLLoss
# on LogSoftmax, the y = x**2 autograd walk-through (grad_fn, x.grad None then x/2),
# 'Before/After backward pass' gradients, an SGD step printing the weights, and the training
# loop with `for ... else: print(f"Training loss: ...")`.
# Differences: our own code; 8x8 synthetic "digits" normalised like the notebook's
# Normalize((0.5,), (0.5,)) instead of MNIST; hidden sizes 32/16; 3 epochs; a seed.
from collections import OrderedDict

import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(7)
pixels = 64
labels_all = torch.randint(0, 10, (320,))
images_all = torch.rand(320, 1, 8, 8)
images_all[torch.arange(320), 0, labels_all % 8, :] += 1.0
images_all = (images_all.clamp(0, 1) - 0.5) / 0.5
trainset = torch.utils.data.TensorDataset(images_all, labels_all)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=64, shuffle=True)

dataiter = iter(trainloader)
try:
    images, labels = dataiter.next()
except AttributeError as e:
    print('AttributeError:', e)
    images, labels = next(dataiter)
print(type(images))
print(images.shape)
print(labels.shape)


def activation(x):
    return 1 / (1 + torch.exp(-x))


inputs = images.view(images.shape[0], -1)
w1 = torch.randn(pixels, 32)
b1 = torch.randn(32)
w2 = torch.randn(32, 10)
b2 = torch.randn(10)
h = activation(torch.mm(inputs, w1) + b1)
out = activation(torch.mm(h, w2) + b2)


def softmax(x):
    return torch.exp(x) / torch.sum(torch.exp(x), dim=1).view(-1, 1)


probabilities = softmax(out)
print(probabilities.shape)
print(probabilities.sum(dim=1))


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(pixels, 32)
        self.output = nn.Linear(32, 10)
        self.sigmoid = nn.Sigmoid()
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = self.hidden(x)
        x = self.sigmoid(x)
        x = self.output(x)
        return self.softmax(x)


print(Network())


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(pixels, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return F.softmax(self.fc3(x), dim=1)


model = Network()
print(model)
print(model.fc1.weight)
print(model.fc1.bias)
print(model.fc1.bias.data.fill_(0))
print(model.fc1.weight.data.normal_(std=0.01))

images, labels = next(iter(trainloader))
images.resize_(64, 1, pixels)
ps = model.forward(images[0, :])
print(ps, ps.shape)

input_size, hidden_sizes, output_size = pixels, [32, 16], 10
model = nn.Sequential(nn.Linear(input_size, hidden_sizes[0]), nn.ReLU(),
                      nn.Linear(hidden_sizes[0], hidden_sizes[1]), nn.ReLU(),
                      nn.Linear(hidden_sizes[1], output_size), nn.Softmax(dim=1))
print(model)
images, labels = next(iter(trainloader))
images.resize_(images.shape[0], 1, pixels)
print(model.forward(images[0, :]).argmax())
print(model[0])
print(model[0].weight)
model = nn.Sequential(OrderedDict([
    ('fc1', nn.Linear(input_size, hidden_sizes[0])),
    ('relu1', nn.ReLU()),
    ('fc2', nn.Linear(hidden_sizes[0], hidden_sizes[1])),
    ('relu2', nn.ReLU()),
    ('output', nn.Linear(hidden_sizes[1], output_size)),
    ('softmax', nn.Softmax(dim=1))]))
print(model)
print(model[0])
print(model.fc1)

model = nn.Sequential(nn.Linear(pixels, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 10))
criterion = nn.CrossEntropyLoss()
images, labels = next(iter(trainloader))
images = images.view(images.shape[0], -1)
logits = model(images)
print(criterion(logits, labels))
model = nn.Sequential(nn.Linear(pixels, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(),
                      nn.Linear(16, 10), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
logps = model(images)
loss = criterion(logps, labels)
print(loss)

x = torch.randn(2, 2, requires_grad=True)
print(x)
y = x ** 2
print(y)
print(y.grad_fn)
z = y.mean()
print(z)
print(x.grad)
z.backward()
print(x.grad)
print(x / 2)

print('Before backward pass: \n', model[0].weight.grad)
loss.backward()
print('After backward pass: \n', model[0].weight.grad)
optimizer = optim.SGD(model.parameters(), lr=0.01)
print('Initial weights - ', model[0].weight)
images, labels = next(iter(trainloader))
images.resize_(64, pixels)
optimizer.zero_grad()
output = model(images)
loss = criterion(output, labels)
loss.backward()
print('Gradient -', model[0].weight.grad)
optimizer.step()
print('Updated weights - ', model[0].weight)

model = nn.Sequential(nn.Linear(pixels, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(),
                      nn.Linear(16, 10), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.03)
epochs = 3
for e in range(epochs):
    running_loss = 0
    for images, labels in trainloader:
        images = images.view(images.shape[0], -1)
        optimizer.zero_grad()
        output = model(images)
        loss = criterion(output, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    else:
        print(f"Training loss: {running_loss/len(trainloader)}")

images, labels = next(iter(trainloader))
img = images[0].view(1, pixels)
with torch.no_grad():
    logps = model(img)
ps = torch.exp(logps)
print(ps)
