"""nn.utils.parametrize.transfer_parametrizations_and_params and cached() against PyTorch: the
parametrized tensors, the shared originals (one and several), the parameter names, and the
values through a cached() block (PyTorch's steps)."""

from __future__ import annotations

import numpy as np

import gradsh.torch as gt


def _run(torch):
    P = torch.nn.utils.parametrize  # noqa: N806

    class Symmetric(torch.nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).mT

    class Split(torch.nn.Module):  # two originals
        def forward(self, a, b):
            return a + b

        def right_inverse(self, x):
            return x * 0.25, x * 0.75

    torch.manual_seed(0)
    source = torch.nn.Linear(3, 3)
    P.register_parametrization(source, "weight", Symmetric())
    P.register_parametrization(source, "bias", Split())
    target = torch.nn.Linear(3, 3)
    P.transfer_parametrizations_and_params(source, target)
    fresh = P.transfer_parametrizations_and_params(source, torch.nn.Identity(), "weight")
    with P.cached():
        cached_twice = (target.weight is target.weight)
        value = target.weight.detach().numpy().copy()
    same_original = (target.parametrizations.weight.original
                     is source.parametrizations.weight.original)
    same_split = (target.parametrizations.bias.original1
                  is source.parametrizations.bias.original1)
    names = sorted(n for n, _ in target.named_parameters())
    return (cached_twice, same_original, same_split, names, P.is_parametrized(fresh, "weight"),
            [value, target.bias.detach().numpy(), fresh.weight.detach().numpy()])


def test_transfer_and_cached_match_pytorch(torch):
    *theirs, their_values = _run(torch)
    *ours, our_values = _run(gt)
    assert ours == theirs
    for a, b in zip(our_values, their_values, strict=True):
        assert np.array_equal(a, b)
