# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum threads
# "How to define a leaf tensor in PyTorch 0.4.1"
# (https://discuss.pytorch.org/t/how-to-define-a-leaf-tensor-in-pytorch-0-4-1/28461: y = x * 2
# with x requiring grad is not a leaf, while y.requires_grad = True on a result of
# non-grad tensors makes a new leaf; the order of requires_grad and an op matters) and
# "Leaf variable was used in an inplace operation"
# (https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308/2: w, x
# and y = x + 1, x += 1 raising, x.clone() then += 1, torch.no_grad() for the update), plus
# the error "you can only change requires_grad flags of leaf variables" when turning grad off
# on a non-leaf, and requires_grad on an integer tensor.
# Differences: our own code; each error caught and printed.
import torch

x = torch.tensor([1.0], requires_grad=True)
y = x * 2
print(y, y.is_leaf)
x = torch.tensor([1.0])
y = x * 2
print(y)
y.requires_grad = True
print(y, y.is_leaf)

x = torch.tensor([1.0, 2.0])
x.requires_grad = True
z = x.float()
print(z is x, z.is_leaf)
z2 = x.double()
print(z2.is_leaf, z2.grad_fn)

w = torch.tensor([1.0, 2.0, 3.0])
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x + 1
print(w.is_leaf, x.is_leaf, y.is_leaf)
try:
    x += 1
except RuntimeError as e:
    print("RuntimeError:", e)
x2 = x.clone()
x2 += 1
print(x2)
with torch.no_grad():
    x += 1
print(x, x.requires_grad, x.is_leaf)

try:
    y.requires_grad = False
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
y.requires_grad_(True)
print(y.requires_grad)
d = y.detach()
d.requires_grad_()
print(d.is_leaf, d.requires_grad)
try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
i = torch.tensor([1, 2, 3])
try:
    i.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
p = torch.nn.Parameter(torch.ones(2))
print(p.is_leaf, p.requires_grad)
q = p * 1
print(type(q).__name__, q.is_leaf)
p.requires_grad = False
print(p)
