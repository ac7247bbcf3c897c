"""Where sorted values tie, torch.sort (stable=False, the default), argsort, msort and topk leave
the indices in the order libstdc++'s algorithms make (vecmath/stdsort.py): checked against
PyTorch on rows of 1 to 300 elements with few distinct values, NaN and signed zeros, along every
dim, ascending and descending, for float and integer dtypes; the compiled std::sort against its
Python steps; and stable=True, and 1-d integer sorts from 32,768 elements (radix), stay stable."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import native, stdsort


def _rows(seed: int, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    rows = []
    for case in range(count):
        n = int(rng.integers(1, 300))
        if case % 4 == 0:
            x = rng.integers(0, 4, n).astype(np.float32)
        elif case % 4 == 1:
            x = rng.integers(-3, 3, n).astype(np.int64)
        elif case % 4 == 2:
            x = rng.integers(0, 5, n).astype(np.float32)
            x[rng.random(n) < 0.2] = np.nan
            x[rng.random(n) < 0.1] = -0.0
        else:
            x = rng.standard_normal(n).round(1)
        rows.append(x)
    return rows


def test_sort_indices_match_pytorch(torch: Any) -> None:
    for case, x in enumerate(_rows(0, 600)):
        descending = case % 3 == 0
        expected = torch.from_numpy(x).sort(descending=descending)
        ours = gtorch.from_numpy(x).sort(descending=descending)
        assert np.array_equal(ours[1].numpy(), expected[1].numpy()), (case, x.size)
        assert ours[0].numpy().tobytes() == expected[0].numpy().tobytes()  # -0 before +0 ...
        assert np.array_equal(gtorch.from_numpy(x).argsort(descending=descending).numpy(),
                              torch.from_numpy(x).argsort(descending=descending).numpy())


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_along_each_dim(torch: Any, dim: int) -> None:
    rng = np.random.default_rng(dim + 5)
    for dtype in (np.float32, np.float64, np.int64, np.int32, np.uint8, np.bool_):
        x = rng.integers(0, 3, (40, 37)).astype(dtype)
        for descending in (False, True):
            theirs = torch.from_numpy(x).sort(dim=dim, descending=descending)[1].numpy()
            ours = gtorch.from_numpy(x).sort(dim=dim, descending=descending)[1].numpy()
            assert np.array_equal(ours, theirs), (dtype, descending)
    x = rng.integers(0, 3, (40, 37)).astype(np.float32)
    assert np.array_equal(gtorch.msort(gtorch.from_numpy(x)).numpy(),
                          torch.msort(torch.from_numpy(x)).numpy())


def test_stable_and_radix_sorts_stay_stable(torch: Any) -> None:
    rng = np.random.default_rng(2)
    x = rng.integers(0, 5, 200).astype(np.float32)
    stable = np.argsort(x, kind="stable")
    assert np.array_equal(gtorch.from_numpy(x).sort(stable=True)[1].numpy(), stable)
    assert not np.array_equal(gtorch.from_numpy(x).sort()[1].numpy(), stable)
    for n in (32767, 32768):
        y = rng.integers(0, 5, n)
        for descending in (False, True):
            assert np.array_equal(gtorch.from_numpy(y).sort(descending=descending)[1].numpy(),
                                  torch.from_numpy(y).sort(descending=descending)[1].numpy())


def test_gradient_goes_to_the_element_pytorch_picks(torch: Any) -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(0, 3, 30).astype(np.float32)
    grads = []
    for module in (gtorch, torch):
        t = module.tensor(x, requires_grad=True)
        t.sort()[0][:10].sum().backward()
        grads.append(t.grad.numpy())
    assert np.array_equal(grads[0], grads[1])


def test_topk_matches_pytorch(torch: Any) -> None:
    rng = np.random.default_rng(3)
    for case in range(600):
        n = int(rng.integers(1, 400))
        k = int(rng.integers(0, n + 1))
        largest, sorted_ = bool(case % 2), bool(case % 3)
        x = (rng.integers(0, 6, n).astype(np.float32) if case % 4
             else rng.standard_normal(n).astype(np.float32))
        if case % 5 == 0:
            x[rng.random(n) < 0.2] = np.nan
        theirs = torch.from_numpy(x).topk(k, largest=largest, sorted=sorted_)
        ours = gtorch.from_numpy(x).topk(k, largest=largest, sorted=sorted_)
        assert np.array_equal(ours[1].numpy(), theirs[1].numpy()), (n, k, largest, sorted_)
        assert ours[0].numpy().tobytes() == theirs[0].numpy().tobytes()
    x = rng.integers(0, 4, (6, 50)).astype(np.float32)
    for dim in (0, 1):
        assert np.array_equal(gtorch.from_numpy(x).topk(3, dim=dim, sorted=False)[1].numpy(),
                              torch.from_numpy(x).topk(3, dim=dim, sorted=False)[1].numpy())


def test_compiled_sort_matches_its_python_steps() -> None:
    if native.kernels is None:
        pytest.skip("gradsh's compiled kernels are not built")
    for case, x in enumerate(_rows(1, 300) + [np.zeros(3000), np.arange(2000) % 7,
                                              np.concatenate([np.arange(500), np.arange(500)])]):
        descending = case % 2 == 1
        compiled = stdsort.order(x, descending)
        kernels, native.kernels = native.kernels, None
        try:
            emulated = stdsort.order(x, descending)
        finally:
            native.kernels = kernels
        assert np.array_equal(compiled, emulated), case


def test_mode_reports_the_index_pytorch_reports(torch: Any) -> None:
    """mode's index ends the longest run in std::sort's order of (value, index) pairs."""
    rng = np.random.default_rng(4)
    for case in range(200):
        n = int(rng.integers(1, 120))
        x = rng.integers(0, 4, n).astype(np.float32 if case % 2 else np.int64)
        theirs = torch.from_numpy(x).mode()
        ours = gtorch.from_numpy(x).mode()
        assert (ours[0].item(), ours[1].item()) == (theirs[0].item(), theirs[1].item()), case
    x = rng.integers(0, 3, (5, 40)).astype(np.float32)
    for dim in (0, 1):
        assert np.array_equal(gtorch.from_numpy(x).mode(dim)[1].numpy(),
                              torch.from_numpy(x).mode(dim)[1].numpy())


def test_nanmedian_along_a_dim(torch: Any) -> None:
    """nanmedian(dim): values, indices (a row of NaN only: where nth_element leaves it),
    NanmedianBackward1 and its gradient, keepdim, integer input."""
    rng = np.random.default_rng(5)
    x = rng.integers(0, 4, (6, 9)).astype(np.float32)
    x[rng.random(x.shape) < 0.3] = np.nan
    x[2] = np.nan
    for dim, keepdim in ((1, False), (0, True), (-1, True)):
        results = []
        for module in (gtorch, torch):
            t = module.tensor(x, requires_grad=True)
            r = t.nanmedian(dim, keepdim=keepdim)
            r.values.sum().backward()
            results.append((r.values.detach().numpy(), r.indices.numpy(), t.grad.numpy(),
                            type(r.values.grad_fn).__name__, type(r).__name__))
        ours, theirs = results
        assert ours[0].tobytes() == theirs[0].tobytes()
        for a, b in zip(ours[1:], theirs[1:]):
            assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
    for n in range(1, 12):
        row = np.full(n, np.nan, np.float32)
        assert gtorch.from_numpy(row).nanmedian(0)[1].item() == \
            torch.from_numpy(row).nanmedian(0)[1].item()
    ints = np.arange(6).reshape(2, 3)
    assert np.array_equal(gtorch.from_numpy(ints).nanmedian(1)[1].numpy(),
                          torch.from_numpy(ints).nanmedian(1)[1].numpy())
