"""A custom autograd.Function: clamp whose backward is the straight-through estimator."""

import torch


class StraightThroughClamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, low, high):
        return x.clamp(low, high)

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None  # pass the gradient through, clamped or not


weights = torch.tensor([1.0, 2.0, 3.0, 4.0])
x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = StraightThroughClamp.apply(x, -1.0, 1.0)
print(y)
(y * weights).sum().backward()
print(x.grad)

x.grad = None
z = x.clamp(-1.0, 1.0)  # the built-in clamp: no gradient where it clamps
(z * weights).sum().backward()
print(x.grad)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad


t = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (t,)))
c = Cube.apply(t)
c.sum().backward()
print(t.grad)
try:
    c.sum().backward()
except RuntimeError as error:
    print("second backward:", str(error)[:60])
