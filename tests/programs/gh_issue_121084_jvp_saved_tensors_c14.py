# Corpus program modelled on the PyTorch issue "forward differentiation cannot access
# ctx.saved_tensors" (a Parabola autograd.Function with setup_context and
# generate_vmap_rule=True: torch.func.grad works, torch.func.hessian crashes in jvp because
# ctx.saved_tensors is empty there; what was given to save_for_backward is for backward only,
# jvp sees what save_for_forward saved):
# https://github.com/pytorch/pytorch/issues/121084
# Changed: the body is cut short in our copy, so backward and jvp are written for the
# parabola y = a x^2 + b x + c; the crash is caught and printed; the fixed Function calls
# save_for_forward too; a forward-AD dual number shows the same. Written for gradsh.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import grad, hessian, jacfwd

print('torch version:', torch.__version__[:4])


class Parabola(torch.autograd.Function):

    generate_vmap_rule = True

    @staticmethod
    def forward(x, abc):
        a, b, c = abc
        y = a * x.square() + b * x + c
        dydx = 2 * a * x + b
        return y, dydx

    @staticmethod
    def setup_context(ctx, inputs, outputs):
        y, dydx = outputs
        x, abc = inputs
        ctx.a = abc[0]
        ctx.save_for_backward(dydx)

    @staticmethod
    def backward(ctx, grad_y, grad_dydx):
        dydx, = ctx.saved_tensors
        return grad_y * dydx + grad_dydx * 2 * ctx.a, None

    @staticmethod
    def jvp(ctx, x_t, abc_t):
        dydx, = ctx.saved_tensors
        return dydx * x_t, 2 * ctx.a * x_t


class ParabolaFixed(Parabola):
    @staticmethod
    def setup_context(ctx, inputs, outputs):
        y, dydx = outputs
        x, abc = inputs
        ctx.a = abc[0]
        ctx.save_for_backward(dydx)
        ctx.save_for_forward(dydx)


abc = (1.0, 2.0, 3.0)
x = torch.tensor(1.5)
for fn in (Parabola, ParabolaFixed):
    def f(x):
        return fn.apply(x, abc)[0]

    print(fn.__name__, f(x), grad(f)(x))
    try:
        print(jacfwd(f)(x))
    except ValueError as e:
        print("jacfwd:", e)
    with fwAD.dual_level():
        try:
            y, dydx = fn.apply(fwAD.make_dual(x, torch.tensor(1.0)), abc)
            print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(dydx).tangent)
        except ValueError as e:
            print("dual:", e)

xs = torch.tensor([0.0, 1.0, -2.0])
print(torch.func.vmap(grad(lambda t: ParabolaFixed.apply(t, abc)[0]))(xs))
