# Corpus program, written for gradsh (no code copied). Modelled on 龙良曲 (Liangqu Long)'s
# Chinese course "深度学习与PyTorch入门实战" lessons on gradients, as published in
# https://github.com/dragen1860/Deep-Learning-with-PyTorch-Tutorials (lesson 29-31: 激活函数与
# Loss的梯度, 感知机的梯度推导, 链式法则; lesson 32: 2D函数优化实例 Himmelblau):
# F.mse_loss(torch.ones(1), x * w) before and after w.requires_grad_() (the "element 0 of
# tensors does not require grad" error, then autograd.grad), mse.backward() and w.grad, the
# softmax gradient rows with autograd.grad(p[1], [a], retain_graph=True) and p[2], a single-
# output and a multi-output perceptron's grads (sigmoid, mse), the chain rule dy2/dx1 checked
# against dy2/dy1 * dy1/dx1, and the Himmelblau function minimised with Adam from [0, 0],
# printing 'step {}: x = {}, f(x) = {}'.
# Differences: 2,000 Adam steps printed every 200 instead of 20,000 every 2,000; seeded; the
# matplotlib surface plot is left out (the grid it plots is built and its shape printed).
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.ones(1)
w = torch.full([1], 2.)
mse = F.mse_loss(torch.ones(1), x * w)
print(mse)
try:
    torch.autograd.grad(mse, [w])
except RuntimeError as e:
    print("RuntimeError:", e)
w.requires_grad_()
try:
    torch.autograd.grad(mse, [w])
except RuntimeError as e:
    print("RuntimeError:", e)
mse = F.mse_loss(torch.ones(1), x * w)
print(mse, torch.autograd.grad(mse, [w]))
mse = F.mse_loss(torch.ones(1), x * w)
mse.backward()
print(w.grad, w.norm(), w.grad.norm())

a = torch.rand(3)
a.requires_grad_()
p = F.softmax(a, dim=0)
print(p)
try:
    p.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
p = F.softmax(a, dim=0)
print(torch.autograd.grad(p[1], [a], retain_graph=True))
print(torch.autograd.grad(p[2], [a]))

x = torch.randn(1, 10)
w = torch.randn(1, 10, requires_grad=True)
o = torch.sigmoid(x @ w.t())
print(o.shape)
loss = F.mse_loss(torch.ones(1, 1), o)
print(loss.shape, loss)
loss.backward()
print(w.grad)

x = torch.randn(1, 10)
w = torch.randn(2, 10, requires_grad=True)
o = torch.sigmoid(x @ w.t())
print(o.shape)
loss = F.mse_loss(torch.ones(1, 2), o)
print(loss)
loss.backward()
print(w.grad)

x = torch.tensor(1.)
w1 = torch.tensor(2., requires_grad=True)
b1 = torch.tensor(1.)
w2 = torch.tensor(2., requires_grad=True)
b2 = torch.tensor(1.)
y1 = x * w1 + b1
y2 = y1 * w2 + b2
dy2_dy1 = torch.autograd.grad(y2, [y1], retain_graph=True)[0]
dy1_dw1 = torch.autograd.grad(y1, [w1], retain_graph=True)[0]
dy2_dw1 = torch.autograd.grad(y2, [w1], retain_graph=True)[0]
print(dy2_dy1 * dy1_dw1)
print(dy2_dw1)


def himmelblau(x):
    return (x[0] ** 2 + x[1] - 11) ** 2 + (x[0] + x[1] ** 2 - 7) ** 2


gx = np.arange(-6, 6, 0.1)
gy = np.arange(-6, 6, 0.1)
print('x,y range:', gx.shape, gy.shape)
X, Y = np.meshgrid(gx, gy)
print('X,Y maps:', X.shape, Y.shape)
Z = himmelblau([X, Y])
print(Z.min(), Z.max())

for start in ([0., 0.], [4., 0.], [-4., 0.]):
    x = torch.tensor(start, requires_grad=True)
    optimizer = torch.optim.Adam([x], lr=1e-2)
    for step in range(2000):
        pred = himmelblau(x)
        optimizer.zero_grad()
        pred.backward()
        optimizer.step()
        if step % 200 == 0:
            print('step {}: x = {}, f(x) = {}'.format(step, x.tolist(), pred.item()))
    print(x, himmelblau(x))
