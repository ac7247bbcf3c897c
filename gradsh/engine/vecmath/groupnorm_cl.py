"""ATen's float32 group norm on a channels-last input (group_norm_kernel.cpp,
GroupNormKernelImplChannelsLastInternal and its backward), bit for bit. PyTorch takes these
kernels whenever the input's suggested memory format is channels_last: a tensor made so, or
one whose strides happen to be NHWC (a permute(0, 2, 1).view(...) of (N, HW, C) data, as an
attention block over pixels returns). The data is seen as (N, HxW, C) rows; each group's D
channels are a strided column block. The AVX2 build runs them: 8-float vectors.

Forward, HxW < 1024 (impl-1, one (n, g) at a time, so any thread count): ColumnwiseMoments
sums x and x * x (the square rounded, then added) over the HxW rows into 8 lanes per block of
8 channels (a last partial block zero-padded), the lanes folded by vec_reduce_all's tree.
HxW >= 1024 (impl-2): each thread sums its share of the N * HxW rows per channel (x * x fused
into the sum), then per group the channels' sums are added in order, thread after thread.
Both then: mean = sum * s (s = 1 / (D * HxW) in float), var = fma(sumsq, s, -(mean * mean))
clamped at 0, rstd = 1 / sqrt(var + eps) in double, scale = rstd * gamma,
bias = fma(-scale, mean, beta), y = fma(x, scale, bias).

Backward, HxW < 2048 (impl-1): per block of 8 channels the sums of x * dy (rounded products)
and of dy over the rows, stored as ds and db; ds_gamma and db_gamma add each block's tree sum
of its lanes times gamma. HxW >= 2048 (impl-2): per thread share, per channel ds = fma(x, dy, ds),
db += dy; then per group and channel, thread after thread, ds_gamma += ds * gamma and
db_gamma += db * gamma (rounded products) and the channel's ds and db summed. Both then:
c2 = fma(db_gamma, mean, -ds_gamma) * rstd * rstd * rstd * s,
c3 = fma(-c2, mean, -(db_gamma * rstd * s)), dx = fma(c2, x, rstd * gamma * dy) + c3; dgamma
and dbeta as the contiguous kernel's (GammaBackward, BetaBackward: groupnorm.py). Each fused
step was found by probing torch (tests/test_groupnorm_bits.py).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.batchnorm import LANES, _tree
from gradsh.engine.vecmath.fp import F32, fma32

FORWARD_ROWS = 1024  # feature_map_threshold: impl-2 from this many HxW rows
BACKWARD_ROWS = 2048


def suggests_channels_last(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """TensorImpl's is_strides_like_channels_last(_3d) (is_channels_last_strides_2d/3d): the
    strides, read in NHWC (NDHWC) order from the channels, never decrease; an ambiguous N111
    is contiguous. suggest_memory_format() then names ChannelsLast(3d)."""
    if len(sizes) not in (4, 5) or strides[1] == 0:
        return False
    order = (1, 3, 2, 0) if len(sizes) == 4 else (1, 4, 3, 2, 0)
    low = 0
    for d in order:
        if sizes[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return False
        low = strides[d] * (sizes[d] if sizes[d] > 1 else 1)
    return True


def rows_of(data: np.ndarray) -> np.ndarray:
    """An (N, C, *) array's (N, HxW, C) rows: the dense channels-last data the kernels read
    (input.contiguous(memory_format) copies a non-dense one)."""
    n, c = data.shape[0], data.shape[1]
    moved = np.moveaxis(data, 1, -1)
    return np.ascontiguousarray(moved).reshape(n, -1, c)


def unrows(rows: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(N, HxW, C) rows back to an (N, C, *) array in the channels-last layout."""
    return np.moveaxis(rows.reshape((shape[0],) + tuple(shape[2:]) + (shape[1],)), -1, 1)


def _blocks(rows: np.ndarray, groups: int) -> np.ndarray:
    """(N, HxW, C) -> (N, G, HxW, B, 8): each group's channels in blocks of 8 lanes, the last
    block zero-padded (Vectorized::loadu of a partial vector)."""
    n, hw, c = rows.shape
    per = c // groups
    padded = -(-per // LANES) * LANES
    out = np.zeros((n, groups, hw, padded), rows.dtype)
    out[..., :per] = rows.reshape(n, hw, groups, per).transpose(0, 2, 1, 3)
    return out.reshape(n, groups, hw, padded // LANES, LANES)


def _shares(total: int, threads: int) -> list[range]:
    """at::parallel_for(0, total, 1)'s split of the rows among the threads (empty shares for
    threads with none)."""
    used = max(min(threads, total), 1)
    chunk = -(-total // used)
    return [range(min(total, t * chunk), min(total, (t + 1) * chunk)) for t in range(threads)]


def _channel_sums(a: np.ndarray, b: np.ndarray | None, n: int, hw: int,
                  threads: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """impl-2's per-thread buffers over the (N * HxW, C) rows: per sample the running sums of
    a (forward: x; backward: dy) and of a * b, fused (forward: b = a; backward: b = x)."""
    buffers = []
    for share in _shares(n * hw, threads):
        first = np.zeros((n, a.shape[1]), a.dtype)
        second = np.zeros((n, a.shape[1]), a.dtype)
        for i in share:
            s = i // hw
            first[s] = first[s] + a[i]
            second[s] = fma32(a[i], a[i] if b is None else b[i], second[s])
        buffers.append((first, second))
    return buffers


def forward(x: np.ndarray, groups: int, gamma: np.ndarray | None, beta: np.ndarray | None,
            eps: float, threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float32 (N, HxW, C) rows (a channels-last input's data): (y of the same shape, mean,
    rstd), the statistics of shape (N, G)."""
    n, hw, c = x.shape
    per = c // groups
    s = F32(1) / F32(per * hw)
    if hw < FORWARD_ROWS:
        blocks = _blocks(x, groups)
        seq = blocks.reshape(n, groups, -1, LANES)
        total = _tree(np.cumsum(seq, axis=2, dtype=F32)[:, :, -1])
        total_sq = _tree(np.cumsum(seq * seq, axis=2, dtype=F32)[:, :, -1])
    else:
        total = np.zeros((n, groups), F32)
        total_sq = np.zeros((n, groups), F32)
        buffers = _channel_sums(x.reshape(n * hw, c), None, n, hw, threads)
        for d in range(per):
            for first, second in buffers:
                total = total + first.reshape(n, groups, per)[:, :, d]
                total_sq = total_sq + second.reshape(n, groups, per)[:, :, d]
    mean = total * s
    var = np.maximum(fma32(total_sq, np.full_like(total_sq, s), -(mean * mean)), F32(0))
    rstd = (1.0 / np.sqrt(var.astype(np.float64) + eps)).astype(F32)
    g = np.ones(c, F32) if gamma is None else gamma
    b = np.zeros(c, F32) if beta is None else beta
    scale = rstd[..., None] * g.reshape(groups, per)  # (N, G, D)
    shift = fma32(-scale, np.broadcast_to(mean[..., None], scale.shape),
                  np.broadcast_to(b.reshape(groups, per), scale.shape))
    scale, shift = scale.reshape(n, 1, c), shift.reshape(n, 1, c)
    y = fma32(x, np.broadcast_to(scale, x.shape), np.broadcast_to(shift, x.shape))
    return y, mean, rstd


def _internal_gradients(dy: np.ndarray, x: np.ndarray, g: np.ndarray, groups: int,
                        threads: int) -> tuple[np.ndarray, ...]:
    """ds, db of (N, C) and ds_gamma, db_gamma of (N, G)."""
    n, hw, c = x.shape
    per = c // groups
    if hw < BACKWARD_ROWS:
        xb, dyb = _blocks(x, groups), _blocks(dy, groups)
        nb = xb.shape[3]
        gb = np.zeros((groups, nb * LANES), F32)
        gb[:, :per] = g.reshape(groups, per)
        gb = gb.reshape(groups, nb, LANES)
        acc0 = np.cumsum(xb * dyb, axis=2, dtype=F32)[:, :, -1]  # (N, G, B, 8)
        acc1 = np.cumsum(dyb, axis=2, dtype=F32)[:, :, -1]
        ds_gamma = np.zeros((n, groups), F32)
        db_gamma = np.zeros((n, groups), F32)
        for block in range(nb):
            ds_gamma = ds_gamma + _tree(acc0[:, :, block] * gb[:, block])
            db_gamma = db_gamma + _tree(acc1[:, :, block] * gb[:, block])
        ds = acc0.reshape(n, groups, -1)[..., :per].reshape(n, c)
        db = acc1.reshape(n, groups, -1)[..., :per].reshape(n, c)
        return ds, db, ds_gamma, db_gamma
    buffers = _channel_sums(dy.reshape(n * hw, c), x.reshape(n * hw, c), n, hw, threads)
    ds, db = np.zeros((n, c), F32), np.zeros((n, c), F32)
    ds_gamma, db_gamma = np.zeros((n, groups), F32), np.zeros((n, groups), F32)
    g_rows = g.reshape(groups, per)
    for d in range(per):
        ds_val, db_val = np.zeros((n, groups), F32), np.zeros((n, groups), F32)
        for first, second in buffers:
            db_part = first.reshape(n, groups, per)[:, :, d]
            ds_part = second.reshape(n, groups, per)[:, :, d]
            ds_gamma = ds_gamma + ds_part * g_rows[:, d]
            db_gamma = db_gamma + db_part * g_rows[:, d]
            ds_val, db_val = ds_val + ds_part, db_val + db_part
        ds.reshape(n, groups, per)[:, :, d] = ds_val
        db.reshape(n, groups, per)[:, :, d] = db_val
    return ds, db, ds_gamma, db_gamma


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
             gamma: np.ndarray | None, threads: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float32 (N, HxW, C) rows of dy and x, mean and rstd of (N, G): (dx as (N, HxW, C),
    dgamma, dbeta)."""
    from gradsh.engine.vecmath.groupnorm import gamma_beta_backward

    n, hw, c = x.shape
    groups = mean.shape[1]
    per = c // groups
    g = np.ones(c, F32) if gamma is None else gamma
    ds, db, ds_gamma, db_gamma = _internal_gradients(dy, x, g, groups, threads)
    s = F32(1) / F32(per * hw)
    c2 = fma32(db_gamma, mean, -ds_gamma) * rstd * rstd * rstd * s
    c3 = fma32(-c2, mean, -(db_gamma * rstd * s))
    c1 = (rstd[..., None] * g.reshape(groups, per)).reshape(n, 1, c)
    c2 = np.repeat(c2, per, axis=1).reshape(n, 1, c)
    c3 = np.repeat(c3, per, axis=1).reshape(n, 1, c)
    dx = fma32(np.broadcast_to(c2, x.shape), x, c1 * dy) + c3
    dgamma, dbeta = gamma_beta_backward(ds, db, mean, rstd)
    return dx, dgamma, dbeta
