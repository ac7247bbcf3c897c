# Corpus program, written for gradsh (no code copied). Modelled on vinhkhuc's
# PyTorch-Mini-Tutorials: 0_multiply.py, 1_linear_regression.py, 3_neural_net.py and
# 5_convolutional_net.py:
# https://github.com/vinhkhuc/PyTorch-Mini-Tutorials
# Like the sources: IntTensor products as NumPy; Sequential models built by add_module;
# train() wrapping inputs in Variable(..., requires_grad=False), calling model.forward and
# loss.forward explicitly, zero_grad / backward / step and output.item(); predict() with
# output.data.numpy().argmax(axis=1); losses built with reduction='elementwise_mean' (the
# deprecated spelling of 'mean': a warning, then the mean); SGD(lr=0.01, momentum=0.9);
# "Epoch = %d, cost = %s" (the full float repr) and "Epoch %d, cost = %f, acc = %.2f%%";
# "w = %.2f" % w.numpy() on a 1x1 array (NumPy 2's TypeError, caught); the ConvNet of two Sequentials (conv, maxpool, relu,
# dropout; fc) and x.view(-1, 320).
# Differences: synthetic "MNIST" (seeded: 10 classes of noisy prototypes, 784 or 1x28x28
# features, 600 training / 200 test images) instead of data_util.load_mnist; 30 epochs of
# linear regression, 5 of the MLP and 2 of the ConvNet instead of 100 / 100 / 20.
import warnings

import numpy as np
import torch
from torch import optim
from torch.autograd import Variable

warnings.simplefilter("ignore")

a = torch.IntTensor([2, 3, 4])
b = torch.IntTensor([3, 4, 5])
m = a * b
print(m.numpy(), m.dtype, m.numpy().dtype)


def train(model, loss, optimizer, x_val, y_val):
    model.train()
    x = Variable(x_val, requires_grad=False)
    y = Variable(y_val, requires_grad=False)
    optimizer.zero_grad()
    fx = model.forward(x)
    if fx.shape[-1] == 1 and y.dim() == 1:
        fx = fx.squeeze()
    output = loss.forward(fx, y)
    output.backward()
    optimizer.step()
    return output.item()


def predict(model, x_val):
    model.eval()
    x = Variable(x_val, requires_grad=False)
    output = model.forward(x)
    return output.data.numpy().argmax(axis=1)


torch.manual_seed(42)
X = torch.linspace(-1, 1, 101)
Y = 2 * X + torch.randn(X.size()) * 0.33
model = torch.nn.Sequential()
model.add_module("linear", torch.nn.Linear(1, 1, bias=False))
loss = torch.nn.MSELoss(reduction='elementwise_mean')
print(loss, loss.reduction)
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
batch_size = 10
for i in range(30):
    cost = 0.
    num_batches = len(X) // batch_size
    for k in range(num_batches):
        start, end = k * batch_size, (k + 1) * batch_size
        cost += train(model, loss, optimizer, X[start:end].view(-1, 1), Y[start:end])
    if i % 5 == 4:
        print("Epoch = %d, cost = %s" % (i + 1, cost / num_batches))
w = next(model.parameters()).data
try:
    print("w = %.2f" % w.numpy())
except TypeError as e:  # NumPy 2 refuses a 1x1 array there
    print("TypeError:", e)
    print("w = %.2f" % w.item())

rng = np.random.RandomState(0)
prototypes = rng.rand(10, 784)


def make_mnist(n):
    labels = rng.randint(0, 10, n)
    images = np.clip(prototypes[labels] + rng.randn(n, 784) * 0.6, 0, 1)
    return images.astype(np.float32), labels


trX, trY = make_mnist(600)
teX, teY = make_mnist(200)
trX_t = torch.from_numpy(trX).float()
teX_t = torch.from_numpy(teX).float()
trY_t = torch.from_numpy(trY).long()
n_examples, n_features = trX_t.size()
n_classes = 10

torch.manual_seed(42)
model = torch.nn.Sequential()
model.add_module("linear_1", torch.nn.Linear(n_features, 512, bias=False))
model.add_module("sigmoid_1", torch.nn.Sigmoid())
model.add_module("linear_2", torch.nn.Linear(512, n_classes, bias=False))
loss = torch.nn.CrossEntropyLoss(reduction='elementwise_mean')
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
batch_size = 100
for i in range(5):
    cost = 0.
    num_batches = n_examples // batch_size
    for k in range(num_batches):
        start, end = k * batch_size, (k + 1) * batch_size
        cost += train(model, loss, optimizer, trX_t[start:end], trY_t[start:end])
    predY = predict(model, teX_t)
    print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost / num_batches, 100. * np.mean(predY == teY)))


class ConvNet(torch.nn.Module):
    def __init__(self, output_dim):
        super(ConvNet, self).__init__()
        self.conv = torch.nn.Sequential()
        self.conv.add_module("conv_1", torch.nn.Conv2d(1, 10, kernel_size=5))
        self.conv.add_module("maxpool_1", torch.nn.MaxPool2d(kernel_size=2))
        self.conv.add_module("relu_1", torch.nn.ReLU())
        self.conv.add_module("conv_2", torch.nn.Conv2d(10, 20, kernel_size=5))
        self.conv.add_module("dropout_2", torch.nn.Dropout())
        self.conv.add_module("maxpool_2", torch.nn.MaxPool2d(kernel_size=2))
        self.conv.add_module("relu_2", torch.nn.ReLU())
        self.fc = torch.nn.Sequential()
        self.fc.add_module("fc1", torch.nn.Linear(320, 50))
        self.fc.add_module("relu_3", torch.nn.ReLU())
        self.fc.add_module("dropout_3", torch.nn.Dropout())
        self.fc.add_module("fc2", torch.nn.Linear(50, output_dim))

    def forward(self, x):
        x = self.conv.forward(x)
        x = x.view(-1, 320)
        return self.fc.forward(x)


torch.manual_seed(42)
trX4 = trX_t.reshape(-1, 1, 28, 28)
teX4 = teX_t.reshape(-1, 1, 28, 28)
model = ConvNet(output_dim=n_classes)
print(model)
loss = torch.nn.CrossEntropyLoss(reduction='elementwise_mean')
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for i in range(2):
    cost = 0.
    num_batches = n_examples // batch_size
    for k in range(num_batches):
        start, end = k * batch_size, (k + 1) * batch_size
        cost += train(model, loss, optimizer, trX4[start:end], trY_t[start:end])
    predY = predict(model, teX4)
    print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost / num_batches, 100. * np.mean(predY == teY)))
