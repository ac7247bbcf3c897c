import torch


def names(t):
    out, node = [], t.grad_fn
    while node is not None:
        out.append(type(node).__name__)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[0] if following else None
    return out


def bits(t):
    return [float(v).hex() for v in t.detach().double().flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(3, 3, requires_grad=True)
v = torch.randn(3, requires_grad=True)
w = torch.randn(3, requires_grad=True)
cases = {
    "rot90": lambda: torch.rot90(x), "rot90_2": lambda: x.rot90(2), "rot90_-1": lambda: torch.rot90(x, -1),
    "rot90_0": lambda: torch.rot90(x, 0), "rot90_dims": lambda: torch.rot90(x, 1, [1, 0]),
    "vdot": lambda: torch.vdot(v, w), "diag_embed": lambda: torch.diag_embed(x),
    "diag_embed_off": lambda: torch.diag_embed(x, 1, 0, 2), "diagflat": lambda: torch.diagflat(x),
    "diagflat_v": lambda: v.diagflat(-1),
    "mp0": lambda: torch.matrix_power(x, 0), "mp1": lambda: x.matrix_power(1),
    "mp2": lambda: torch.matrix_power(x, 2), "mp3": lambda: torch.matrix_power(x, 3),
    "mp5": lambda: torch.matrix_power(x, 5), "mp-1": lambda: torch.matrix_power(x, -1),
    "cov": lambda: torch.cov(x), "cov0": lambda: x.cov(correction=0), "cov_v": lambda: torch.cov(v),
    "corrcoef": lambda: torch.corrcoef(x), "trapezoid": lambda: torch.trapezoid(x),
    "trapezoid_dx": lambda: torch.trapezoid(x, dx=0.5, dim=0), "trapz_x": lambda: torch.trapz(x, v),
    "trapezoid_x2": lambda: torch.trapezoid(x, x), "cumtrapz": lambda: torch.cumulative_trapezoid(x),
    "cumtrapz_x": lambda: torch.cumulative_trapezoid(x, v, dim=1),
}
for name, make in cases.items():
    x.grad = v.grad = w.grad = None
    out = make()
    weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape)
    (out * weights).sum().backward()
    print(name, tuple(out.shape), out.dtype, names(out))
    if name not in ("mp-1", "cov_v"):  # gradsh's inverse and 1-row mm: not yet torch's bits
        print("  ", bits(out))
        print("  grads", [bits(t.grad) if t.grad is not None else None for t in (x, v, w)])
print(x.is_same_size(torch.ones(3, 3)), x.is_same_size(v))
for bad in (lambda: torch.rot90(v), lambda: torch.rot90(x, 1, [0, 0]), lambda: torch.vdot(x, v),
            lambda: torch.matrix_power(torch.ones(2, 3), 2), lambda: torch.diag_embed(v, 0, 0, 0)):
    try:
        bad()
    except RuntimeError as error:
        print("error:", error)
with torch.no_grad():
    print(torch.chain_matmul(x, x, x))
