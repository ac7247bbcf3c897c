# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs note
# "Extending PyTorch", section "Extending torch.autograd", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/notes/extending.md
# Like the note: a linear Function in the newer style (forward without ctx + a separate
# setup_context saving inputs; backward honouring ctx.needs_input_grad and an optional bias),
# wrapped in a function with a default argument; a multiply-by-constant Function storing the
# constant on ctx and returning None for it, with set_materialize_grads(False); a cube
# Function returning its derivative as a second output so double backward works; and
# torch.autograd.gradcheck on double inputs printing True.
# Differences: our own code and values; the Functions are called and their results printed;
# gradgradcheck on the cube function added; seeded.
import torch
from torch.autograd import Function, gradcheck, gradgradcheck

torch.manual_seed(0)


class Affine(Function):
    @staticmethod
    def forward(x, weight, bias):
        out = x.mm(weight.t())
        if bias is not None:
            out += bias.unsqueeze(0).expand_as(out)
        return out

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, bias = inputs
        ctx.save_for_backward(x, weight, bias)

    @staticmethod
    def backward(ctx, g):
        x, weight, bias = ctx.saved_tensors
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            gx = g.mm(weight)
        if ctx.needs_input_grad[1]:
            gw = g.t().mm(x)
        if bias is not None and ctx.needs_input_grad[2]:
            gb = g.sum(0)
        return gx, gw, gb


def affine(x, weight, bias=None):
    return Affine.apply(x, weight, bias)


class Scale(Function):
    @staticmethod
    def forward(t, k):
        return t * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, k = inputs
        ctx.set_materialize_grads(False)
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        if g is None:
            return None, None
        return g * ctx.k, None


class Cube(Function):
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        _, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, g, g_dx):
        x, dx = ctx.saved_tensors
        return g * dx + g_dx * 6 * x


def cube(x):
    value, _ = Cube.apply(x)
    return value


inputs = (torch.randn(6, 4, dtype=torch.double, requires_grad=True),
          torch.randn(5, 4, dtype=torch.double, requires_grad=True))
print(gradcheck(affine, inputs, eps=1e-6, atol=1e-4))
print(gradgradcheck(cube, (torch.randn(3, dtype=torch.double, requires_grad=True),)))

x = torch.tensor([[1., -1.], [2., 0.5]], requires_grad=True)
w = torch.tensor([[2., 0.], [1., 1.], [0., -1.]], requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
out = affine(x, w, b)
print(out)
out.sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
no_bias = affine(x.detach(), w)
print(no_bias, no_bias.grad_fn is not None)

s = Scale.apply(x, 2.5)
print(s)
s.sum().backward()
print(x.grad)

t = torch.tensor(1.5, requires_grad=True)
c = cube(t)
(g,) = torch.autograd.grad(c, t, create_graph=True)
(g2,) = torch.autograd.grad(g, t)
print(c, g, g2)
