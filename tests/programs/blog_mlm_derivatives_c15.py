# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Calculating Derivatives in PyTorch" (Muhammad Asad Iqbal Khan, 2022):
# https://machinelearningmastery.com/calculating-derivatives-in-pytorch/
# Like the post: x = tensor(3.0, requires_grad=True), y = 3 * x ** 2, y.backward() and the
# derivative; the attributes of x and y ('data', 'grad', 'grad_fn', 'is_leaf',
# 'requires_grad') printed; y = 6x^2 + 2x + 4 at x = 3; partial derivatives of
# f = u**3 + v**2 + 4*u*v with respect to u and v; derivatives of a function evaluated on a
# linspace (y = x**2 summed) and of the ReLU; detach() before converting to numpy.
# Differences: plots replaced by printing the values; a few more attribute checks.
import torch
import numpy as np

x = torch.tensor(3.0, requires_grad=True)
print("creating a tensor x: ", x)
y = 3 * x ** 2
print("Result of the equation is: ", y)
y.backward()
print("Dervative of the equation at x = 3 is: ", x.grad)

print('data attribute of the tensor:', x.data)
print('grad attribute of the tensor::', x.grad)
print('grad_fn attribute of the tensor::', x.grad_fn)
print("is_leaf attribute of the tensor::", x.is_leaf)
print("requires_grad attribute of the tensor::", x.requires_grad)

print('data attribute of y:', y.data)
print('grad attribute of y:', y.grad)
print('grad_fn attribute of y:', y.grad_fn)
print("is_leaf attribute of y:", y.is_leaf)
print("requires_grad attribute of y:", y.requires_grad)

x = torch.tensor(3.0, requires_grad=True)
y = 6 * x ** 2 + 2 * x + 4
print("Result of the equation is: ", y)
y.backward()
print("Derivative of the equation at x = 3 is: ", x.grad)

u = torch.tensor(3., requires_grad=True)
v = torch.tensor(4., requires_grad=True)
f = u ** 3 + v ** 2 + 4 * u * v
print(u)
print(v)
print(f)
f.backward()
print("Partial derivative with respect to u: ", u.grad)
print("Partial derivative with respect to v: ", v.grad)

x = torch.linspace(-20, 20, 20, requires_grad=True)
Y = x ** 2
y = torch.sum(Y)
y.backward()
print("function values:", Y.detach().numpy().round(3))
print("derivatives:", x.grad.numpy().round(3))
print(x.grad)

x = torch.linspace(-3, 3, 7, requires_grad=True)
Y = torch.relu(x)
y = Y.sum()
y.backward()
print("relu:", Y.detach().numpy(), "derivative:", x.grad.numpy())
print(Y.grad_fn, y.grad_fn, Y.grad_fn.next_functions)
try:
    Y.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
print(type(x.detach().numpy()), x.detach().numpy().dtype, np.asarray(x.grad).sum())
