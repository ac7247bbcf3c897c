import torch


def names(t):
    out, node = [], t.grad_fn
    while node is not None:
        out.append(type(node).__name__)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[-1] if following else None
    return out


torch.manual_seed(0)
inp = torch.randn(3, requires_grad=True)
m = torch.randn(3, 4, requires_grad=True)
v = torch.randn(4, requires_grad=True)
u = torch.randn(3, requires_grad=True)
b1 = torch.randn(2, 3, 5, requires_grad=True)
b2 = torch.randn(2, 5, 4, requires_grad=True)
big = torch.randn(3, 4, requires_grad=True)
for name, make in [
    ("addmv", lambda: torch.addmv(inp, m, v)),
    ("addmv_ab", lambda: inp.addmv(m, v, beta=0.5, alpha=2)),
    ("addr", lambda: torch.addr(big, u, v)),
    ("addr_bcast", lambda: torch.addr(v, u, v, alpha=3)),
    ("addbmm", lambda: torch.addbmm(big, b1, b2)),
    ("addbmm_ab", lambda: big.addbmm(b1, b2, beta=2, alpha=0.5)),
    ("addmv_inplace", lambda: inp.clone().addmv_(m, v)),
    ("addr_inplace", lambda: big.clone().addr_(u, v)),
    ("addbmm_inplace", lambda: big.clone().addbmm_(b1, b2, beta=0)),
]:
    for t in (inp, m, v, u, b1, b2, big):
        t.grad = None
    out = make()
    weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape)
    (out * weights).sum().backward()
    print(name, tuple(out.shape), names(out), out)
    print([None if t.grad is None else t.grad.sum().item().__round__(4) for t in (inp, m, v, u, b1, b2, big)])
for bad in (lambda: torch.addmv(inp, m, u), lambda: torch.addr(big, m, v),
            lambda: torch.addbmm(big, b1, b1)):
    try:
        bad()
    except RuntimeError as error:
        print(error)
