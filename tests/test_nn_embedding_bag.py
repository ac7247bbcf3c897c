"""nn.EmbeddingBag and F.embedding_bag against PyTorch: sum, mean and max bags, offsets and
2-D input, include_last_offset, padding_idx, per_sample_weights, empty bags, max_norm,
scale_grad_by_freq; initial
weights, reprs, values and gradients; gradients against float64 finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine import ops
from tests.gradcheck import check_grads

IDS = [1, 2, 4, 5, 4, 3, 2, 9]
CASES: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "mean": ({"mode": "mean"}, IDS, [0, 4]),
    "sum": ({"mode": "sum"}, IDS, [0, 3]),
    "max": ({"mode": "max"}, IDS, [0, 5]),
    "empty_bag": ({"mode": "mean"}, IDS, [0, 4, 8]),
    "last_offset": ({"mode": "sum", "include_last_offset": True}, IDS, [0, 3, 8]),
    "padding": ({"mode": "mean", "padding_idx": 4}, IDS, [0, 4]),
    "fixed_length": ({"mode": "sum"}, [[1, 2, 4], [3, 4, 4]], None),
    "max_norm": ({"mode": "sum", "max_norm": 1.0}, IDS, [0, 4]),
    "per_sample": ({"mode": "sum"}, IDS, [0, 2]),
    # ATen divides by counts[sorted_indices[group number]] (not the index's own count)
    "grad_by_freq": ({"mode": "mean", "include_last_offset": True, "scale_grad_by_freq": True},
                     IDS, [0, 3, 8]),
    "grad_by_freq_sum": ({"mode": "sum", "scale_grad_by_freq": True}, [3, 3, 1, 7, 3, 1],
                         [0, 2]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_embedding_bag_matches_torch(torch: Any, name: str) -> None:
    kwargs, ids, offsets = CASES[name]
    seen = []
    for t in (torch, gtorch):
        t.manual_seed(0)
        bag = t.nn.EmbeddingBag(10, 3, **kwargs)
        initial = bag.weight.detach().numpy().copy()
        call = [t.tensor(ids)] + ([] if offsets is None else [t.tensor(offsets)])
        weights = None
        if name == "per_sample":
            weights = t.tensor(np.linspace(0.5, 2.0, len(IDS)).astype(np.float32),
                               requires_grad=True)
            call.append(weights)
        out = bag(*call)
        (out * t.arange(out.numel(), dtype=t.float32).view(out.shape)).sum().backward()
        seen.append((repr(bag), initial, out.grad_fn.name(), out.detach().numpy(),
                     bag.weight.grad.numpy(), None if weights is None else weights.grad.numpy(),
                     bag.weight.detach().numpy()))
    expected, got = seen
    assert got[0] == expected[0] and got[2] == expected[2]
    np.testing.assert_array_equal(got[1], expected[1])
    for g, e in zip(got[3:], expected[3:], strict=True):
        if e is None:
            assert g is None
        else:
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_embedding_bag_gradients_are_the_derivative(mode: int) -> None:
    ids = ops.tensor([0, 2, 1, 2, 3])
    offsets = ops.tensor([0, 2])
    rng = np.random.default_rng(2)
    check_grads(lambda w: ops.embedding_bag(w, ids, offsets, False, mode)[0],
                rng.standard_normal((4, 3)))


def test_per_sample_weight_gradients_are_the_derivative() -> None:
    ids, offsets = ops.tensor([0, 2, 1, 2, 3]), ops.tensor([0, 3])
    rng = np.random.default_rng(4)
    check_grads(lambda w, p: ops.embedding_bag(w, ids, offsets, False, 0, False, p)[0],
                rng.standard_normal((4, 3)), rng.standard_normal(5))


@pytest.mark.parametrize("call", [
    lambda F, t: F.embedding_bag(t.tensor([[1, 2]]), t.ones(4, 2), t.tensor([0])),
    lambda F, t: F.embedding_bag(t.tensor([1, 2]), t.ones(4, 2)),
    lambda F, t: F.embedding_bag(t.tensor([1, 2]), t.ones(4, 2), t.tensor([0]), mode="min"),
    lambda F, t: F.embedding_bag(t.tensor([1, 2]), t.ones(4, 2), t.tensor([0]), mode="mean",
                                 per_sample_weights=t.ones(2)),
])
def test_embedding_bag_errors_match_torch(torch: Any, call: Any) -> None:
    caught = []
    for t in (torch, gtorch):
        with pytest.raises(Exception) as info:
            call(t.nn.functional, t)
        caught.append((type(info.value).__name__, str(info.value).replace("gradsh.", "")))
    assert caught[1][0] == caught[0][0]
    assert caught[1][1].split("found")[0] == caught[0][1].split("found")[0]
