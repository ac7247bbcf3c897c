# Python ints beyond int64 as arguments: PyTorch's parser takes a Scalar below 2**64 as an
# unsigned number and raises PyLong_AsUnsignedLongLong's OverflowError beyond; int64 parameters
# (randint's bounds, manual_seed) and t[i] = v raise "Overflow when unpacking long long".
import torch
t = torch.tensor([1, 2])
f = torch.tensor([1.5, 2.0])
cases = [
    ("tensor(2**63)", lambda: torch.tensor(2**63)),
    ("tensor(-2**63)", lambda: torch.tensor(-2**63)),
    ("tensor(-2**63-1)", lambda: torch.tensor(-2**63 - 1)),
    ("tensor([1, 2**64])", lambda: torch.tensor([1, 2**64])),
    ("tensor(2**63, float)", lambda: torch.tensor(2**63, dtype=torch.float32)),
    ("tensor(2**70, float64)", lambda: torch.tensor(2**70, dtype=torch.float64)),
    ("t + 2**64", lambda: t + 2**64),
    ("t + 2**63", lambda: t + 2**63),
    ("t * 2**63", lambda: t * 2**63),
    ("f + 2**64", lambda: f + 2**64),
    ("f * 2**100", lambda: f * 2**100),
    ("t - 2**63", lambda: t - 2**63),
    ("2**64 + t", lambda: 2**64 + t),
    ("t == 2**64", lambda: t == 2**64),
    ("t < 2**64", lambda: t < 2**64),
    ("full((1,), 2**70)", lambda: torch.full((1,), 2**70)),
    ("full((1,), 2**63)", lambda: torch.full((1,), 2**63)),
    ("full float 2**70", lambda: torch.full((1,), 2**70, dtype=torch.float32)),
    ("ones*2**70", lambda: torch.ones(2) * 2**70),
    ("t.fill_(2**64)", lambda: t.clone().fill_(2**64)),
    ("t[0] = 2**64", lambda: t.clone().__setitem__(0, 2**64)),
    ("f[0] = 2**64", lambda: f.clone().__setitem__(0, 2**64)),
    ("arange(2**64)", lambda: torch.arange(2**64)),
    ("clamp(t, max=2**64)", lambda: torch.clamp(t, max=2**64)),
    ("t.add(2**64)", lambda: t.add(2**64)),
    ("torch.add(t, 2**64)", lambda: torch.add(t, 2**64)),
    ("t // 2**64", lambda: t // 2**64),
    ("t ** 2**64", lambda: t ** 2**64),
    ("pow(2, 2**64)", lambda: torch.pow(2, torch.tensor(2**62))),
    ("t.new_full", lambda: t.new_full((2,), 2**64)),
    ("tensor(2**63-1)", lambda: torch.tensor(2**63 - 1)),
    ("randint(2**63)", lambda: torch.randint(0, 2**64, (2,))),
    ("t.masked_fill", lambda: t.masked_fill(t > 1, 2**64)),
    ("where", lambda: torch.where(t > 1, t, 2**64)),
    ("f.fill_(2**70)", lambda: f.clone().fill_(2**70)),
]
for name, fn in cases:
    try:
        print(name, "->", fn())
    except Exception as e:
        print(name, "->", type(e).__name__, e)
more = [
    ("t[0]=2**63", lambda: t.clone().__setitem__(0, 2**63)),
    ("f[0]=-2**64", lambda: f.clone().__setitem__(0, -2**64)),
    ("clamp min", lambda: f.clamp(min=-2**64)),
    ("t.fill_(2**63)", lambda: t.clone().fill_(2**63)),
    ("arange(2**63)", lambda: torch.arange(0, 2**63, 2**62)),
    ("arange(-2**64)", lambda: torch.arange(-2**64, 0)),
    ("f.fill_(-2**70)", lambda: f.clone().fill_(-2**70)),
    ("pow(f, 2**64)", lambda: torch.pow(f, 2**64)),
    ("pow(2**64, f)", lambda: torch.pow(2**64, f)),
    ("f.lerp", lambda: f.lerp(f, 2**64)),
    ("add alpha", lambda: t.add(t, alpha=2**64)),
    ("index_fill", lambda: t.index_fill(0, torch.tensor([0]), 2**64)),
    ("threshold", lambda: torch.threshold(f, 2**64, 1.0)),
    ("randint(2**63 high)", lambda: torch.randint(2**63, (2,))),
    ("t + 2**63 float", lambda: f + 2**63),
    ("manual_seed(2**64)", lambda: torch.manual_seed(2**64)),
    ("manual_seed(2**63)", lambda: torch.manual_seed(2**63).initial_seed()),
]
for name, fn in more:
    try:
        print(name, "->", fn())
    except Exception as e:
        print(name, "->", type(e).__name__, e)
