# Source: source article 000 (../shared/seeds/000_48724cdbf51f10f2.txt, a Chinese blog post on
# leaf tensors and retain_grad); ours: its two code examples written out as one program.
# Changes: the article prints each example on one line; here they are split into statements
# as written. Reading y.grad (a non-leaf) prints None and PyTorch's warning on stderr; the
# grad_fn reprs print an address, which the harness masks.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y + 1
z.backward()
print(x.grad)
print(y.grad)
print(x.is_leaf)
print(y.is_leaf)
print(x.grad_fn)
print(y.grad_fn)

# 获得非叶节点的梯度 (getting the gradient of non-leaf nodes)
x = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
w = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(1, 10)
y = w @ x
x.retain_grad()
w.retain_grad()
y.backward()
print(x.is_leaf)
print(w.is_leaf)
print(x.grad)
print(w.grad)
