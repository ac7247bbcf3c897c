# Corpus program modelled on the Stack Overflow question "PyTorch torch.max over multiple
# dimensions" (https://stackoverflow.com/questions/61156894) and its answers: torch.amax over a
# tuple of dims, successive max(dim) calls with keepdim, flatten + argmax and the index turned
# back into coordinates (// and %, then torch.unravel_index), and the namedtuple torch.max
# returns (values, indices; unpacking; .values on the result).
# Changed: a seed and small sizes. Written for gradsh.
import torch

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5)
print(torch.amax(x, dim=(2, 3)))
print(x.amax(dim=(-2, -1), keepdim=True).shape)
m, _ = x.max(dim=3, keepdim=True)
m, _ = m.max(dim=2, keepdim=True)
print(torch.equal(m, x.amax(dim=(2, 3), keepdim=True)))
res = torch.max(x.flatten(start_dim=-2), dim=-1)
print(res)
print(type(res).__name__, isinstance(res, tuple), len(res), res.values is res[0])
vals, idx = res
print(idx // 5, idx % 5)
rows, cols = torch.unravel_index(idx, (4, 5))
print(rows)
print(cols)
print(torch.equal(x[0, 1, rows[0, 1], cols[0, 1]], vals[0, 1]))
print(torch.unravel_index(torch.tensor(37), (4, 5, 2)))
flat = x.view(x.size(0), -1).argmax(1)
print(flat, torch.unravel_index(flat, x.shape[1:]))
print(torch.max(x), x.max().item() == x.amax().item())
t = torch.tensor([[1, 5, 5], [7, 2, 7]])
print(t.max(dim=1))
print(t.argmax(dim=1), t.amax(dim=0), t.amin(dim=(0, 1)))
print(torch.aminmax(x[0, 0]))
print(torch.max(t, torch.full_like(t, 4)))
y = torch.tensor([[0.5, 2.0, 2.0], [1.0, -1.0, 1.0]], requires_grad=True)
y.amax(dim=1).sum().backward()
print(y.grad)
y.grad = None
y.max(dim=1).values.sum().backward()
print(y.grad)
y.grad = None
y.max().backward()
print(y.grad)
