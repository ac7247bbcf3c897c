"""F.group_norm / nn.GroupNorm's float32 forward against PyTorch 2.13's bits
(vecmath/groupnorm.py: RowwiseMoments per group, rstd in double, fma(scale, x, fma(-scale,
mean, beta))); affine or not, 1-D to 4-D inputs, groups of one channel to all of them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F32 = np.float32

CASES = [((4, 8, 5, 5), 2, True), ((2, 6, 7, 3), 3, True), ((3, 32, 8, 8), 4, True),
         ((4, 8, 5, 5), 2, False), ((2, 4, 3), 2, True), ((16, 64, 14, 14), 32, True),
         ((2, 6), 3, True), ((5, 12, 9), 12, True), ((2, 16, 3, 3), 1, False)]


@pytest.mark.parametrize("shape, groups, affine", CASES, ids=str)
def test_group_norm_forward_is_torchs(torch: Any, shape: tuple[int, ...], groups: int,
                                      affine: bool) -> None:
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(F32)
    params = ([rng.standard_normal(shape[1]).astype(F32) for _ in range(2)] if affine else [])
    outs = []
    for module in (torch, gtorch):
        y = module.nn.functional.group_norm(module.from_numpy(x),
                                            groups, *[module.from_numpy(p) for p in params])
        outs.append(y.numpy())
    assert (outs[0].view(np.uint32) == outs[1].view(np.uint32)).all()


def test_group_norm_module_is_torchs(torch: Any) -> None:
    """nn.GroupNorm(4, 8) (weight 1, bias 0 by default) gives torch's bits too."""
    outputs = []
    for module in (torch, gtorch):
        module.manual_seed(0)
        norm = module.nn.GroupNorm(4, 8)
        x = module.from_numpy(np.random.default_rng(3).standard_normal((6, 8, 5, 5)).astype(F32))
        outputs.append(norm(x).detach().numpy())
    assert (outputs[0].view(np.uint32) == outputs[1].view(np.uint32)).all()
