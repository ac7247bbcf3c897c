# Corpus program modelled on the PyTorch pull requests "Update unpack_dual to return named
# tuple" (y, jvp = unpack_dual(out); jvp = unpack_dual(out).tangent)
# https://github.com/pytorch/pytorch/pull/68062
# and "Update docs for forward AD and make them public" (make_dual aliases the tensor; the
# tangent is used as is when its layout matches, cloned otherwise)
# https://github.com/pytorch/pytorch/pull/71643
# Changed: a concrete f and seed; the named tuple, its fields and the aliasing are printed;
# a tangent of another layout (a transposed one) and the error for a tangent of a wrong shape.
# Written for gradsh.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual

torch.manual_seed(0)
x = torch.randn(3)
x_t = torch.ones(3)


def f(t):
    return t.sin() * t + t.exp()


with dual_level():
    inp = make_dual(x, x_t)
    out = f(inp)
    y, jvp = unpack_dual(out)
    print(y)
    print(jvp)
    print(unpack_dual(out).tangent)
    pair = unpack_dual(out)
    print(type(pair).__name__, pair._fields)
    print(pair)
    print(unpack_dual(x))
    print(inp.data_ptr() == x.data_ptr(), unpack_dual(inp).tangent is x_t)

print(x.cos() * x + x.sin() + x.exp())

m = torch.randn(2, 3)
mt = torch.randn(3, 2).t()
with fwAD.dual_level():
    dual = fwAD.make_dual(m, mt)
    tangent = fwAD.unpack_dual(dual).tangent
    print(tangent.stride(), mt.stride(), torch.equal(tangent, mt))
    print(fwAD.unpack_dual(dual.sum(0)))
    try:
        fwAD.make_dual(m, torch.randn(3))
    except RuntimeError as e:
        print(e)
