import torch

torch.manual_seed(0)
x = torch.randn(5, 3, requires_grad=True)
for p in (2, 1, 3, 0.5, float("inf"), 0):
    x.grad = None
    d = torch.pdist(x, p)
    (d * torch.linspace(-1, 1, d.numel())).sum().backward()
    print(p, d, type(d.grad_fn).__name__, x.grad)
y = torch.randn(3, 4, requires_grad=True)
for dim in (0, 1, -1):
    y.grad = None
    out = torch.logcumsumexp(y, dim)
    (out * torch.linspace(-1, 1, out.numel()).reshape(out.shape)).sum().backward()
    print(dim, out, type(out.grad_fn).__name__, y.grad)
print(y.logcumsumexp(0).shape, torch.logcumsumexp(torch.tensor([0.0, float("-inf"), 1.0]), 0))
print(torch.nn.functional.pdist(torch.ones(3, 2)))
