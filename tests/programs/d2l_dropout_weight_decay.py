# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# sections 3.7 "Weight Decay" and 5.6 "Dropout", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_linear-regression/weight-decay.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_multilayer-perceptrons/dropout.md
# Like the book: high-dimensional linear regression (num_inputs 200, 20 training examples,
# y = 0.05 + sum(0.01 x) + noise); init_params with torch.normal(0, 1, (num_inputs, 1)),
# l2_penalty(w) = (w ** 2).sum() / 2, training with lambd = 0 and lambd = 3 and printing
# 'L2 norm of w:'; the concise version with optim.SGD([{"params": net.weight,
# "weight_decay": wd}, {"params": net.bias}]); dropout_layer(X, dropout) with the mask
# (torch.rand(X.shape) > dropout).float() * X / (1.0 - dropout), shown on
# torch.arange(16).reshape(2, 8) with 0, 0.5 and 1; nn.Dropout inside nn.Sequential in
# train and eval modes.
# Differences: our own code; 20 epochs instead of 100; seeded.
import torch
from torch import nn

torch.manual_seed(0)
n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


train_X, train_y = synthetic_data(true_w, true_b, n_train)
test_X, test_y = synthetic_data(true_w, true_b, n_test)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def train(lambd):
    w, b = init_params()
    lr = 0.003
    for epoch in range(20):
        for i in range(0, n_train, batch_size):
            X, y = train_X[i:i + batch_size], train_y[i:i + batch_size]
            l = squared_loss(linreg(X, w, b), y) + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= lr * param.grad / batch_size
                    param.grad.zero_()
    with torch.no_grad():
        test_l = squared_loss(linreg(test_X, w, b), test_y).mean()
    print(f"test loss {test_l.item():.4f}")
    print("L2 norm of w:", torch.norm(w).item())


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    trainer = torch.optim.SGD([{"params": net[0].weight, "weight_decay": wd},
                               {"params": net[0].bias}], lr=0.003)
    for epoch in range(20):
        for i in range(0, n_train, batch_size):
            X, y = train_X[i:i + batch_size], train_y[i:i + batch_size]
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print("L2 norm of w:", net[0].weight.norm().item())
    print(trainer.param_groups[0]["weight_decay"], trainer.param_groups[1]["weight_decay"])


train_concise(0)
train_concise(3)


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.0))

net = nn.Sequential(nn.Flatten(), nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.5),
                    nn.Linear(16, 4), nn.ReLU(), nn.Dropout(0.2), nn.Linear(4, 2))
print(net)
x = torch.rand(3, 8)
print(net(x))
net.eval()
print(net(x))
print(torch.equal(net(x), net(x)))
drop = nn.Dropout(p=0.5)
y = drop(torch.ones(10, requires_grad=True))
print(y, y.grad_fn)
