"""torch.cdist against PyTorch 2.13's bits (gradsh/engine/functions/distance.py): the p-norm
kernel (DistanceOpsKernel.cpp: per pair a serial sum in the dtype, glibc's pow, the
backward's SLEEF pow; for p = 2 the sum GCC vectorised: squares of 8-float blocks added lane
by lane, a 4-block, the rest fused) and,
for p = 2 past 25 rows, _euclidean_dist's matrix product (ATen's sums, MKL's gemm, the
engine's sqrt) with its backward; float32 and float64, batched and broadcast inputs, one and
two threads."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

CASES = [((7, 5), (9, 5)), ((30, 8), (20, 8)), ((2, 40, 30), (2, 50, 30)),
         ((3, 6, 4), (1, 4, 4)), ((20, 3), (26, 3))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, 0.5, 1.5, float("inf"), 0.0])
def test_cdist_bits(torch: Any, thread_count: int, dtype: str, p: float) -> None:
    import gradsh.torch as gtorch

    rng = np.random.default_rng(int(p * 10) if p != float("inf") else 99)
    for shape1, shape2 in CASES:
        a = rng.standard_normal(shape1).astype(dtype)
        b = rng.standard_normal(shape2).astype(dtype)
        modes = ["use_mm_for_euclid_dist_if_necessary"]
        if p == 2.0:
            modes = ["use_mm_for_euclid_dist"]
            modes += ["donot_use_mm_for_euclid_dist", "use_mm_for_euclid_dist_if_necessary"]
        for mode in modes:
            results = []
            for lib in (torch, gtorch):
                x1, x2 = (lib.from_numpy(v.copy()).requires_grad_() for v in (a, b))
                out = lib.cdist(x1, x2, p=p, compute_mode=mode)
                grad = np.cos(np.arange(out.numel())).reshape(tuple(out.shape)).astype(dtype)
                out.backward(lib.from_numpy(grad))
                results.append([out.detach().numpy(), x1.grad.numpy(), x2.grad.numpy()])
            for what, theirs, ours in zip(("out", "grad x1", "grad x2"), *results):
                assert (ours == theirs).all(), (shape1, mode, what)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cdist_p2_kernel_any_column_count(torch: Any, thread_count: int, dtype: str) -> None:
    """The per-pair p = 2 kernel (few rows, or donot_use_mm) for 1 to 70 columns and a few
    wide ones: GCC's vector blocks (8 and 4 floats, 4 and 2 doubles, each square rounded and
    its lanes added in order), the remaining columns fused; output and both gradients."""
    import gradsh.torch as gtorch

    rng = np.random.default_rng(42)
    for m in [*range(1, 71), 100, 129, 300]:
        a = rng.standard_normal((6, m)).astype(dtype)
        b = rng.standard_normal((7, m)).astype(dtype)
        results = []
        for lib in (torch, gtorch):
            x1, x2 = (lib.from_numpy(v.copy()).requires_grad_() for v in (a, b))
            out = lib.cdist(x1, x2)
            out.backward(lib.from_numpy(np.sin(np.arange(42.0)).reshape(6, 7).astype(dtype)))
            results.append([out.detach().numpy(), x1.grad.numpy(), x2.grad.numpy()])
        for what, theirs, ours in zip(("out", "grad x1", "grad x2"), *results):
            assert (ours.view(f"u{ours.itemsize}") == theirs.view(f"u{ours.itemsize}")).all(), \
                (m, what)
