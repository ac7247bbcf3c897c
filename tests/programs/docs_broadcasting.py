# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs note
# "Broadcasting semantics", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/notes/broadcasting.rst
# Like the note: same shapes broadcast; a tensor with no dimensions does not (x = empty((0,)),
# y = empty(2, 2)); trailing dimensions lined up ((5, 3, 4, 1) and (3, 1, 1)); the resulting
# size rule ((5, 1, 4, 1) + (3, 1, 1) -> (5, 3, 4, 1), (1) + (3, 1, 7) -> (3, 1, 7)); the
# failing case (5, 2, 4, 1) + (3, 1, 1); in-place ops that may not change the in-place
# tensor's shape (x.add_(y) with x (5, 3, 4, 1) works, x (1, 3, 1) fails); the "backwards
# compatibility" example of pointwise ops on tensors with the same number of elements;
# gradients of broadcast operands summed back to their shapes.
# Differences: our own code; the errors are caught and printed; torch.broadcast_shapes and
# broadcast_tensors are added.
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty((0,))
y = torch.empty(2, 2)
try:
    print((x + y).size())
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
try:
    (x + y).size()
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 1, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())

x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print(x.add_(y).size())
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    x.add_(y)
except RuntimeError as e:
    print("RuntimeError:", e)

print(torch.add(torch.ones(4, 1), torch.randn(4)).size())
print(torch.broadcast_shapes((2,), (3, 1), (1, 1, 1)))
try:
    torch.broadcast_shapes((2, 3), (3, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
a, b = torch.broadcast_tensors(torch.arange(3.0), torch.arange(2.0).view(2, 1))
print(a)
print(b, b.stride())

w = torch.ones(3, 1, requires_grad=True)
v = torch.ones(1, 4, requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
out = (w * v + s).sum()
out.backward()
print(w.grad.shape, w.grad.view(-1), v.grad, s.grad)
print(torch.ones(2, 3).expand(4, 2, 3).shape)
try:
    torch.ones(2, 3).expand(2, 4)
except RuntimeError as e:
    print("RuntimeError:", e)
