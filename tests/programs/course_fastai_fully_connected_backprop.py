# Corpus program, written for gradsh (no code copied). Modelled on fast.ai's course-v3 part 2
# ("from the foundations"), lesson notebook 02_fully_connected (Apache-2.0):
# https://github.com/fastai/course-v3/blob/master/nbs/dl2/02_fully_connected.ipynb
# Like the notebook: normalized inputs (normalize with the training mean and std, test_near
# on the statistics), a 2-layer MLP by hand (lin = x @ w + b, relu as clamp_min(0.) - 0.5),
# Kaiming init by hand (randn * sqrt(2 / m)) and with init.kaiming_normal_(mode='fan_out'),
# mean and std of the activations; mse with squeeze(-1); the backward pass written by hand,
# each gradient stored on the tensor itself (inp.g = ..., w.g, b.g: attributes the program
# sets on PyTorch tensors), w.g as a giant outer product summed; checked against autograd with
# test_near (torch.allclose) on clones made requires_grad_(True); then the same as classes
# (Lin, Relu, Mse, a Model calling backward in reverse), as a Module base class keeping its
# args and out, and Lin's weight gradient with torch.einsum("bi,bj->ij", ...); finally
# nn.Linear / nn.ReLU in an nn.Module with nn.MSELoss-style loss and loss.backward().
# Differences: our own code; a small synthetic data set instead of MNIST (200 x 64, hidden
# 16); the %timeit cells are left out; seeded.
import math
import operator

import torch
from torch import nn
from torch.nn import init

torch.manual_seed(0)


def test(a, b, cmp, cname=None):
    if cname is None:
        cname = cmp.__name__
    assert cmp(a, b), f"{cname}:\n{a}\n{b}"


def near(a, b):
    return torch.allclose(a, b, rtol=1e-3, atol=1e-5)


def test_near(a, b):
    test(a, b, near)


def test_eq(a, b):
    test(a, b, operator.eq, "==")


x_train = torch.rand(200, 64) * 3 + 1
y_train = (x_train[:, :8].sum(1) > 20).float() * 9
x_valid = torch.rand(40, 64) * 3 + 1
train_mean, train_std = x_train.mean(), x_train.std()
print(train_mean, train_std)


def normalize(x, m, s):
    return (x - m) / s


x_train = normalize(x_train, train_mean, train_std)
x_valid = normalize(x_valid, train_mean, train_std)
train_mean, train_std = x_train.mean(), x_train.std()
print(train_mean, train_std)
test_near(torch.tensor(0.), train_mean)
test_near(torch.tensor(1.), train_std)
n, m = x_train.shape
c = int(y_train.max()) + 1
nh = 16
print(n, m, c)

# simplified kaiming init / he init
w1 = torch.randn(m, nh) / math.sqrt(m)
b1 = torch.zeros(nh)
w2 = torch.randn(nh, 1) / math.sqrt(nh)
b2 = torch.zeros(1)
print(x_valid.mean(), x_valid.std())


def lin(x, w, b):
    return x @ w + b


t = lin(x_valid, w1, b1)
print(t.mean(), t.std())


def relu(x):
    return x.clamp_min(0.)


t = relu(lin(x_valid, w1, b1))
print(t.mean(), t.std())
w1 = torch.randn(m, nh) * math.sqrt(2 / m)
t = relu(lin(x_valid, w1, b1))
print(t.mean(), t.std())
w1 = torch.zeros(m, nh)
init.kaiming_normal_(w1, mode="fan_out")
t = relu(lin(x_valid, w1, b1))
print(w1.mean(), w1.std(), t.mean(), t.std())
print(torch.nn.Linear(m, nh).weight.shape)


def relu(x):  # noqa: F811  (the notebook's shifted relu)
    return x.clamp_min(0.) - 0.5


w1 = torch.randn(m, nh) * math.sqrt(2. / m)
t1 = relu(lin(x_valid, w1, b1))
print(t1.mean(), t1.std())


def model(xb):
    l1 = lin(xb, w1, b1)
    l2 = relu(l1)
    return lin(l2, w2, b2)


assert model(x_valid).shape == torch.Size([x_valid.shape[0], 1])


def mse(output, targ):
    return (output.squeeze(-1) - targ).pow(2).mean()


preds = model(x_train)
print(preds.shape, mse(preds, y_train))


# the backward pass by hand: each gradient kept on the tensor itself
def mse_grad(inp, targ):
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]


def relu_grad(inp, out):
    inp.g = (inp > 0).float() * out.g


def lin_grad(inp, out, w, b):
    inp.g = out.g @ w.t()
    w.g = (inp.unsqueeze(-1) * out.g.unsqueeze(1)).sum(0)
    b.g = out.g.sum(0)


def forward_and_backward(inp, targ):
    l1 = inp @ w1 + b1
    l2 = relu(l1)
    out = l2 @ w2 + b2
    loss = mse(out, targ)
    mse_grad(out, targ)
    lin_grad(l2, out, w2, b2)
    relu_grad(l1, l2)
    lin_grad(inp, l1, w1, b1)
    return loss


print(forward_and_backward(x_train, y_train))
w1g, w2g, b1g, b2g, ig = w1.g.clone(), w2.g.clone(), b1.g.clone(), b2.g.clone(), x_train.g.clone()
print(w2g.flatten()[:4], b2g, ig[0, :4])

xt2 = x_train.clone().requires_grad_(True)
w12 = w1.clone().requires_grad_(True)
w22 = w2.clone().requires_grad_(True)
b12 = b1.clone().requires_grad_(True)
b22 = b2.clone().requires_grad_(True)


def forward(inp, targ):
    l1 = inp @ w12 + b12
    l2 = relu(l1)
    out = l2 @ w22 + b22
    return mse(out, targ)


loss = forward(xt2, y_train)
loss.backward()
test_near(w22.grad, w2g)
test_near(b22.grad, b2g)
test_near(w12.grad, w1g)
test_near(b12.grad, b1g)
test_near(xt2.grad, ig)
print("autograd agrees:", (w12.grad - w1g).abs().max() < 1e-4, hasattr(xt2, "g"),
      sorted(vars(x_train)))
try:
    test_near(w12.grad, None)
except TypeError as error:
    print("TypeError:", error)


class Relu():
    def __call__(self, inp):
        self.inp = inp
        self.out = inp.clamp_min(0.) - 0.5
        return self.out

    def backward(self):
        self.inp.g = (self.inp > 0).float() * self.out.g


class Lin():
    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, inp):
        self.inp = inp
        self.out = inp @ self.w + self.b
        return self.out

    def backward(self):
        self.inp.g = self.out.g @ self.w.t()
        self.w.g = (self.inp.unsqueeze(-1) * self.out.g.unsqueeze(1)).sum(0)
        self.b.g = self.out.g.sum(0)


class Mse():
    def __call__(self, inp, targ):
        self.inp = inp
        self.targ = targ
        self.out = (inp.squeeze() - targ).pow(2).mean()
        return self.out

    def backward(self):
        self.inp.g = 2. * (self.inp.squeeze() - self.targ).unsqueeze(-1) / self.targ.shape[0]


class Model():
    def __init__(self, w1, b1, w2, b2):
        self.layers = [Lin(w1, b1), Relu(), Lin(w2, b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for layer in self.layers:
            x = layer(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for layer in reversed(self.layers):
            layer.backward()


w1.g, b1.g, w2.g, b2.g = [None] * 4
model = Model(w1, b1, w2, b2)
print(model(x_train, y_train))
model.backward()
test_near(w2g, w2.g)
test_near(b2g, b2.g)
test_near(w1g, w1.g)
test_near(b1g, b1.g)
test_near(ig, x_train.g)


class Module():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self):
        raise Exception("not implemented")

    def backward(self):
        self.bwd(self.out, *self.args)


class Relu(Module):  # noqa: F811
    def forward(self, inp):
        return inp.clamp_min(0.) - 0.5

    def bwd(self, out, inp):
        inp.g = (inp > 0).float() * out.g


class Lin(Module):  # noqa: F811
    def __init__(self, w, b):
        self.w, self.b = w, b

    def forward(self, inp):
        return inp @ self.w + self.b

    def bwd(self, out, inp):
        inp.g = out.g @ self.w.t()
        self.w.g = torch.einsum("bi,bj->ij", inp, out.g)
        self.b.g = out.g.sum(0)


class Mse(Module):  # noqa: F811
    def forward(self, inp, targ):
        return (inp.squeeze() - targ).pow(2).mean()

    def bwd(self, out, inp, targ):
        inp.g = 2 * (inp.squeeze() - targ).unsqueeze(-1) / targ.shape[0]


w1.g, b1.g, w2.g, b2.g = [None] * 4
model = Model(w1, b1, w2, b2)
print(model(x_train, y_train))
model.backward()
test_near(w2g, w2.g)
test_near(b2g, b2.g)
test_near(w1g, w1.g)
test_near(b1g, b1.g)
test_near(ig, x_train.g)
print("einsum grad:", w1.g[0, :4])


class TorchModel(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = [nn.Linear(n_in, nh), nn.ReLU(), nn.Linear(nh, n_out)]
        self.loss = mse

    def __call__(self, x, targ):
        for layer in self.layers:
            x = layer(x)
        return self.loss(x.squeeze(), targ)


model = TorchModel(m, nh, 1)
loss = model(x_train, y_train)
loss.backward()
print(loss, model.layers[0].weight.grad[0, :4], model.layers[2].bias.grad)
