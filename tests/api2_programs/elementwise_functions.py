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
x = torch.randn(2, 3, requires_grad=True)
e = torch.tensor([[1, -2, 3], [0, 5, -1]])
for name, make in {
    "float_power": lambda: torch.float_power(x, 2), "float_power_t": lambda: x.float_power(e),
    "float_power_n": lambda: torch.float_power(2, x), "ldexp": lambda: torch.ldexp(x, e),
    "ldexp_m": lambda: x.ldexp(e), "nextafter": lambda: torch.nextafter(x, torch.zeros(2, 3)),
    "frexp": lambda: torch.frexp(x)[0], "amin": lambda: torch.aminmax(x)[0],
    "amax_dim": lambda: x.aminmax(dim=1)[1], "amin_keep": lambda: torch.aminmax(x, dim=0, keepdim=True)[0],
}.items():
    x.grad = None
    out = make()
    weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape).to(out.dtype)
    (out * weights).sum().backward()
    print(name, tuple(out.shape), out.dtype, names(out), bits(out), bits(x.grad))
print(torch.frexp(x))
print(torch.aminmax(torch.tensor([[1., 3., 3.], [2., 2., 0.]]), dim=1))
t = torch.tensor([1.0, 1.0, 0.5], requires_grad=True)
lo, hi = torch.aminmax(t)
(lo + 2 * hi).backward()
print(t.grad)
print(torch.gcd(torch.tensor([-4, 6, 0]), torch.tensor([6, -9, 0])), torch.lcm(torch.tensor([-4, 6, 0]), torch.tensor([6, -9, 0])))
a = torch.tensor([12, 18]); a.gcd_(torch.tensor([8, 12])); print(a)
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5])), torch.isin(torch.tensor([1., 2]), 2., invert=True))
print(torch.unravel_index(torch.tensor([4, 7]), (2, 4)), torch.unravel_index(torch.tensor(5), (3, 2)))
d = torch.tensor([2., 3.], dtype=torch.float64); d.float_power_(2); print(d)
print(torch.ldexp(torch.tensor([1, 2]), torch.tensor([1, 2])), torch.tensor(3.).is_nonzero())
print(x.hardshrink(0.3), x.prelu(torch.tensor([0.25])).grad_fn.name())
for bad in (lambda: torch.gcd(torch.tensor([1.]), torch.tensor([2.])),
            lambda: torch.tensor([2., 3.]).float_power_(2), lambda: torch.ones(2).is_nonzero()):
    try:
        bad()
    except (RuntimeError, NotImplementedError) as error:
        print(type(error).__name__, error)
