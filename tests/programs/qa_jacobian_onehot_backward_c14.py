# Corpus program modelled on the Stack Overflow question "Why pytorch autograd need another
# vector to backward instead of computing Jacobian?" and its answer, which builds the Jacobian
# column by column with backward(v, retain_graph=True) on one-hot vectors:
# https://stackoverflow.com/questions/63816321
# Changed: a seed; a nonlinear function next to the answer's y = 2x, checked against
# torch.autograd.functional.jacobian. Written for gradsh.
import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
J = torch.zeros(x.shape[0], x.shape[0])
for i in range(x.shape[0]):
    v = torch.tensor([1 if j == i else 0 for j in range(x.shape[0])], dtype=torch.float)
    y.backward(v, retain_graph=True)
    J[:, i] = x.grad
    x.grad.zero_()
print(J)

y = x ** 2 * torch.tensor([0.1, 1.0, 0.0001])
y.backward(torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad)
x.grad = None

z = torch.stack([x[0] * x[1], x[1].sin(), x[2].exp() * x[0]])
rows = []
for i in range(3):
    v = torch.zeros(3)
    v[i] = 1
    g, = torch.autograd.grad(z, x, v, retain_graph=True)
    rows.append(g)
print(torch.stack(rows))
print(torch.autograd.functional.jacobian(
    lambda t: torch.stack([t[0] * t[1], t[1].sin(), t[2].exp() * t[0]]), x))
try:
    z.backward()
except RuntimeError as e:
    print(e)
