# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 3.2 "Linear Regression Implementation from Scratch", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_linear-regression/linear-regression-scratch.md
# Like the book (first edition's layout): synthetic_data(w, b, n) drawing X with
# torch.normal(0, 1, ...) and noise with torch.normal(0, 0.01, ...), true_w = [2, -3.4] and
# true_b = 4.2, a data_iter generator shuffling indices with random.shuffle and yielding
# minibatches of 10, w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True) and
# b = zeros(1), linreg, squared_loss, an sgd updating params under torch.no_grad() and
# zeroing their grads, three epochs printing 'epoch {epoch + 1}, loss {float(l.mean()):f}',
# and the estimation errors of w and b.
# Differences: our own code; seeded (torch and random); the first minibatch is printed.
import random

import torch

torch.manual_seed(0)
random.seed(0)


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print("features:", features[0], "\nlabel:", labels[0])


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i:min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


batch_size = 10
for X, y in data_iter(batch_size, features, labels):
    print(X, "\n", y)
    break

w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")

print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
