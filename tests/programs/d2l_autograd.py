# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# section 2.5 "Automatic Differentiation", PyTorch tab (sample code MIT-0):
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_preliminaries/autograd.md
# Like the book: x = arange(4.0), requires_grad_(True), x.grad None, y = 2 * dot(x, x),
# backward, checking x.grad == 4 * x; x.grad.zero_() before a new backward on x.sum();
# backward of a vector with gradient=torch.ones(len(y)); detach() to treat y = x * x as a
# constant in z = u * x, then backward through y itself; a function with a data-dependent
# while loop and if, whose gradient equals d / a. Values a notebook would display are printed.
# Differences: our own code; seeded.
import torch

torch.manual_seed(0)

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

x.grad.zero_()
x.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def grow(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    c = b if b.sum() > 0 else 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
d = grow(a)
d.backward()
print(a.grad == d / a)
print(a.grad)
