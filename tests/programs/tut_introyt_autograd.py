# Corpus program, written for gradsh (no code copied). Modelled on "The Fundamentals of
# Autograd" (Introduction to PyTorch, YouTube series), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/introyt/autogradyt_tutorial.py
# Like the original: linspace(0, 2*pi, steps=25, requires_grad=True), sin, *2, +1, sum, and
# printing grad_fn / next_functions down to AccumulateGrad; a.grad after backward; a tiny
# Linear-ReLU-Linear model: a weight slice, its grad (None, then after backward), an SGD step,
# gradients accumulating over five backwards, optimizer.zero_grad(set_to_none=False);
# requires_grad toggled on a leaf; torch.no_grad() as context and as decorator; detach();
# the doubling loop with a vector backward; torch.autograd.functional.jacobian and vjp.
# Differences: our own code; no matplotlib, no profiler (it prints timings); seeded; the
# functional results are printed (the original leaves them as notebook expressions).
# grad_fn objects print an address (masked by the harness).
import math

import torch

torch.manual_seed(0)

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
print(a)
b = torch.sin(a)
print(b)
c = 2 * b
print(c)
d = c + 1
print(d)
out = d.sum()
print(out)

print("d:")
node = d.grad_fn
print(node)
while node is not None:
    print(node.next_functions)
    node = node.next_functions[0][0] if node.next_functions else None
print("\nc:")
print(c.grad_fn)
print("\nb:")
print(b.grad_fn)
print("\na:")
print(a.grad_fn)

out.backward()
print(a.grad)


class Tiny(torch.nn.Module):
    def __init__(self):
        super(Tiny, self).__init__()
        self.layer1 = torch.nn.Linear(1000, 100)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(100, 10)

    def forward(self, x):
        return self.layer2(self.relu(self.layer1(x)))


inputs = torch.randn(16, 1000, requires_grad=False)
wanted = torch.randn(16, 10, requires_grad=False)
model = Tiny()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
loss = (wanted - model(inputs)).pow(2).sum()
print(loss)
loss.backward()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])
optimizer.step()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])

for _ in range(5):
    loss = (wanted - model(inputs)).pow(2).sum()
    loss.backward()
print(model.layer2.weight.grad[0][0:10])
optimizer.zero_grad(set_to_none=False)
print(model.layer2.weight.grad[0][0:10])

ones = torch.ones(2, 3, requires_grad=True)
print(ones)
print(2 * ones)
ones.requires_grad = False
print(2 * ones)

p = torch.ones(2, 3, requires_grad=True) * 2
q = torch.ones(2, 3, requires_grad=True) * 3
print(p + q)
with torch.no_grad():
    r = p + q
print(r)
print(p * q)


def add_tracked(x, y):
    return x + y


@torch.no_grad()
def add_untracked(x, y):
    return x + y


print(add_tracked(p, q))
print(add_untracked(p, q))

x = torch.rand(5, requires_grad=True)
print(x)
print(x.detach())

x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
y.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float))
print(x.grad)


def exp_adder(u, v):
    return 2 * u.exp() + 3 * v


pair = (torch.rand(1), torch.rand(1))
print(pair)
print(torch.autograd.functional.jacobian(exp_adder, pair))
pair = (torch.rand(3), torch.rand(3))
print(pair)
print(torch.autograd.functional.jacobian(exp_adder, pair))


def keep_doubling(t):
    t = t * 2
    while t.data.norm() < 1000:
        t = t * 2
    return t


print(torch.autograd.functional.vjp(keep_doubling, torch.randn(3),
                                    v=torch.tensor([0.1, 1.0, 0.0001])))
