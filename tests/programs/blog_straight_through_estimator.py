# Corpus program, written for gradsh (no code copied). Modelled on the blog posts on the
# straight-through estimator with a custom torch.autograd.Function (for example the
# binarized-network and quantisation tutorials that define a Sign / Round function whose
# forward is non-differentiable and whose backward passes the gradient through, clipped to
# |x| <= 1, via ctx.save_for_backward and ctx.saved_tensors), compared with the detach trick
# x + (q(x) - x).detach(); plus torch.autograd.gradcheck on a smooth custom function in
# float64, and the mark_non_differentiable / needs_input_grad details.
# Differences: our own code; seeded.
import torch
from torch.autograd import Function, gradcheck


class SignSTE(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


class RoundSTE(Function):
    @staticmethod
    def forward(ctx, x, scale):
        return torch.round(x * scale) / scale

    @staticmethod
    def backward(ctx, grad_output):
        print("needs_input_grad:", ctx.needs_input_grad)
        return grad_output, None


torch.manual_seed(0)
x = torch.tensor([-2.0, -0.5, 0.0, 0.3, 1.5], requires_grad=True)
y = SignSTE.apply(x)
print(y, y.grad_fn)
(y * torch.arange(1.0, 6.0)).sum().backward()
print(x.grad)
x.grad = None
q = RoundSTE.apply(x, 4.0)
print(q)
q.sum().backward()
print(x.grad)
x.grad = None
q2 = x + (torch.round(x * 4.0) / 4.0 - x).detach()
print(torch.equal(q, q2), q2.grad_fn)
q2.sum().backward()
print(x.grad)

w = torch.randn(3, 3, requires_grad=True)
inp = torch.randn(4, 3)
out = inp @ SignSTE.apply(w)
out.pow(2).mean().backward()
print(w.grad.shape, (w.grad != 0).sum().item())


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


d = torch.randn(4, dtype=torch.double, requires_grad=True)
print(gradcheck(Cube.apply, (d,), eps=1e-6, atol=1e-4))


class ArgMaxWithValue(Function):
    @staticmethod
    def forward(ctx, x):
        value, idx = x.max(dim=0)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return value, idx

    @staticmethod
    def backward(ctx, g_value, g_idx):
        x, idx = ctx.saved_tensors
        grad = torch.zeros_like(x)
        grad[idx] = g_value
        return grad


v = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
value, idx = ArgMaxWithValue.apply(v)
print(value, idx, idx.requires_grad)
value.backward()
print(v.grad)
