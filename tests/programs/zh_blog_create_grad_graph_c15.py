# Corpus program, written for gradsh (no code copied). Modelled on FromEssence's notebook
# "Pytorch梯度计算图保留" (keeping the gradient's graph), AI_Pytorch repository:
# https://github.com/FromEssence/AI_Pytorch/blob/master/PyTorch_Magic/create_grad_graph.ipynb
# Like the notebook: x = torch.ones(1) with x[0] = 2 and then x.requires_grad = True;
# y = 2*x*x*x; method 1: torch.autograd.grad(y, x, create_graph=True) for the first
# derivative (its .grad printed, None), then grad of that for the second; method 2:
# y.backward(create_graph=True, retain_graph=True), d1 = x.grad (a tensor with a grad_fn),
# x.grad reset to None before d1.backward(create_graph=True) so the second derivative is
# not added to the first; y.grad of the non-leaf (a warning, None); the notebook's second
# goal, gradient descent on the first derivative with torch.optim.SGD.
# Differences: the descent loop (announced by the notebook, not written out) is written
# here: 5 SGD steps minimising d1 = 6x^2; warnings go to stderr, which is not compared.
import torch
from torch.optim import SGD

x = torch.ones(1)
x[0] = 2
x.requires_grad = True
y = 2 * x * x * x

d1 = torch.autograd.grad(y, x, create_graph=True)[0]
print(d1.grad)
print('y关于x一阶导：', d1)
d2 = torch.autograd.grad(d1, x)[0]
print('y关于x二阶导：', d2)

x = torch.ones(1)
x[0] = 2
x.requires_grad = True
y = 2 * x * x * x
y.backward(create_graph=True, retain_graph=True)
d1 = x.grad
print('y关于x一阶导：', d1)
x.grad = None
d1.backward(create_graph=True)
print('y关于x二阶导：', x.grad)
print(d1)
print(y.grad)
print(x.grad.grad_fn is not None, x.grad.requires_grad, d1.is_leaf)

# 对一阶导函数做梯度下降 (gradient descent on the first derivative)
x = torch.tensor([2.0], requires_grad=True)
opt = SGD([x], lr=0.01)
for step in range(5):
    y = 2 * x * x * x
    d1 = torch.autograd.grad(y, x, create_graph=True)[0]
    opt.zero_grad()
    d1.backward()
    opt.step()
    print(step, 'd1 =', d1.item(), 'x =', x.data, 'x.grad =', x.grad)

x = torch.tensor([2.0], requires_grad=True)
y = 2 * x ** 3
g1, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g1, x, create_graph=True)
g3, = torch.autograd.grad(g2, x, create_graph=True)
print(g1, g2, g3)
print(torch.autograd.grad(g3, x, retain_graph=True))
try:
    torch.autograd.grad(g3, x)
    torch.autograd.grad(g3, x)
except RuntimeError as e:
    print('RuntimeError:', e)
