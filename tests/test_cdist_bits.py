"""torch.cdist against PyTorch 2.13's bits (gradsh/engine/functions/distance.py): the p-norm
kernel (DistanceOpsKernel.cpp: per pair a serial sum in the dtype, glibc's pow, the
backward's SLEEF pow; for p = 2 the sum GCC vectorised, modelled for few columns only) and,
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
            # the kernel's p = 2 sum is modelled up to 5 columns (distance._squares_sum)
            if shape1[-1] <= 5:
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
