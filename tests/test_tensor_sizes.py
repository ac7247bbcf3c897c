"""One-element integer tensors where PyTorch's parser takes an int (a size element, a SymInt,
an int64): `torch.randint(1, C, (lengths.sum(),))` in the CTCLoss docs, `x.view(n, -1)`,
`torch.rand(n, 2)`, randperm / eye / linspace with a tensor count; and the errors where the
tensor is not one (float, several elements, 1-d for an int64). Compared with PyTorch, draws
included (each case after the same seed)."""

from __future__ import annotations

from call_outcomes import outcomes

import gradsh.torch as gt


def _cases(torch):
    def seeded(call):
        def run():
            torch.manual_seed(0)
            return call()
        return run

    n0, n1d, u8 = torch.tensor(3), torch.tensor([3]), torch.tensor(2, dtype=torch.uint8)
    f0, pair = torch.tensor(2.0), torch.tensor([2, 3])
    lengths = torch.tensor([2, 3])
    calls = [
        lambda: torch.randint(1, 5, (sum(lengths),)),
        lambda: torch.randint(low=1, high=5, size=(lengths.sum(),)),
        lambda: torch.randint(n0, (2,)),
        lambda: torch.rand(n0, 2),
        lambda: torch.randn((2, n1d)),
        lambda: torch.rand(u8),
        lambda: torch.zeros(n0, 2).shape,
        lambda: torch.empty(n1d, 1).shape,
        lambda: torch.full((u8,), 1.0),
        lambda: torch.zeros(6).view(n0, -1).shape,
        lambda: torch.zeros(6).view(-1, u8).shape,
        lambda: torch.zeros(6).reshape(n1d, -1).shape,
        lambda: torch.zeros(1).expand(n0, 2).shape,
        lambda: torch.zeros(2, 3).permute(n1d - 2, 0).shape,
        lambda: torch.zeros(1).new_zeros(n0, 2).shape,
        lambda: torch.randperm(n0),
        lambda: torch.randperm(u8),
        lambda: torch.eye(n0),
        lambda: torch.eye(u8, n0),
        lambda: torch.linspace(0, 1, n0),
        lambda: torch.linspace(0, 1, u8),
        # not an int: a float tensor, two elements, a 1-d tensor for an int64
        lambda: torch.rand(f0, 2),
        lambda: torch.randn((2, f0)),
        lambda: torch.zeros(6).view(pair, -1),
        lambda: torch.randint(0, 5, (pair,)),
        lambda: torch.randperm(f0),
        lambda: torch.eye(f0),
        lambda: torch.linspace(0, 1, n1d),
        lambda: torch.linspace(0, 1, f0),
    ]
    return outcomes(seeded(call) for call in calls)


def test_integer_tensors_as_sizes_match(torch):
    for i, (theirs, ours) in enumerate(zip(_cases(torch), _cases(gt), strict=True)):
        assert ours == theirs, i
