# Corpus program modelled on the PyTorch issue "[torch.compile] autograd.Function with
# .set_materialize_grads raises" (a Function returning x.sin() twice that calls
# ctx.set_materialize_grads(False), so backward gets None for an output nobody used)
# https://github.com/pytorch/pytorch/issues/106391
# and the test of the pull request that added the option, "Don't materialize output grads"
# (a Function returning its input unchanged; grad of an unused output is None)
# https://github.com/pytorch/pytorch/pull/41821
# Changed: eager mode only (no torch.compile); the backward's TypeError for a None gradient is
# caught and printed, then a backward that handles None; a seed. Written for gradsh.
import torch


class Foo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.set_materialize_grads(False)
        return x.sin(), x.sin()

    @staticmethod
    def backward(ctx, grad0, grad1):
        x, = ctx.saved_tensors
        print("backward got", grad0, grad1)
        return grad0 * x.cos(), grad1 * x.cos()  # (as in the issue: two for one input)


class FooSafe(Foo):
    @staticmethod
    def backward(ctx, grad0, grad1):
        x, = ctx.saved_tensors
        print("backward got", grad0, grad1)
        total = None
        for g in (grad0, grad1):
            if g is not None:
                total = g * x.cos() if total is None else total + g * x.cos()
        return total


class FooMaterialized(Foo):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.sin()

    @staticmethod
    def backward(ctx, grad0, grad1):
        x, = ctx.saved_tensors
        print("backward got", grad0, grad1)
        return grad0 * x.cos() + grad1 * x.cos()


def f(fn, x):
    return fn.apply(x)


torch.manual_seed(0)
x = torch.randn([1], requires_grad=True)
a, b = f(Foo, x)
print(a, b)
try:
    (a * 2).sum().backward()
except TypeError as e:
    print("TypeError:", e)
print(x.grad)
x.grad = None
a, b = f(FooSafe, x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = f(FooMaterialized, x)
a.sum().backward()
print(x.grad)


class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, var):
        ctx.set_materialize_grads(False)
        return var, var * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", g1, "g2", g2)
        return None if g1 is None else g1 * 3


v = torch.ones(2, requires_grad=True)
o1, o2 = MyFunction.apply(v)
print(torch.autograd.grad(o2.sum(), v, allow_unused=True))
print(torch.autograd.grad(o1.sum(), v))
