"""F.group_norm / nn.GroupNorm in float32 against PyTorch 2.13's bits (vecmath/groupnorm.py):
the forward (RowwiseMoments per group, rstd in double, fma(scale, x, fma(-scale, mean, beta)))
and the backward (input, weight and bias gradients, at one and two threads: the group sums' tail
is another code in parallel_for's threads); affine or not, 1-D to 4-D inputs, groups of one
channel to all of them, group widths with every remainder modulo 8."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F32 = np.float32

CASES = [((4, 8, 5, 5), 2, True), ((2, 6, 7, 3), 3, True), ((3, 32, 8, 8), 4, True),
         ((4, 8, 5, 5), 2, False), ((2, 4, 3), 2, True), ((16, 64, 14, 14), 32, True),
         ((2, 6), 3, True), ((5, 12, 9), 12, True), ((2, 16, 3, 3), 1, False),
         ((3, 30, 7, 7), 2, True), ((2, 26, 5, 5), 2, False), ((2, 40, 9), 4, True),
         ((3, 24, 8, 8), 2, True), ((3, 14, 5, 5), 2, True), ((2, 22, 4, 5), 2, True),
         ((1, 12, 3, 3), 1, True), ((64, 32, 16, 16), 8, True)]


@pytest.mark.parametrize("shape, groups, affine", CASES, ids=str)
def test_group_norm_is_torchs(torch: Any, thread_count: int, shape: tuple[int, ...],
                              groups: int, affine: bool) -> None:
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(F32)
    params = ([rng.standard_normal(shape[1]).astype(F32) for _ in range(2)] if affine else [])
    dy = rng.standard_normal(shape).astype(F32)
    results = []
    for module in (torch, gtorch):
        leaves = [module.from_numpy(a.copy()).requires_grad_() for a in [x, *params]]
        y = module.nn.functional.group_norm(leaves[0], groups, *leaves[1:])
        y.backward(module.from_numpy(dy))
        results.append([y.detach().numpy()] + [t.grad.numpy() for t in leaves])
    for theirs, ours in zip(*results, strict=True):
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()


def test_group_norm_module_is_torchs(torch: Any) -> None:
    """nn.GroupNorm(4, 8) (weight 1, bias 0 by default) gives torch's bits too."""
    outputs = []
    for module in (torch, gtorch):
        module.manual_seed(0)
        norm = module.nn.GroupNorm(4, 8)
        x = module.from_numpy(np.random.default_rng(3).standard_normal((6, 8, 5, 5)).astype(F32))
        outputs.append(norm(x).detach().numpy())
    assert (outputs[0].view(np.uint32) == outputs[1].view(np.uint32)).all()


@pytest.mark.parametrize(("shape", "groups"), [
    ((4, 6, 5, 5), 3), ((2, 8, 7), 4), ((3, 12, 3, 3), 3), ((1, 4, 33), 2), ((2, 20, 6), 4),
    ((5, 6), 3), ((2, 32, 4, 4), 4), ((2, 18, 5), 3), ((2, 14, 5), 2)])
def test_float64_group_norm_bits(torch: Any, thread_count: int, shape: tuple[int, ...],
                                 groups: int) -> None:
    """float64 group norm through F.group_norm: the output and the three gradients (the
    kernel's steps on 4-double vectors; ds by map2_reduce_all, its partial block fused)."""
    rng = np.random.default_rng(sum(shape) + groups)
    x, dy = rng.standard_normal(shape), rng.standard_normal(shape)
    w, b = rng.standard_normal(shape[1]), rng.standard_normal(shape[1])
    for affine in (False, True):
        results = []
        for module in (torch, gtorch):
            leaf = module.from_numpy(x.copy()).requires_grad_()
            params = [module.from_numpy(p.copy()).requires_grad_() for p in (w, b)]
            out = module.nn.functional.group_norm(leaf, groups, *(params if affine else ()))
            out.backward(module.from_numpy(dy))
            results.append([out.detach().numpy(), leaf.grad.numpy()]
                           + ([p.grad.numpy() for p in params] if affine else []))
        for theirs, mine in zip(*results, strict=True):
            assert (mine == theirs).all()


# (shape, groups, affine, how the input gets its channels-last strides): HxW under 1024, from
# 1024 (the forward's second kernel) and from 2048 (the backward's too); group widths of 2, 3, 4,
# 10, 16 and 24 channels (whole 8-lane blocks and partial ones)
CHANNELS_LAST = [((4, 64, 4, 4), 32, True, "permute"), ((2, 32, 5, 5), 8, True, "format"),
                 ((2, 48, 3, 3), 3, False, "format"), ((1, 40, 6, 6), 4, True, "permute"),
                 ((2, 16, 32, 32), 4, True, "format"), ((1, 12, 48, 48), 3, True, "format"),
                 ((2, 20, 46, 46), 5, False, "format"), ((2, 24, 3, 4, 5), 1, True, "format3d"),
                 ((3, 6, 9, 1), 2, True, "format")]


@pytest.mark.parametrize("shape, groups, affine, how", CHANNELS_LAST, ids=str)
def test_channels_last_group_norm_is_torchs(torch: Any, thread_count: int,
                                            shape: tuple[int, ...], groups: int, affine: bool,
                                            how: str) -> None:
    """An input whose strides suggest channels_last takes ATen's channels-last kernels
    (vecmath/groupnorm_cl.py): output, its layout, and every gradient, bit for bit. "permute" is
    an attention block's (N, HW, C).permute(0, 2, 1).view(N, C, H, W)."""
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(F32)
    params = ([rng.standard_normal(shape[1]).astype(F32) for _ in range(2)] if affine else [])
    dy = rng.standard_normal(shape).astype(F32)
    results = []
    for module in (torch, gtorch):
        leaves = [module.from_numpy(a.copy()).requires_grad_() for a in [x, *params]]
        if how == "permute":
            n, c, h, w = shape
            rows = leaves[0].permute(0, 2, 3, 1).reshape(n, h * w, c)
            inp = rows.permute(0, 2, 1).view(n, c, h, w)
        else:
            fmt = module.channels_last_3d if how == "format3d" else module.channels_last
            inp = leaves[0].contiguous(memory_format=fmt)
        y = module.nn.functional.group_norm(inp, groups, *leaves[1:])
        y.backward(module.from_numpy(dy))
        results.append([y.stride()] + [y.detach().numpy()] + [t.grad.numpy() for t in leaves])
    assert results[0][0] == results[1][0]
    for theirs, ours in zip(results[0][1:], results[1][1:], strict=True):
        assert (theirs.view(np.uint32) == ours.view(np.uint32)).all()
