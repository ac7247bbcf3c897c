# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow
# question "Autograd.grad() for Tensor in pytorch" and its answer (torch.autograd.grad of an
# MSELoss, then the "grad can be implicitly created only for scalar outputs" error for a
# non-scalar output, fixed with grad_outputs), and the many questions about the same error
# from y.backward() (fixed with a gradient argument or a reduction to a scalar):
# https://stackoverflow.com/questions/54754153
# Written for gradsh; the error is caught and printed.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

y.backward(torch.ones_like(y), retain_graph=True)
print(x.grad)
x.grad.zero_()
y.sum().backward(retain_graph=True)
print(x.grad)
x.grad.zero_()
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)

m = torch.ones(2, 2, requires_grad=True)
out = m @ m
try:
    out.backward(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
out.backward(gradient=torch.ones(2, 2))
print(m.grad)

s = torch.tensor(2.0, requires_grad=True)
(s ** 3).backward()
print(s.grad)
v1 = torch.tensor([5.0], requires_grad=True)
(v1 * 4).backward()
print(v1.grad)

from torch.autograd import grad

x = torch.ones(2, 2, requires_grad=True)
gt = torch.ones_like(x) * 16 - 0.5
v = x + 2
y = v ** 2
loss = torch.nn.MSELoss()(y, gt)
print(f"Loss: {loss}")
print(f"dloss/dx:\n {grad(outputs=loss, inputs=x, retain_graph=True)}")
try:
    grad(outputs=y, inputs=x, retain_graph=True)
except RuntimeError as err:
    print(err)
print(grad(outputs=y, inputs=x, grad_outputs=torch.ones_like(y)))
