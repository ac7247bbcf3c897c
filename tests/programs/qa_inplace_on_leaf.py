# Corpus program, written for gradsh (no code copied). Modelled on two PyTorch forum threads:
# "Leaf variable was used in an inplace operation" (answer explaining leaves, x += 1 failing,
# clone() and torch.no_grad() as the two ways out):
# https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308/2
# and "Inplace operation changes is_leaf attribute" (a list of in-place attempts on a leaf,
# each in try/except: +=, out=, add_, index_copy_, through detach(), through a slice view):
# https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297
# Written for gradsh; the exception messages are printed in full; seeded.
import torch

torch.manual_seed(0)

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

c = torch.randn(2, 3, requires_grad=True)
attempts = {
    "c += 1": lambda: c.__iadd__(1),
    "torch.add(c, 1, out=c)": lambda: torch.add(c, 1, out=c),
    "c.add_(1)": lambda: c.add_(1),
    "c.index_copy_": lambda: c.index_copy_(1, torch.tensor([0]), torch.randn(2, 1)),
    "c.mul_(2)": lambda: c.mul_(2),
}
for text, attempt in attempts.items():
    try:
        attempt()
        print(text, "worked")
    except RuntimeError as e:
        print(text, "->", e)

d = c.detach()
d += 1
print(c.is_leaf, c)
try:
    c[:] += 1
    print("c[:] += 1 worked", c.is_leaf)
except RuntimeError as e:
    print("c[:] += 1 ->", e)
