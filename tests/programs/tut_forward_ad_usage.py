# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Forward-mode Automatic Differentiation (Beta)", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/forward_ad_usage.py
# Like the original: dual tensors made with forward_ad.make_dual inside dual_level (the tangent
# used as is, or copied when its layout differs), the JVP of x**2 + y**2 read with
# unpack_dual, an nn.Linear whose parameters are replaced by dual tensors, the same through
# torch.func.functional_call, a custom autograd.Function with a jvp staticmethod checked by
# gradcheck(check_forward_ad=True, check_backward_ad=False), and the functional jvp API.
# Differences: our own code; torch.func.jvp and functional_call instead of the deprecated
# functorch module; tangents, reprs of dual tensors and the API's errors are printed; seeded.
import functools

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, jvp

torch.manual_seed(0)

primal = torch.randn(4, 4)
tangent = torch.randn(4, 4)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is tangent)
    plain_tensor = torch.randn(4, 4)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output[0])
    unpacked = fwAD.unpack_dual(dual_output)
    print(type(unpacked).__name__, unpacked.primal[1], unpacked.tangent[1])
    print(torch.allclose(unpacked.tangent, 2 * primal * tangent))
    for bad in (lambda: fwAD.make_dual(primal, torch.randn(3)),
                lambda: fwAD.make_dual(torch.arange(3), torch.arange(3)),
                lambda: fwAD.make_dual(dual_input, tangent)):
        try:
            bad()
        except (RuntimeError, ValueError) as error:
            print(type(error).__name__ + ":", error)
print(fwAD.unpack_dual(dual_output).tangent)

model = nn.Linear(5, 3)
inputs = torch.randn(8, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(inputs)
    jvp_module = fwAD.unpack_dual(out).tangent
print(jvp_module[:3])

fresh = nn.Linear(5, 3)
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(fresh, dual_params, inputs)
    jvp_functional = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp_module, jvp_functional))


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, tangent_in):
        tangent_out = tangent_in * ctx.result
        del ctx.result
        return tangent_out


primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3)
with fwAD.dual_level():
    dual_output = Exp.apply(fwAD.make_dual(primal, tangent))
    print(fwAD.unpack_dual(dual_output).tangent)
print(torch.autograd.gradcheck(Exp.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))

primal0, tangent0 = torch.randn(3, 3), torch.randn(3, 3)
primal1, tangent1 = torch.randn(3, 3), torch.randn(3, 3)
primal_out, tangent_out = jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(tangent_out[0])
y = torch.randn(3, 3)
primal_out, tangent_out = jvp(functools.partial(fn, y=y), (primal0,), (tangent0,))
print(tangent_out[0], torch.allclose(tangent_out, 2 * primal0 * tangent0))
