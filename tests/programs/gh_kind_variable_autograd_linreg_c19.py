# Corpus program, written for gradsh (no code copied). Modelled on GunhoChoi's
# Kind-PyTorch-Tutorial (PyTorch 0.2 era), 02_Variable_Autograd/Variable_Autograd.ipynb and
# 03_Linear_Regression/Linear_Regression.ipynb:
# https://github.com/GunhoChoi/Kind-PyTorch-Tutorial/blob/master/02_Variable_Autograd/Variable_Autograd.ipynb
# https://github.com/GunhoChoi/Kind-PyTorch-Tutorial/blob/master/03_Linear_Regression/Linear_Regression.ipynb
# Like the notebooks: Variable(tensor) and its .data / .grad / .requires_grad,
# Variable(x, requires_grad=True), Variable(x, volatile=True) (the flag has no effect now:
# its warning, and .volatile reads False), y = x**2 + 4*x, z = 2*y + 3, z.backward(gradient),
# x.grad and the non-leaf y.grad / z.grad (None); the linear regression: init.normal /
# init.uniform (the deprecated aliases) for noise and inputs, y_noise = 2*(x + noise) + 3,
# nn.Linear(1, 1), L1Loss, SGD(lr=0.01), print(loss) every 10 iterations,
# loss.data.numpy()[0] (a 0-d array now: its IndexError caught, then .item()),
# list(model.parameters()) printed.
# Differences: seeded; the uninitialised FloatTensor(3, 4) operands are random here;
# 200 data points and 300 iterations instead of 1000 and 1000, the loss printed every 30.
import warnings

import torch
import torch.nn as nn
import torch.nn.init as init
import torch.optim as optim
from torch.autograd import Variable

warnings.simplefilter("ignore")
torch.manual_seed(0)
x_tensor = torch.randn(3, 4)
x_variable = Variable(x_tensor)
print(x_variable)
print(x_variable.data)
print(x_variable.grad)
print(x_variable.requires_grad)
x_variable = Variable(x_tensor, requires_grad=True)
print(x_variable.requires_grad, x_variable.is_leaf, x_variable is x_tensor)
x_variable = Variable(x_tensor, volatile=True)
print((x_variable.grad, x_variable.requires_grad, x_variable.volatile))

x = Variable(torch.randn(3, 4), requires_grad=True)
y = x ** 2 + 4 * x
z = 2 * y + 3
print((x.requires_grad, y.requires_grad, z.requires_grad))
print(z.grad_fn, z.grad_fn.next_functions[0][0], y.grad_fn.next_functions)
gradient = torch.rand(3, 4)
z.backward(gradient)
print(x.grad)
print((y.grad, z.grad))
print(torch.allclose(x.grad, gradient * (4 * x.data + 8)))

num_data = 200
num_epoch = 300
noise = init.normal(torch.FloatTensor(num_data, 1), std=0.2)
x = init.uniform(torch.Tensor(num_data, 1), -10, 10)
y = 2 * x + 3
y_noise = 2 * (x + noise) + 3
print(x[:3], noise.std(), y_noise.mean())

model = nn.Linear(1, 1)
output = model(Variable(x))
loss_func = nn.L1Loss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
loss_arr = []
label = Variable(y_noise)
for i in range(num_epoch):
    output = model(Variable(x))
    optimizer.zero_grad()
    loss = loss_func(output, label)
    loss.backward()
    optimizer.step()
    if i % 30 == 0:
        print(loss)
    try:
        loss_arr.append(loss.data.numpy()[0])
    except IndexError as e:
        if i == 0:
            print("IndexError:", e, repr(loss.data.numpy()))
        loss_arr.append(loss.item())
param_list = list(model.parameters())
print(param_list[0].data, param_list[1].data)
print(len(loss_arr), min(loss_arr), loss_arr[-1])
