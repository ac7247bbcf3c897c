"""ATen's float32 group norm forward on the CPU (group_norm_kernel.cpp), bit for bit, for a
contiguous (N, C, *) input.

Each of the N * G groups (D = C / G channels of HxW elements, contiguous) takes its mean and
variance from RowwiseMoments (vecmath/layernorm.py's `moments`); rstd = 1 / sqrt(max(var, 0)
+ eps) in double (eps is a double there), rounded to float. Without weight and bias
y = (x - mean) * rstd; with them, per channel scale = rstd * gamma and bias = fma(-scale, mean,
beta), y = fma(scale, x, bias). The fused steps were found by probing torch (each the only
choice that matched on every shape tested).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import layernorm
from gradsh.engine.vecmath.fp import F32, fma32


def forward(x: np.ndarray, groups: int, gamma: np.ndarray | None, beta: np.ndarray | None,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GroupNormKernelImplInternal on float32 contiguous (N, C, *): (y, mean, rstd), the
    statistics of shape (N, G)."""
    n, c = x.shape[0], x.shape[1]
    rows = x.reshape(n * groups, -1)
    mean, var = layernorm.moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, F32(0)).astype(np.float64) + eps)).astype(F32)
    if gamma is None and beta is None:
        y = (rows - mean[:, None]) * rstd[:, None]
        return y.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)
    per = c // groups
    g = np.ones(c, F32) if gamma is None else gamma
    b = np.zeros(c, F32) if beta is None else beta
    scale = rstd.reshape(n, groups, 1) * g.reshape(groups, per)  # (N, G, D)
    shift = fma32(-scale, np.broadcast_to(mean.reshape(n, groups, 1), scale.shape),
                  np.broadcast_to(b.reshape(groups, per), scale.shape))
    channels = x.reshape(n, groups, per, -1)
    y = fma32(np.broadcast_to(scale[..., None], channels.shape), channels,
              np.broadcast_to(shift[..., None], channels.shape))
    return y.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)
