# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch documentation
# note "Out Notes" (https://pytorch.org/docs/stable/notes/out.html, docs/source/notes/out.rst:
# an out= tensor without elements is resized, one of another shape is resized with a
# deprecation warning, the result is "safe copied" into out's dtype but never to a lower type
# kind, out= with tensors that need grad is not supported) and the out= examples of
# torch.add, torch.matmul and torch.cat.
# Written for gradsh; errors are printed.
import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])

out = torch.empty(3)
result = torch.add(a, b, out=out)
print(result is out, out)

empty = torch.empty(0)
torch.mul(a, b, out=empty)
print(empty, empty.shape)

wrong = torch.zeros(2)
torch.sub(a, b, out=wrong)
print(wrong)

wide = torch.empty(3, dtype=torch.float64)
torch.add(a, b, out=wide)
print(wide)
ints = torch.empty(3, dtype=torch.long)
try:
    torch.add(a, b, out=ints)
except RuntimeError as err:
    print("RuntimeError:", err)
torch.add(ints.fill_(1), 2, out=ints)
print(ints)

m = torch.arange(6.0).reshape(2, 3)
prod = torch.empty(2, 2)
torch.matmul(m, m.t(), out=prod)
print(prod)
joined = torch.empty(6)
torch.cat([a, b], out=joined)
print(joined)
total = torch.empty(())
torch.sum(m, dim=(0, 1), out=total)
print(total)
values, indices = torch.empty(2), torch.empty(2, dtype=torch.long)
print(torch.max(m, 1, out=(values, indices)))

w = torch.ones(3, requires_grad=True)
try:
    torch.mul(w, 2, out=torch.empty(3))
except RuntimeError as err:
    print("RuntimeError:", err)
with torch.no_grad():
    scaled = torch.mul(w, 2, out=torch.empty(3))
print(scaled, scaled.requires_grad)
