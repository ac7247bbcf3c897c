"""ATen's float32 and float64 group norm on the CPU (group_norm_kernel.cpp), bit for bit, for a
contiguous (N, C, *) input of G groups of D = C / G channels of HxW elements (float64: the
same steps on 4-double vectors, ds by map2_reduce_all with its partial block fused, the lanes
folded left to right).

Forward: each group's mean and variance from RowwiseMoments (vecmath/layernorm.py's
`moments`); rstd = 1 / sqrt(max(var, 0) + eps) in double (eps is a double there), rounded to
float. Without weight and bias y = (x - mean) * rstd; with them, per channel scale = rstd * gamma
and bias = fma(-scale, mean, beta), y = fma(scale, x, bias).

Backward: per (sample, channel) ds = sum(dy * x) and db = sum(dy) by vec::reduce_all (products
rounded first); per group ds_val, db_val = the channels' ds * gamma, db * gamma: 8-lane fused
accumulators over whole vectors of channels, the lanes added in order from 0, then the other
channels one at a time (GCC's code where parallel_for runs inline, at one thread or one row: a
first 4 of them rounded and added, the rest fused; the code its threads run: all fused);
c2 = fma(db_val, mean, -ds_val) * rstd * rstd * rstd * s (s = 1 / (D * HxW) in float),
c3 = fma(-(db_val * rstd), s, -(c2 * mean)), dx = fma(rstd * gamma, dy, c2 * x) + c3;
dgamma[c] = fma(fma(-db, mean, ds), rstd, dgamma[c]) and dbeta[c] += db, over the samples in
order. Each fused step was found by probing torch (the only choice that matched on every shape
tested: tests/test_groupnorm_bits.py).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import layernorm
from gradsh.engine.vecmath.fp import F32
from gradsh.engine.vecmath.layernorm import _dot_rows, _fma, _lanes, _sum_rows


def forward(x: np.ndarray, groups: int, gamma: np.ndarray | None, beta: np.ndarray | None,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GroupNormKernelImplInternal on float32 or float64 contiguous (N, C, *): (y, mean,
    rstd), the statistics of shape (N, G)."""
    n, c = x.shape[0], x.shape[1]
    rows = x.reshape(n * groups, -1)
    mean, var = layernorm.moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(x.dtype)
    if gamma is None and beta is None:
        y = (rows - mean[:, None]) * rstd[:, None]
        return y.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)
    per = c // groups
    g = np.ones(c, x.dtype) if gamma is None else gamma
    b = np.zeros(c, x.dtype) if beta is None else beta
    scale = rstd.reshape(n, groups, 1) * g.reshape(groups, per)  # (N, G, D)
    shift = _fma(-scale, mean.reshape(n, groups, 1), b.reshape(groups, per))
    channels = x.reshape(n, groups, per, -1)
    y = _fma(scale[..., None], channels, shift[..., None])
    return y.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)


def _weighted_sums(values: np.ndarray, gamma: np.ndarray, serial: bool) -> np.ndarray:
    """CalcDsDb and its tail: per row of (rows, D) the sum of values * gamma, (rows,)."""
    rows, per = values.shape
    width = _lanes(values.dtype)
    whole = per - per % width
    lanes = np.zeros((rows, width), values.dtype)
    for j in range(0, whole, width):
        lanes = _fma(values[:, j:j + width], gamma[:, j:j + width], lanes)
    total = np.zeros(rows, values.dtype)
    for lane in range(width):
        total = total + lanes[:, lane]
    rest = per - whole
    for j in range(whole, per):
        if serial and rest >= width // 2 and j - whole < width // 2:
            # GCC's half-width epilogue in the code parallel_for runs inline (the code its
            # threads run fuses every step), the products rounded, then added
            total = total + values[:, j] * gamma[:, j]
        else:
            total = _fma(values[:, j], gamma[:, j], total)
    return total


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
             gamma: np.ndarray | None, threads: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GroupNormBackwardKernelImplInternal on float32 or float64 contiguous (N, C, *) with
    mean and rstd of (N, G): (dx, dgamma, dbeta), the last two of (C,)."""
    n, c = x.shape[0], x.shape[1]
    groups = mean.shape[1]
    per = c // groups
    size = x.size // max(n * c, 1)
    dy_rows, x_rows = dy.reshape(n * c, size), x.reshape(n * c, size)
    # float: the products rounded, then summed; double: map2_reduce_all (a partial last block
    # fused into the lanes)
    ds = _sum_rows(dy_rows * x_rows) if x.dtype == F32 else _dot_rows(dy_rows, x_rows)
    db = _sum_rows(dy_rows)
    t = x.dtype.type
    g = np.ones(c, x.dtype) if gamma is None else gamma
    g_rows = np.broadcast_to(g.reshape(1, groups, per), (n, groups, per)).reshape(n * groups, per)
    # (at::parallel_for runs one row, or one thread, inline: the serial code)
    serial = threads == 1 or n * groups <= 1
    ds_val = _weighted_sums(ds.reshape(n * groups, per), g_rows, serial)
    db_val = _weighted_sums(db.reshape(n * groups, per), g_rows, serial)
    m, r = mean.reshape(-1), rstd.reshape(-1)
    s = t(1) / t(per * size)
    c2 = ((_fma(db_val, m, -ds_val) * r) * r) * r * s
    c3 = _fma(-(db_val * r), s, -(c2 * m))
    shape = (n * groups, per, size)
    c1 = (r[:, None] * g_rows)[..., None]
    dx = _fma(c1, dy.reshape(shape), c2[:, None, None] * x.reshape(shape))
    dx = dx + c3[:, None, None]
    dgamma, dbeta = gamma_beta_backward(ds.reshape(n, c), db.reshape(n, c), mean, rstd)
    return dx.reshape(x.shape), dgamma, dbeta


def gamma_beta_backward(ds: np.ndarray, db: np.ndarray, mean: np.ndarray,
                        rstd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """GammaBackward and BetaBackward from the per (sample, channel) ds and db of (N, C) and
    the statistics of (N, G): both memory formats' kernels end so."""
    n, c = ds.shape
    per = c // mean.shape[1]
    m_c, r_c = np.repeat(mean, per, axis=1), np.repeat(rstd, per, axis=1)  # (N, C)
    dgamma = np.zeros(c, ds.dtype)
    dbeta = np.zeros(c, ds.dtype)
    for i in range(n):
        dgamma = _fma(_fma(-db[i], m_c[i], ds[i]), r_c[i], dgamma)
        dbeta = dbeta + db[i]
    return dgamma, dbeta
