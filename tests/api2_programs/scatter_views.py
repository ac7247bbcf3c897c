import torch


def bits(t):
    return [float(v).hex() for v in t.detach().double().flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
s = torch.randn(4, requires_grad=True)
for name, make, src in [
    ("select_scatter", lambda: torch.select_scatter(x, s, 0, 1), s),
    ("select_scatter_neg", lambda: x.select_scatter(s[:3], 1, -1), s),
    ("slice_scatter", lambda: torch.slice_scatter(x, s.view(2, 2).repeat(3, 1)[:3], 1, 0, 4, 2), s),
    ("slice_scatter_rows", lambda: torch.slice_scatter(x, s.expand(2, 4), start=1), s),
    ("diagonal_scatter", lambda: torch.diagonal_scatter(x, s[:3], 1), s),
    ("diagonal_scatter_neg", lambda: x.diagonal_scatter(s[:2], -1), s),
    ("narrow_copy", lambda: x.narrow_copy(1, 1, 2), None),
    ("put", lambda: x.put(torch.tensor([0, -1, 5]), s[:3]), s),
    ("put_acc", lambda: torch.put(x, torch.tensor([0, 0, 5]), s[:3], accumulate=True), s),
]:
    x.grad = s.grad = None
    out = make()
    weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape)
    (out * weights).sum().backward()
    print(name, tuple(out.shape), type(out.grad_fn).__name__, bits(out), bits(x.grad),
          None if src is None else bits(src.grad))
y = x.detach().clone()
y.put_(torch.tensor([1, 1]), torch.tensor([1., 2.]), accumulate=True)
print(y)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True,
                               return_counts=True))
print(torch.tensor([[1., 1.], [1., 0.]]).unique_consecutive(return_counts=True))
print(x.new_empty_strided((2, 3), (3, 1)).shape)
for bad in (lambda: torch.select_scatter(x, torch.ones(3), 1, 5),
            lambda: torch.diagonal_scatter(x, torch.ones(2), 1),
            lambda: torch.select_scatter(x, torch.ones(4, 1), 0, 1),
            lambda: x.put(torch.tensor([12]), torch.tensor([1.]))):
    try:
        bad()
    except (RuntimeError, IndexError) as error:
        print(type(error).__name__, error)
