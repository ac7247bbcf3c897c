"""F.bilinear / nn.Bilinear against PyTorch's bits at one and two threads: at::_trilinear
step for step (functions/trilinear.py: per output feature sumproduct_pair's permutes, views
with ATen's strides and bmm; the input gradient adding the features' products in turn), the
three gradients as _trilinear_backward's three _trilinear calls; float32 and float64, 2-D and
3-D inputs, small products (bmm's own loop) and large ones (MKL)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

# (input batch shape, in1, in2, out)
SHAPES = [((8,), 5, 7, 6), ((1,), 3, 3, 2), ((32,), 20, 30, 10), ((2,), 100, 50, 4),
          ((4, 3), 9, 1, 3), ((64,), 16, 16, 16), ((2, 5), 33, 12, 7)]


def _run(lib: Any, lead: tuple[int, ...], sizes: tuple[int, int, int], dtype: str,
         bias: bool) -> list[np.ndarray]:
    i, j, o = sizes
    rng = np.random.default_rng(sum(lead) + i + j + o)
    arrays = [rng.standard_normal(s).astype(dtype)
              for s in (lead + (i,), lead + (j,), (o, i, j), (o,), lead + (o,))]
    x1, x2, w, b = (lib.from_numpy(a.copy()).requires_grad_() for a in arrays[:4])
    y = lib.nn.functional.bilinear(x1, x2, w, b if bias else None)
    y.backward(lib.from_numpy(arrays[4]))
    return [y.detach().numpy()] + [t.grad.numpy() for t in (x1, x2, w)] + (
        [b.grad.numpy()] if bias else [])


@pytest.mark.parametrize("lead, i, j, o", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bilinear_is_torchs(torch: Any, thread_count: int, lead: tuple[int, ...], i: int,
                            j: int, o: int, dtype: str) -> None:
    for bias in (True, False):
        ours, theirs = (_run(lib, lead, (i, j, o), dtype, bias) for lib in (gtorch, torch))
        for mine, want in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(mine, want)


def test_bilinear_module_trains_as_torch(torch: Any, one_thread: None) -> None:
    """nn.Bilinear under SGD for a few steps keeps every parameter's bits."""
    found = []
    for lib in (torch, gtorch):
        lib.manual_seed(0)
        layer = lib.nn.Bilinear(6, 4, 3)
        opt = lib.optim.SGD(layer.parameters(), lr=0.1)
        x1, x2 = lib.randn(10, 6), lib.randn(10, 4)
        for _ in range(3):
            opt.zero_grad()
            layer(x1, x2).pow(2).mean().backward()
            opt.step()
        found.append([p.detach().numpy().copy() for p in layer.parameters()])
    for theirs, ours in zip(*found, strict=True):
        np.testing.assert_array_equal(ours, theirs)
