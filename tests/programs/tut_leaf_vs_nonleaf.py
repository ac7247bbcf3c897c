# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Understanding requires_grad, retain_grad, Leaf, and Non-leaf Tensors", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/understanding_leaf_vs_nonleaf_tutorial.py
# Like the original: x, W, b, y made with torch.ones ((1, 3), (3, 2), (1, 2), (1, 2)), W and b
# with requires_grad=True; z = x @ W + b, y_pred = F.relu(z), loss = F.mse_loss(y_pred, y);
# self-documenting f-strings {x.is_leaf=}, {z.requires_grad=}, {W.grad=} before and after
# backward; z.grad read on a non-leaf (None, with a warning on stderr); the forward pass
# re-run with retain_grad() on z, y_pred and loss, W.grad = None, and every gradient printed;
# the two errors the tutorial quotes (backward without requires_grad, retain_grad on x).
# Differences: our own code; the quoted errors are run, caught and printed; the summary
# table's four cases are checked with retains_grad.
import torch
import torch.nn.functional as F

x = torch.ones(1, 3)
W = torch.ones(3, 2, requires_grad=True)
b = torch.ones(1, 2, requires_grad=True)
y = torch.ones(1, 2)

z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)

print(f"{x.is_leaf=}")
print(f"{z.is_leaf=}")
print(f"{x.requires_grad=}")
print(f"{W.requires_grad=}")
print(f"{z.requires_grad=}")

loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{x.grad=}")
print(f"{y.grad=}")
print(f"{z.grad=}")

z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)
z.retain_grad()
y_pred.retain_grad()
loss.retain_grad()
W.grad = None
b.grad = None
loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{z.grad=}")
print(f"{y_pred.grad=}")
print(f"{loss.grad=}")

for name, t in [("x", x), ("W", W), ("b", b), ("z", z), ("y_pred", y_pred), ("loss", loss)]:
    print(f"{name:7s} is_leaf={t.is_leaf!s:5s} requires_grad={t.requires_grad!s:5s} "
          f"retains_grad={t.retains_grad!s:5s} grad={type(t.grad).__name__}")

x2 = torch.ones(1, 3)
W2 = torch.ones(3, 2)
try:
    F.mse_loss(F.relu(x2 @ W2), y).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.retain_grad()
except RuntimeError as e:
    print("RuntimeError:", e)
W.retain_grad()
print(W.retains_grad)
x.requires_grad_(True)
print(x.is_leaf, x.requires_grad)
z.requires_grad_(True)
try:
    z.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
