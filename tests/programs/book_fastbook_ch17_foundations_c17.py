# Corpus program, written for gradsh (no code copied). Modelled on chapter 17 ("A Neural Net
# from the Foundations") of "Deep Learning for Coders with fastai and PyTorch" (fastbook):
# https://github.com/fastai/fastbook/blob/master/17_foundations.ipynb
# and the Hook/HookBwd context managers of chapter 18 ("CNN Interpretation with CAM"):
# https://github.com/fastai/fastbook/blob/master/18_CAM.ipynb
# Like the chapters: matrix multiplication with three loops, then an elementwise row-column
# product, then broadcasting (c[:, None], expand_as and its stride 0 storage, unsqueeze) and
# torch.einsum, each checked against @; the activations' std blowing up or vanishing through
# 50 layers of random 100x100 matrices, fixed by 1/sqrt(n) and Kaiming's sqrt(2/n) scaling;
# a two-layer net with forward and backward written by hand (.g attributes, lin_grad,
# mse_grad, relu_grad) checked against autograd; the refactor into Relu/Lin/Mse classes and
# a LayerFunction base class; a torch.autograd.Function MyRelu; a Module written from scratch
# whose __setattr__ registers parameters and children; and the chapter 18 Hook/HookBwd
# classes used as context managers around a forward/backward pass.
# Differences: fixed shapes with random data (no MNIST); the three-loop matmul on 5x784 by
# 784x10 slices is replaced by 5x28 @ 28x10; seeded; timings (%timeit) omitted.
import torch
import torch.nn as nn
from torch import tensor

torch.manual_seed(42)
m1 = torch.randn(5, 28)
m2 = torch.randn(28, 10)


def matmul_loops(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


def matmul_elementwise(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i] * b[:, j]).sum()
    return c


def matmul_broadcast(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i].unsqueeze(-1) * b).sum(dim=0)
    return c


def matmul_einsum(a, b):
    return torch.einsum('ik,kj->ij', a, b)


ref = m1 @ m2
for f in [matmul_loops, matmul_elementwise, matmul_broadcast, matmul_einsum]:
    r = f(m1, m2)
    print(f.__name__, r.shape, torch.allclose(r, ref, atol=1e-5), (r - ref).abs().max() < 1e-4)

a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b, a < b, (a < b).all(), (a == b).all())
print((a + b).mean().item())
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print(m * m, m * 2)
c = tensor([10., 20, 30])
print(m + c)
t = c.expand_as(m)
print(t)
print(t.storage())
print(t.untyped_storage().nbytes(), t.stride(), t.shape)
print(c.unsqueeze(0), c.unsqueeze(0).shape, c.unsqueeze(1), c.unsqueeze(1).shape)
print(c[None, :].shape, c[:, None].shape, c[None].shape, c[..., None].shape)
print(c[:, None].expand_as(m))
print(m + c[:, None])

x = torch.randn(200, 100)
for i in range(50):
    x = x @ torch.randn(100, 100)
print(x[0:5, 0:5])
x = torch.randn(200, 100)
for i in range(50):
    x = x @ (torch.randn(100, 100) * 0.01)
print(x[0:5, 0:5])
x = torch.randn(200, 100)
for i in range(50):
    x = x @ (torch.randn(100, 100) * 0.1)
print(x[0:5, 0:5], x.std())

x = torch.randn(200, 100)
y = torch.randn(200)
w1 = torch.randn(100, 50) / 100 ** 0.5
b1 = torch.zeros(50)
w2 = torch.randn(50, 1) / 50 ** 0.5
b2 = torch.zeros(1)


def lin(x, w, b):
    return x @ w + b


l1 = lin(x, w1, b1)
print(l1.shape, l1.mean(), l1.std())


def relu(x):
    return x.clamp_min(0.)


l2 = relu(l1)
print(l2.mean(), l2.std())
x2 = torch.randn(200, 100)
for i in range(50):
    x2 = relu(x2 @ (torch.randn(100, 100) * 0.1))
print(x2[0:5, 0:5])
x2 = torch.randn(200, 100)
for i in range(50):
    x2 = relu(x2 @ (torch.randn(100, 100) * (2 / 100) ** 0.5))
print(x2[0:5, 0:5])
w1 = torch.randn(100, 50) * (2 / 100) ** 0.5
l2 = relu(lin(x, w1, b1))
print(l2.mean(), l2.std())


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


loss = forward_and_backward(x, y)
print(loss, w1.g.shape, w1.g[:2, :3], b2.g, x.g.shape)
manual = [t.g.clone() for t in (w1, b1, w2, b2)]
for t in (w1, b1, w2, b2):
    t.requires_grad_()
loss = mse(model(x), y)
loss.backward()
print([torch.allclose(g, t.grad, atol=1e-6) for g, t in zip(manual, (w1, b1, w2, b2))])
print([(g - t.grad).abs().max().item() < 1e-5 for g, t in zip(manual, (w1, b1, w2, b2))])


class Relu():
    def __call__(self, inp):
        self.inp = inp
        self.out = inp.clamp_min(0.)
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
        self.w.g = self.inp.t() @ self.out.g
        self.b.g = self.out.g.sum(0)


class Mse():
    def __call__(self, inp, targ):
        self.inp = inp
        self.targ = targ
        self.out = (inp.squeeze() - targ).pow(2).mean()
        return self.out

    def backward(self):
        x = (self.inp.squeeze() - self.targ).unsqueeze(-1)
        self.inp.g = 2. * x / self.targ.shape[0]


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


with torch.no_grad():
    ws = [t.detach().clone() for t in (w1, b1, w2, b2)]
    m = Model(*ws)
    loss = m(x, y)
    m.backward()
print(loss, [torch.allclose(g, t.g, atol=1e-6) for g, t in zip(manual, ws)])


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


class Relu2(LayerFunction):
    def forward(self, inp):
        return inp.clamp_min(0.)

    def bwd(self, out, inp):
        inp.g = (inp > 0).float() * out.g


r = Relu2()
z = torch.randn(4, 3)
o = r(z)
o.g = torch.ones_like(o)
r.backward()
print(z.g)
try:
    LayerFunction()(z)
except Exception as e:
    print(type(e).__name__, e)


class MyRelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.clamp_min(0.)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i, = ctx.saved_tensors
        return grad_output * (i > 0).float()


z = torch.randn(4, 3, requires_grad=True)
o = MyRelu.apply(z)
print(o.grad_fn, o.grad_fn.name())
o.sum().backward()
print(z.grad)


class LinearLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * (2 / n_in) ** 0.5)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


lin_layer = LinearLayer(10, 2)
p1, p2 = lin_layer.parameters()
print(p1.shape, p2.shape)


class MyModule():
    def __init__(self):
        self.hook, self.params, self.children, self._training = None, [], [], False

    def register_parameters(self, *ps):
        self.params += ps

    def register_modules(self, *ms):
        self.children += ms

    @property
    def training(self):
        return self._training

    @training.setter
    def training(self, v):
        self._training = v
        for m in self.children:
            m.training = v

    def parameters(self):
        return self.params + sum([m.parameters() for m in self.children], [])

    def __setattr__(self, k, v):
        super().__setattr__(k, v)
        if isinstance(v, nn.Parameter):
            self.register_parameters(v)
        if isinstance(v, MyModule):
            self.register_modules(v)

    def __call__(self, *args, **kwargs):
        res = self.forward(*args, **kwargs)
        if self.hook is not None:
            self.hook(res, args)
        return res

    def cuda(self):
        for p in self.parameters():
            p.data = p.data.cuda()


class MyLinear(MyModule):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * (2 / n_in) ** 0.5)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


class MySeq(MyModule):
    def __init__(self):
        super().__init__()
        self.l1 = MyLinear(10, 4)
        self.l2 = MyLinear(4, 1)

    def forward(self, x):
        return self.l2(self.l1(x).clamp_min(0.))


s = MySeq()
print([p.shape for p in s.parameters()], s.training, s.l1.training)
s.training = True
print(s.l1.training, s.l2.training)
s.l1.hook = lambda res, args: print("hook:", res.shape, args[0].shape)
print(s(torch.randn(3, 10)).shape)


class Hook():
    def __init__(self, m):
        self.hook = m.register_forward_hook(self.hook_func)

    def hook_func(self, m, i, o):
        self.stored = o.detach().clone()

    def __enter__(self, *args):
        return self

    def __exit__(self, *args):
        self.hook.remove()


class HookBwd():
    def __init__(self, m):
        self.hook = m.register_full_backward_hook(self.hook_func)

    def hook_func(self, m, gi, go):
        self.stored = go[0].detach().clone()

    def __enter__(self, *args):
        return self

    def __exit__(self, *args):
        self.hook.remove()


torch.manual_seed(0)
body = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, padding=1), nn.ReLU())
head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
learn_model = nn.Sequential(body, head)
img = torch.randn(1, 3, 6, 6)
cls = 1
with HookBwd(learn_model[0]) as hookg:
    with Hook(learn_model[0]) as hook:
        output = learn_model.eval()(img)
        act = hook.stored
    output[0, cls].backward()
    grad = hookg.stored
print(act.shape, grad.shape)
w = grad[0].mean(dim=[1, 2], keepdim=True)
cam_map = (w * act[0]).sum(0)
print(cam_map)
print(len(learn_model[0]._forward_hooks), len(learn_model[0]._backward_hooks))
