# Corpus program, written for gradsh (no code copied). Modelled on L1aoXingyu's
# code-of-learn-deep-learning-with-pytorch (廖星宇《深度学习入门之PyTorch》), chapter 3's optimizer
# notebooks (sgd, momentum, adagrad, rmsprop, adadelta, adam .ipynb):
# https://github.com/L1aoXingyu/code-of-learn-deep-learning-with-pytorch/tree/master/chapter3_NN/optimizer
# Like the notebooks: an MNIST-style data_tf (float32 / 255, (x - 0.5) / 0.5, flattened,
# torch.from_numpy), a DataLoader(batch_size=64, shuffle=True), nn.Sequential(Linear(784, 200),
# ReLU, Linear(200, 10)) with CrossEntropyLoss, each update rule written by hand on
# param.data / param.grad.data with state tensors updated through v[:] = ... (sgd_update,
# sgd_momentum, sgd_adagrad, rmsprop, adadelta, adam), then the matching torch.optim
# optimizer, printing 'epoch: {}, Train Loss: {:.6f}' per epoch.
# Differences: 384 synthetic uint8 "images" with labels from a fixed random projection instead
# of downloading MNIST; 2 epochs per optimizer instead of 5; a seed per run; no timing or
# plots; loss.data[0] (PyTorch 0.3) written loss.item(); the final parameters of each
# hand-written run and its torch.optim twin are compared.
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

rng = np.random.RandomState(0)
images = rng.randint(0, 256, size=(384, 28, 28)).astype(np.uint8)
projection = rng.randn(784, 10)
labels = (images.reshape(384, -1).astype(np.float64) @ projection).argmax(1)


def data_tf(x):
    x = np.array(x, dtype='float32') / 255
    x = (x - 0.5) / 0.5
    x = x.reshape((-1,))
    x = torch.from_numpy(x)
    return x


class FakeMNIST(Dataset):
    def __len__(self):
        return len(images)

    def __getitem__(self, i):
        return data_tf(images[i]), int(labels[i])


train_set = FakeMNIST()
criterion = nn.CrossEntropyLoss()


def sgd_update(parameters, lr):
    for param in parameters:
        param.data = param.data - lr * param.grad.data


def sgd_momentum(parameters, vs, lr, gamma):
    for param, v in zip(parameters, vs):
        v[:] = gamma * v + lr * param.grad.data
        param.data = param.data - v


def sgd_adagrad(parameters, sqrs, lr):
    eps = 1e-10
    for param, sqr in zip(parameters, sqrs):
        sqr[:] = sqr + param.grad.data ** 2
        div = lr / torch.sqrt(sqr + eps) * param.grad.data
        param.data = param.data - div


def rmsprop(parameters, sqrs, lr, alpha):
    eps = 1e-10
    for param, sqr in zip(parameters, sqrs):
        sqr[:] = alpha * sqr + (1 - alpha) * param.grad.data ** 2
        div = lr / torch.sqrt(sqr + eps) * param.grad.data
        param.data = param.data - div


def adadelta(parameters, sqrs, deltas, rho):
    eps = 1e-6
    for param, sqr, delta in zip(parameters, sqrs, deltas):
        sqr[:] = rho * sqr + (1 - rho) * param.grad.data ** 2
        cur_delta = torch.sqrt(delta + eps) / torch.sqrt(sqr + eps) * param.grad.data
        delta[:] = rho * delta + (1 - rho) * cur_delta ** 2
        param.data = param.data - cur_delta


def adam(parameters, vs, sqrs, lr, t, beta1=0.9, beta2=0.999):
    eps = 1e-8
    for param, v, sqr in zip(parameters, vs, sqrs):
        v[:] = beta1 * v + (1 - beta1) * param.grad.data
        sqr[:] = beta2 * sqr + (1 - beta2) * param.grad.data ** 2
        v_hat = v / (1 - beta1 ** t)
        s_hat = sqr / (1 - beta2 ** t)
        param.data = param.data - lr * v_hat / torch.sqrt(s_hat + eps)


def run(name, make_update, epochs=2):
    torch.manual_seed(1)
    train_data = DataLoader(train_set, batch_size=64, shuffle=True)
    net = nn.Sequential(nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 10))
    update = make_update(net)
    print(name)
    for e in range(epochs):
        train_loss = 0
        for im, label in train_data:
            out = net(im)
            loss = criterion(out, label)
            net.zero_grad()
            loss.backward()
            update()
            train_loss += loss.item()
        print('epoch: {}, Train Loss: {:.6f}'.format(e, train_loss / len(train_data)))
    return [p.detach().clone() for p in net.parameters()]


def zeros_for(net):
    return [torch.zeros_like(param.data) for param in net.parameters()]


def optim_step(optimizer_class, **kwargs):
    def make(net):
        optimizer = optimizer_class(net.parameters(), **kwargs)
        return optimizer.step
    return make


def by_hand_momentum(net):
    vs = zeros_for(net)
    return lambda: sgd_momentum(net.parameters(), vs, 1e-2, 0.9)


def by_hand_adagrad(net):
    sqrs = zeros_for(net)
    return lambda: sgd_adagrad(net.parameters(), sqrs, 1e-2)


def by_hand_rmsprop(net):
    sqrs = zeros_for(net)
    return lambda: rmsprop(net.parameters(), sqrs, 1e-3, 0.9)


def by_hand_adadelta(net):
    sqrs, deltas = zeros_for(net), zeros_for(net)
    return lambda: adadelta(net.parameters(), sqrs, deltas, 0.9)


def by_hand_adam(net):
    vs, sqrs = zeros_for(net), zeros_for(net)
    t = [0]

    def step():
        t[0] += 1
        adam(net.parameters(), vs, sqrs, 1e-3, t[0])
    return step


pairs = [
    ('sgd', lambda net: (lambda: sgd_update(net.parameters(), 1e-2)),
     optim_step(torch.optim.SGD, lr=1e-2)),
    ('momentum', by_hand_momentum, optim_step(torch.optim.SGD, lr=1e-2, momentum=0.9)),
    ('adagrad', by_hand_adagrad, optim_step(torch.optim.Adagrad, lr=1e-2)),
    ('rmsprop', by_hand_rmsprop, optim_step(torch.optim.RMSprop, lr=1e-3, alpha=0.9)),
    ('adadelta', by_hand_adadelta, optim_step(torch.optim.Adadelta, rho=0.9)),
    ('adam', by_hand_adam, optim_step(torch.optim.Adam, lr=1e-3)),
]
for name, by_hand, official in pairs:
    mine = run(name + ' (by hand)', by_hand)
    theirs = run(name + ' (torch.optim)', official)
    diff = max((a - b).abs().max().item() for a, b in zip(mine, theirs))
    print('max |by hand - torch.optim| = {:.3e}'.format(diff))
