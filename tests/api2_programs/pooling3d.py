import torch


def bits(t):
    return [float(v).hex() for v in t.detach().double().flatten().tolist()]


torch.manual_seed(0)
print(torch.nn.MaxPool3d(2), torch.nn.MaxPool3d(3, 2, 1, ceil_mode=True), torch.nn.AdaptiveAvgPool3d((2, None, 1)))
x = torch.randn(2, 3, 5, 6, 7, requires_grad=True)
with torch.no_grad():
    x[0, 0, 0, 0, 1] = x[0, 0, 0, 0, 0]  # a tie
for name, make in [
    ("max2", lambda: torch.nn.MaxPool3d(2)(x)),
    ("max3s2p1c", lambda: torch.nn.MaxPool3d(3, 2, 1, ceil_mode=True)(x)),
    ("max_dil", lambda: torch.nn.functional.max_pool3d(x, (2, 3, 2), (1, 2, 1), 0, (2, 1, 1))),
    ("avg_adapt", lambda: torch.nn.AdaptiveAvgPool3d((2, None, 3))(x)),
    ("avg_adapt1", lambda: torch.nn.functional.adaptive_avg_pool3d(x[0], 1)),
]:
    x.grad = None
    out = make()
    weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape)
    (out * weights).sum().backward()
    print(name, tuple(out.shape), type(out.grad_fn).__name__, bits(out)[:40], bits(x.grad)[:200])
out, idx = torch.nn.functional.max_pool3d(x, 2, return_indices=True)
print(idx.flatten()[:20], idx.dtype)
with torch.no_grad():
    print(torch.nn.MaxPool3d(2, return_indices=True)(x[:, :1])[1].flatten()[:10])
