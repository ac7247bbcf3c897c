# A custom Function's backward returning None for an input that requires grad: PyTorch still
# runs the nodes below with an undefined gradient. Tensor hooks and grad_fn pre-hooks there see
# None; a custom Function below gets zeros (materialize_grads) or None (set_materialize_grads
# (False)) and its result flows on; retain_grad keeps nothing.
import torch


class DropSecond(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, g):
        return g, None


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        print("Double backward", g)
        return g * 2


class Lazy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2

    @staticmethod
    def backward(ctx, g):
        print("Lazy backward", g)
        return g


x = torch.ones(2, requires_grad=True)
y = torch.ones(2, requires_grad=True)
y.register_hook(lambda g: print("y hook", g))
t = Double.apply(y)
t.register_hook(lambda g: print("t hook", g))
DropSecond.apply(x, t).sum().backward()
print(x.grad, y.grad)

u = y.exp()
u.retain_grad()
DropSecond.apply(x, u).sum().backward()
print(u.grad, y.grad)

z = torch.ones(2, requires_grad=True)
s = Lazy.apply(z) * 1
s.grad_fn.register_prehook(lambda gout: print("mul prehook", gout))
s.grad_fn.register_hook(lambda gin, gout: print("mul posthook", gin, gout))
DropSecond.apply(x, s).sum().backward()
print(z.grad)
try:
    w = torch.ones(2, requires_grad=True) * 3
    w.register_hook(lambda g: torch.zeros(2))
    DropSecond.apply(x, w).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
