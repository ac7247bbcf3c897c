# Corpus program, written for gradsh (no code copied). Modelled on Howard and Gugger, "Deep
# Learning for Coders with fastai and PyTorch", chapter 17 "A Neural Net from the Foundations"
# (fastbook, GPL-3): https://github.com/fastai/fastbook/blob/master/17_foundations.ipynb
# Like the original: matmul from scratch three ways (triple loop with c[i,j] +=, a row times
# a column .sum(), a[i].unsqueeze(-1) * b summed over dim 0) and with einsum('ik,kj->ij');
# elementwise arithmetic and comparisons, .all(), broadcasting of scalars and vectors,
# expand_as with its storage and stride, shape errors of mismatched broadcasts, unsqueeze and
# None indexing; activations exploding/vanishing through 50 matmuls and the scaled and
# Kaiming-style (sqrt(2/n)) inits; lin/relu/mse with hand-written gradients stored in a `.g`
# attribute of the tensors, the refactored Relu/Lin/Mse classes and Model, the LayerFunction
# base class, MyRelu as an autograd.Function, and LinearLayer as an nn.Module.
# Differences: timings are not printed; m1 is 5x64 (not 5x784) to keep the loops short; the
# hand-written gradients are compared with autograd's; the shape errors are caught; seeded.
from math import sqrt

import torch
import torch.nn as nn
from torch import tensor
from torch.autograd import Function

torch.manual_seed(42)


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


m1 = torch.randn(5, 64)
m2 = torch.randn(64, 10)
t1 = matmul(m1, m2)
print(t1)
print((t1 - m1 @ m2).abs().max())

a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b, a < b, ((a < b).all(), (a == b).all()), (a + b).mean().item())
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print(m * m)
n = tensor([[1., 2, 3], [4, 5, 6]])
try:
    print(m * n)
except RuntimeError as e:
    print("RuntimeError:", e)


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i] * b[:, j]).sum()
    return c


t3 = matmul(m1, m2)
print(torch.allclose(t1, t3, atol=1e-5), (t3 - m1 @ m2).abs().max())
a = tensor([10., 6, -4])
print(a > 0)
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print((m - 5) / 2.73)
c = tensor([10., 20, 30])
print((m.shape, c.shape), m + c, c.expand_as(m))
t = c.expand_as(m)
print(t.storage())
print((t.stride(), t.shape), c + m)
m = tensor([[1., 2, 3], [4, 5, 6]])
print(c + m)
c = tensor([10., 20])
try:
    print(c + m)
except RuntimeError as e:
    print("RuntimeError:", e)
c = tensor([10., 20, 30])
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
c = c.unsqueeze(1)
print((m.shape, c.shape), c + m)
t = c.expand_as(m)
print(t.storage())
print((t.stride(), t.shape))
c = tensor([10., 20, 30])
print((c.shape, c.unsqueeze(0).shape, c.unsqueeze(1).shape))
print((c.shape, c[None, :].shape, c[:, None].shape))
print((c[None].shape, c[..., None].shape))


def matmul(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i].unsqueeze(-1) * b).sum(dim=0)
    return c


t4 = matmul(m1, m2)
print((t4 - t3).abs().max())


def matmul(a, b):
    return torch.einsum('ik,kj->ij', a, b)


t5 = matmul(m1, m2)
print(torch.equal(t5, m1 @ m2), (t5 - t4).abs().max())


def lin(x, w, b):
    return x @ w + b


x = torch.randn(200, 100)
y = torch.randn(200)
w1 = torch.randn(100, 50)
b1 = torch.zeros(50)
w2 = torch.randn(50, 1)
b2 = torch.zeros(1)
l1 = lin(x, w1, b1)
print(l1.shape, (l1.mean(), l1.std()))
for scale in (1.0, 0.01, 0.1):
    x = torch.randn(200, 100)
    for i in range(50):
        x = x @ (torch.randn(100, 100) * scale)
    print(scale, x[0:5, 0:5])
print(x.std())
x = torch.randn(200, 100)
y = torch.randn(200)
w1 = torch.randn(100, 50) / sqrt(100)
b1 = torch.zeros(50)
w2 = torch.randn(50, 1) / sqrt(50)
b2 = torch.zeros(1)
l1 = lin(x, w1, b1)
print((l1.mean(), l1.std()))


def relu(x):
    return x.clamp_min(0.)


l2 = relu(l1)
print((l2.mean(), l2.std()))
for scale in (0.1, sqrt(2 / 100)):
    x = torch.randn(200, 100)
    for i in range(50):
        x = relu(x @ (torch.randn(100, 100) * scale))
    print(x[0:5, 0:5])
x = torch.randn(200, 100)
y = torch.randn(200)
w1 = torch.randn(100, 50) * sqrt(2 / 100)
b1 = torch.zeros(50)
w2 = torch.randn(50, 1) * sqrt(2 / 50)
b2 = torch.zeros(1)
l1 = lin(x, w1, b1)
l2 = relu(l1)
print((l2.mean(), l2.std()))


def model(x):
    l1 = lin(x, w1, b1)
    l2 = relu(l1)
    l3 = lin(l2, w2, b2)
    return l3


out = model(x)
print(out.shape)


def mse(output, targ):
    return (output.squeeze(-1) - targ).pow(2).mean()


loss = mse(out, y)
print(loss)


def mse_grad(inp, targ):
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]


def relu_grad(inp, out):
    inp.g = (inp > 0).float() * out.g


def lin_grad(inp, out, w, b):
    inp.g = out.g @ w.t()
    w.g = inp.t() @ out.g
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


print(forward_and_backward(x, y))
manual = [w1.g.clone(), b1.g.clone(), w2.g.clone(), b2.g.clone(), x.g.clone()]
print(b2.g, b1.g[:5], w2.g[:3, 0])
xt, w1t, b1t, w2t, b2t = (t.clone().requires_grad_() for t in (x, w1, b1, w2, b2))
loss = mse(relu(xt @ w1t + b1t) @ w2t + b2t, y)
loss.backward()
for name, mine, auto in zip(("w1", "b1", "w2", "b2", "x"), manual,
                            (w1t.grad, b1t.grad, w2t.grad, b2t.grad, xt.grad)):
    print(name, torch.allclose(mine, auto, atol=1e-6), (mine - auto).abs().max())


class LayerFunction():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self):
        raise Exception('not implemented')

    def bwd(self):
        raise Exception('not implemented')

    def backward(self):
        self.bwd(self.out, *self.args)


class Relu(LayerFunction):
    def forward(self, inp):
        return inp.clamp_min(0.)

    def bwd(self, out, inp):
        inp.g = (inp > 0).float() * out.g


class Lin(LayerFunction):
    def __init__(self, w, b):
        self.w, self.b = w, b

    def forward(self, inp):
        return inp @ self.w + self.b

    def bwd(self, out, inp):
        inp.g = out.g @ self.w.t()
        self.w.g = inp.t() @ out.g
        self.b.g = out.g.sum(0)


class Mse(LayerFunction):
    def forward(self, inp, targ):
        return (inp.squeeze() - targ).pow(2).mean()

    def bwd(self, out, inp, targ):
        inp.g = 2 * (inp.squeeze() - targ).unsqueeze(-1) / targ.shape[0]


class Model():
    def __init__(self, w1, b1, w2, b2):
        self.layers = [Lin(w1, b1), Relu(), Lin(w2, b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for l in self.layers:
            x = l(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for l in reversed(self.layers):
            l.backward()


model = Model(w1, b1, w2, b2)
loss = model(x, y)
model.backward()
print(loss, torch.equal(w1.g, manual[0]), torch.equal(x.g, manual[4]), (w2.g - manual[2]).abs().max())
try:
    LayerFunction()(x)
except Exception as e:
    print(type(e).__name__, e)


class MyRelu(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.clamp_min(0.)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i, = ctx.saved_tensors
        return grad_output * (i > 0).float()


xr = torch.randn(4, 3, requires_grad=True)
out = MyRelu.apply(xr)
out.sum().backward()
print(out, out.grad_fn, xr.grad)


class LinearLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * sqrt(2 / n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


lin = LinearLayer(10, 2)
p1, p2 = lin.parameters()
print((p1.shape, p2.shape), lin)


class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_in, nh), nn.ReLU(), nn.Linear(nh, n_out))
        self.loss = mse

    def forward(self, x, targ):
        return self.loss(self.layers(x).squeeze(), targ)


model = Model(100, 50, 1)
print(model)
loss = model(x, y)
loss.backward()
print(loss, model.layers[2].bias.grad)
