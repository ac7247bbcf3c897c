# Corpus program modelled on the micrograd pull request "Add support for Value ** Value"
# (https://github.com/karpathy/micrograd/pull/41) and its review, where a negative base raised
# to a Value hit "ValueError: math domain error" and the reviewer showed what PyTorch returns
# (a = -2, b = -3, c = a ** b: a.grad -0.1875, b.grad nan); and tinygrad's "enable backward
# test for pow(neg const ** x)" (https://github.com/tinygrad/tinygrad/pull/8912): a negative
# constant raised to a tensor, and 0 ** x.
# Changed: the PR's Value examples are written with torch tensors; the constant-base cases are
# printed for integer and fractional exponents in float32 and float64. Written for gradsh.
import torch

for av, bv in ((2.0, 3.0), (-2.0, -3.0)):
    a = torch.tensor(av, requires_grad=True)
    b = torch.tensor(bv, requires_grad=True)
    c = a ** b
    print(c.data)
    c.backward()
    print(a.grad)
    print(b.grad)

a = torch.tensor(-2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = a ** b
d = c ** a
e = d / c
f = 0.001 * e
print(f.data)
f.backward()
print(a.grad, b.grad)

for dtype in (torch.float32, torch.float64):
    x = torch.tensor([2.0, 3.0, 0.5, 0.0, -1.0], dtype=dtype, requires_grad=True)
    for base in (-2.0, -1, 0.0, 0.5, 10):
        y = base ** x
        (g,) = torch.autograd.grad(y.sum(), x)
        print(dtype, base, y.detach(), g)
    y = torch.pow(-3.0, x)
    y.backward(torch.ones_like(y))
    print(y, x.grad)
