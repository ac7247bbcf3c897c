# Corpus program modelled on the PyTorch issue "Custom function forward-mode AD internal assert
# when returning same tensor" (a Function whose forward returns its input as is and whose jvp
# returns the tangent as is); it became a proper error: the output is a view of the input, so
# the jvp must return a view of the tangent it was given:
# https://github.com/pytorch/pytorch/issues/71119
# Changed: the error is caught and printed; the fix (x_t.view_as(x_t)) and a jvp returning a
# view of a new tensor are shown; a Function whose forward returns a fresh tensor may return
# any tangent. Written for gradsh.
import torch
import torch.autograd.forward_ad as fwAD


class Test(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def jvp(ctx, x_t):
        return x_t


class TestView(Test):
    @staticmethod
    def jvp(ctx, x_t):
        return x_t.view_as(x_t)


class TestOtherBase(Test):
    @staticmethod
    def jvp(ctx, x_t):
        return (x_t * 2).view_as(x_t)


class Fresh(Test):
    @staticmethod
    def forward(ctx, x):
        return x.clone()


x = torch.tensor(1.)
t = torch.tensor(1.)

with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, t)
    for fn in (Test, TestView, TestOtherBase, Fresh):
        try:
            out = fn.apply(dual_x)
            print(fn.__name__, fwAD.unpack_dual(out))
        except RuntimeError as e:
            print(fn.__name__, e)
    v = torch.arange(4.)
    dual_v = fwAD.make_dual(v, torch.ones(4))
    out = TestView.apply(dual_v)
    print(out._base is v, fwAD.unpack_dual(out).tangent)
