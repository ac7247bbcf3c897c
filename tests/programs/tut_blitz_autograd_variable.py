# Corpus program, written for gradsh (no code copied). Modelled on the 2017 version of the
# blitz autograd tutorial, written for torch.autograd.Variable, BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/56d1da96ef0e5acf5187d89c27d6ca6178170bc5/beginner_source/blitz/autograd_tutorial.py
# Like the original: Variable(torch.ones(2, 2), requires_grad=True), grad_fn, mean, backward,
# Variable(torch.randn(3), requires_grad=True) doubled until y.data.norm() >= 1000, and
# backward with a torch.FloatTensor of weights. Old-style code that still runs today.
# Differences: our own code; seeded. grad_fn objects print an address (masked by the harness).
import torch
from torch.autograd import Variable

torch.manual_seed(0)

a = Variable(torch.ones(2, 2), requires_grad=True)
print(a)
b = a + 2
print(b)
print(b.grad_fn)
c = b * b * 3
mean = c.mean()
print(c, mean)
mean.backward()
print(a.grad)

v = Variable(torch.randn(3), requires_grad=True)
doubled = v * 2
while doubled.data.norm() < 1000:
    doubled = doubled * 2
print(doubled)
doubled.backward(torch.FloatTensor([0.1, 1.0, 0.0001]))
print(v.grad)
print(type(v), isinstance(v, torch.Tensor))
