# scatter/gather checks in ATen's order (scatter_meta_impl): index dtype, src dtype, numbers of
# dimensions, sizes against self and src, then bounds; neither takes a negative index.
import torch
src = torch.arange(1, 11).reshape((2, 5))
idx = torch.tensor([[0, 1, 2], [0, 1, 4]])
cases = [
    ("dtype+oob", lambda f: f(torch.zeros(3, 5), 0, idx, src)),
    ("float idx", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 0, idx.float(), src)),
    ("float idx+dtype", lambda f: f(torch.zeros(3, 5), 0, idx.float(), src)),
    ("dims", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 0, torch.tensor([0, 1]), src)),
    ("dims+dtype", lambda f: f(torch.zeros(3, 5), 0, torch.tensor([0, 1]), src)),
    ("oob", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 0, idx, src)),
    ("neg oob", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 1, -idx - 1, src)),
    ("big index", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 1, torch.zeros(3, 5, dtype=torch.long), src)),
    ("bad dim", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 2, idx, src)),
    ("scalar value", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 0, idx, 1.5)),
    ("int32 idx", lambda f: f(torch.zeros(3, 5, dtype=torch.long), 1, idx.int(), src)),
]
for name, fn in cases:
    for f in (torch.scatter, torch.Tensor.scatter_, torch.Tensor.scatter, torch.scatter_add, torch.Tensor.scatter_add_):
        try:
            r = fn(f)
            print(name, f.__name__, "ok", r.sum().item())
        except Exception as e:
            print(name, f.__name__, type(e).__name__, e)
for name, fn in cases:
    for f in (torch.scatter_reduce, torch.Tensor.scatter_reduce_):
        try:
            r = fn(lambda *a: f(*a, "sum"))
            print(name, f.__name__, "ok", r.sum().item())
        except Exception as e:
            print(name, f.__name__, type(e).__name__, e)
t = torch.arange(6.).reshape(2, 3)
for idx in [torch.tensor([[-1, 0]]), torch.tensor([[3, 0], [0, 5]]), torch.tensor([[0, 1, 2, 0]])]:
    try:
        print(torch.gather(t, 1, idx))
    except RuntimeError as e:
        print(type(e).__name__, e)
print(torch.scatter(torch.zeros(2, 2), 1, torch.tensor([[0, 1, 1]]), 2.0))
