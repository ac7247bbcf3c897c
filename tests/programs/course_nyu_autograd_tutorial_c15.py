# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 03 "autograd_tutorial":
# https://github.com/Atcold/NYU-DLSP20/blob/master/03-autograd_tutorial.ipynb
# Like the notebook: a 2x2 float32 leaf with requires_grad, y = x - 2 and its grad_fn, the
# leaf's grad_fn (None), y.grad_fn.next_functions[0][0] (the AccumulateGrad node) and its
# .variable; z = y * y * 3, its mean, backward and x.grad; the "dynamic graph" loop doubling
# y until its norm passes 1000, backward with a FloatTensor of gradients and the loop count;
# w @ x with both, then only w, requiring grad; backward on a no_grad result, error caught.
# Differences: a seed; the torchviz make_dot cell left out; notebook cells that only display
# a value are printed.
import torch

torch.manual_seed(0)

x = torch.tensor([[1, 2], [3, 4]], requires_grad=True, dtype=torch.float32)
print(x)

y = x - 2
print(y)
print(y.grad_fn)
print(x.grad_fn)
print(y.grad_fn.next_functions[0][0])
print(y.grad_fn.next_functions[0][0].variable)

z = y * y * 3
a = z.mean()
print(z)
print(a)

a.backward()
print(x.grad)

# Dynamic graphs
x = torch.randn(3, requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 1000:
    y = y * 2
    i += 1
print(y)

gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)
print(i)

n = 3
x = torch.arange(1., n + 1, requires_grad=True)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep='\n')

x = torch.arange(1., n + 1)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep='\n')

x = torch.arange(1., n + 1)
w = torch.ones(n, requires_grad=True)
with torch.no_grad():
    z = w @ x

try:
    z.backward()
except RuntimeError as e:
    print('RuntimeError!!! >:[')
    print(e)
