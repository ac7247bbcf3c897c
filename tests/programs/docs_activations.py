# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# the torch.nn activation modules, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/activation.py
# Like the docs: m = nn.X(...); input = torch.randn(2); output = m(input) for ReLU, ReLU6,
# LeakyReLU(0.1), PReLU, ELU, SELU, CELU, GELU (and approximate='tanh'), SiLU, Mish,
# Hardtanh(-2, 2), Hardsigmoid, Hardswish, Sigmoid, Tanh, Softplus, Softsign, Tanhshrink,
# Threshold(0.1, 20), Softmax / Softmin / LogSoftmax over dim=1, GLU; the inplace=True variant
# of ReLU; the modules' reprs.
# Differences: our own code; inputs from a seeded torch.randn, each module's output and the
# gradient of output.sum() printed; MultiheadAttention (in the same file) is left out.
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(6)

modules = [
    nn.ReLU(), nn.ReLU6(), nn.LeakyReLU(0.1), nn.PReLU(), nn.ELU(), nn.SELU(), nn.CELU(alpha=0.5),
    nn.GELU(), nn.GELU(approximate="tanh"), nn.SiLU(), nn.Mish(), nn.Hardtanh(-2, 2),
    nn.Hardsigmoid(), nn.Hardswish(), nn.Sigmoid(), nn.Tanh(), nn.Softplus(beta=2, threshold=5),
    nn.Softsign(), nn.Tanhshrink(), nn.Threshold(0.1, 20), nn.Hardshrink(0.5), nn.Softshrink(0.5),
    nn.LogSigmoid(),
]
for m in modules:
    inp = (x * 3).requires_grad_()
    out = m(inp)
    out.sum().backward()
    print(m)
    print(" ", out.detach())
    print(" ", inp.grad)

inp = torch.randn(2, 3)
for m in [nn.Softmax(dim=1), nn.Softmin(dim=1), nn.LogSoftmax(dim=1), nn.Softmax2d()]:
    print(m, m(inp if not isinstance(m, nn.Softmax2d) else inp.view(1, 2, 3, 1)).flatten())
glu = nn.GLU()
print(glu, glu(torch.randn(4, 2)))

inp = torch.randn(4)
relu = nn.ReLU(inplace=True)
out = relu(inp)
print(relu, out is inp, inp)
prelu = nn.PReLU(num_parameters=3, init=0.1)
y = prelu(torch.randn(2, 3, 4))
y.sum().backward()
print(prelu, prelu.weight.grad)
