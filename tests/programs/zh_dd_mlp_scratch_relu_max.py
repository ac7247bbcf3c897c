# Corpus program, written for gradsh (no code copied). Modelled on the Chinese "Dive into Deep
# Learning (PyTorch)" by ShusenTang, section 3.9 多层感知机的从零开始实现 and its d2lzh_pytorch
# helpers (Apache-2.0):
# https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/code/chapter03_DL-basics/3.9_mlp-scratch.ipynb
# https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/code/d2lzh_pytorch/utils.py
# Like the book: W1, b1, W2, b2 from np.random.normal and zeros with requires_grad_; relu written
# as torch.max(input=X, other=torch.tensor(0.0)); net reshaping X to (-1, 784);
# torch.nn.CrossEntropyLoss; train_ch3 (loss summed per batch, params' grads zeroed through
# .grad.data.zero_(), sgd with param.data -= lr * param.grad / batch_size, lr=100.0) and
# evaluate_accuracy (with its net.__code__.co_varnames check), printing 'epoch %d, loss %.4f,
# train acc %.3f, test acc %.3f'; load_data_fashion_mnist's loaders use num_workers=4.
# Differences: our own code; seeded; Fashion-MNIST replaced by 256 training and 128 test
# random 1x28x28 images with random labels (no download); two epochs instead of five; the
# iterator's type and a first test batch are printed.
import numpy as np
import torch
import torch.utils.data

torch.manual_seed(0)
np.random.seed(0)


def load_data_fashion_mnist(batch_size, n_train=256, n_test=128):
    g = torch.Generator().manual_seed(1)
    train = torch.utils.data.TensorDataset(torch.rand(n_train, 1, 28, 28, generator=g),
                                           torch.randint(0, 10, (n_train,), generator=g))
    test = torch.utils.data.TensorDataset(torch.rand(n_test, 1, 28, 28, generator=g),
                                          torch.randint(0, 10, (n_test,), generator=g))
    train_iter = torch.utils.data.DataLoader(train, batch_size=batch_size, shuffle=True,
                                             num_workers=4)
    test_iter = torch.utils.data.DataLoader(test, batch_size=batch_size, shuffle=False,
                                            num_workers=4)
    return train_iter, test_iter


batch_size = 256
train_iter, test_iter = load_data_fashion_mnist(batch_size)

num_inputs, num_outputs, num_hiddens = 784, 10, 256
W1 = torch.tensor(np.random.normal(0, 0.01, (num_inputs, num_hiddens)), dtype=torch.float)
b1 = torch.zeros(num_hiddens, dtype=torch.float)
W2 = torch.tensor(np.random.normal(0, 0.01, (num_hiddens, num_outputs)), dtype=torch.float)
b2 = torch.zeros(num_outputs, dtype=torch.float)
params = [W1, b1, W2, b2]
for param in params:
    param.requires_grad_(requires_grad=True)


def relu(X):
    return torch.max(input=X, other=torch.tensor(0.0))


print(relu(torch.tensor([[-1.5, 0.0], [2.0, -0.25]])))


def net(X):
    X = X.view((-1, num_inputs))
    H = relu(torch.matmul(X, W1) + b1)
    return torch.matmul(H, W2) + b2


loss = torch.nn.CrossEntropyLoss()


def sgd(params, lr, batch_size):
    for param in params:
        param.data -= lr * param.grad / batch_size


def evaluate_accuracy(data_iter, net):
    acc_sum, n = 0.0, 0
    with torch.no_grad():
        for X, y in data_iter:
            if "is_training" in net.__code__.co_varnames:
                acc_sum += (net(X, is_training=False).argmax(dim=1) == y).float().sum().item()
            else:
                acc_sum += (net(X).argmax(dim=1) == y).float().sum().item()
            n += y.shape[0]
    return acc_sum / n


def train_ch3(net, train_iter, test_iter, loss, num_epochs, batch_size, params, lr):
    for epoch in range(num_epochs):
        train_l_sum, train_acc_sum, n = 0.0, 0.0, 0
        for X, y in train_iter:
            y_hat = net(X)
            l = loss(y_hat, y).sum()
            if params[0].grad is not None:
                for param in params:
                    param.grad.data.zero_()
            l.backward()
            sgd(params, lr, batch_size)
            train_l_sum += l.item()
            train_acc_sum += (y_hat.argmax(dim=1) == y).sum().item()
            n += y.shape[0]
        test_acc = evaluate_accuracy(test_iter, net)
        print("epoch %d, loss %.4f, train acc %.3f, test acc %.3f"
              % (epoch + 1, train_l_sum / n, train_acc_sum / n, test_acc))


num_epochs, lr = 2, 100.0
train_ch3(net, train_iter, test_iter, loss, num_epochs, batch_size, params, lr)

it = iter(test_iter)
print(type(it).__name__, len(it))
X, y = next(it)
print(X.shape, y[:10])
print(net(X).argmax(dim=1)[:10])
