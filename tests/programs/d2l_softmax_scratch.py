# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 4.4 "Softmax Regression Implementation from Scratch", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_linear-classification/softmax-regression-scratch.md
# Like the book: X.sum(0, keepdim=True) and X.sum(1, keepdim=True); softmax as
# X.exp() / partition; X_prob rows summing to 1; W = torch.normal(0, 0.01, (784, 10),
# requires_grad=True) and b = zeros(10); net(X) = softmax(X.reshape((-1, 784)) @ W + b);
# cross_entropy picking y_hat[range(len(y_hat)), y] and taking -log; the [0.1, 0.3, 0.6] /
# [0.3, 0.2, 0.5] example; accuracy via argmax and type casting; an Accumulator; a train
# loop with updater = minibatch sgd (lr 0.1) over a few epochs printing loss and accuracies.
# Differences: our own code; no FashionMNIST download: 512 training and 256 test synthetic
# 28x28 "images" whose class shifts their pixel mean, so the model can learn; 3 epochs;
# seeded.
import torch
from torch.utils import data

torch.manual_seed(0)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


X = torch.rand((2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

num_inputs, num_outputs = 784, 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def fake_images(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.5 + labels.view(-1, 1, 1, 1) / 20
    return data.TensorDataset(images, labels)


train_iter = data.DataLoader(fake_images(512), batch_size=64, shuffle=True)
test_iter = data.DataLoader(fake_images(256), batch_size=64, shuffle=False)


def evaluate_accuracy(net, data_iter):
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


print(evaluate_accuracy(net, test_iter))


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def updater(batch_size):
    return sgd([W, b], 0.1, batch_size)


def train_epoch_ch3(net, train_iter, loss, updater):
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        l.sum().backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


for epoch in range(3):
    train_loss, train_acc = train_epoch_ch3(net, train_iter, cross_entropy, updater)
    test_acc = evaluate_accuracy(net, test_iter)
    print(f"epoch {epoch + 1}: loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}")

X, y = next(iter(test_iter))
print(net(X).argmax(axis=1)[:8], y[:8])
