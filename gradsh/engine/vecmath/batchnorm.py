"""ATen's float32 batch norm on the CPU (batch_norm_kernel.cpp and Normalization.cpp), bit for
bit, for inputs in the default contiguous layout.

Statistics: per channel, a double sum in input order (n, then the plane), the mean rounded to
float once, then a double sum of the float squares (x - mean)**2. An input of one element per
plane ((N, C), image_size 1) takes the channels-last kernel instead: rows added into a float
buffer per thread, one thread's rows in order. invstd = 1 / sqrt(var_sum / n + eps) in double,
from the float quotient. The running statistics are updated in float (the variance's momentum
term in double). Output: x * alpha + beta per channel, alpha = invstd * weight, beta = bias -
mean * alpha. Backward: per channel the plane sums of dy and of (x - mean) * dy by ATen's
16-lane vector reductions (vecreduce), accumulated over n in double.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.fp import F32, F64, fma32

Stats = tuple[np.ndarray, np.ndarray, np.ndarray]
# PyTorch 2.13's CPU wheel runs these kernels in their AVX2 build: 8 float lanes
LANES = 8


def _tree(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all on 8-lane accumulators (..., 8): lane i + lane i^4, then ^2, ^1."""
    for step in (4, 2, 1):
        acc = acc + acc[..., np.arange(LANES) ^ step]
    return acc[..., 0]


def _reduce_all(rows: np.ndarray) -> np.ndarray:
    """vec::reduce_all(+) over each row of (rows, n) float32: lanes accumulated block by
    block (a partial last block into the first lanes), then the tree; rows shorter than 8
    fold left to right."""
    n = rows.shape[1]
    if n < LANES:
        return np.cumsum(rows, axis=1, dtype=F32)[:, -1]
    acc = rows[:, :LANES].copy()
    full = n - n % LANES
    for d in range(LANES, full, LANES):
        acc += rows[:, d:d + LANES]
    if n > full:
        acc[:, :n - full] += rows[:, full:]
    return _tree(acc)


def _dot_all(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """vec::map2_reduce_all(a * b, +) per row, as GCC compiled it here: the products of the
    whole blocks rounded and added, those of a partial last block fused into the lanes."""
    n = a.shape[1]
    if n < LANES or n % LANES == 0:
        return _reduce_all(a * b)
    full = n - n % LANES
    acc = a[:, :LANES] * b[:, :LANES]
    for d in range(LANES, full, LANES):
        acc += a[:, d:d + LANES] * b[:, d:d + LANES]
    acc[:, :n - full] = fma32(a[:, full:], b[:, full:], acc[:, :n - full])
    return _tree(acc)


def parallel_chunks(count: int, threads: int) -> list[tuple[int, int]]:
    """at::parallel_for(0, count, 1)'s chunks: min(threads, count) chunks of ceil size."""
    used = max(1, min(threads, count))
    size = -(-count // used)
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _rows_sum(rows: np.ndarray, threads: int) -> np.ndarray:
    """The channels-last kernels' float buffer per thread (its rows added in order), the
    buffers then added in double: (n, C) -> (C,) float64."""
    total = np.zeros(rows.shape[1], F64)
    for begin, end in parallel_chunks(rows.shape[0], threads):
        total += np.cumsum(rows[begin:end], axis=0, dtype=F32)[-1]
    return total


def _rows_dot(a: np.ndarray, b: np.ndarray, threads: int) -> np.ndarray:
    """The same with buffer = buffer + a * b per row, one fused multiply-add (GCC's)."""
    total = np.zeros(a.shape[1], F64)
    for begin, end in parallel_chunks(a.shape[0], threads):
        buffer = np.zeros(a.shape[1], F32)
        if native.kernels is not None:  # the same fmaf, in place without fma32's checks
            native.fma_rows_into(buffer, *(np.ascontiguousarray(v[begin:end], F32)
                                           for v in (a, b)))
        else:
            for i in range(begin, end):
                buffer = fma32(a[i], b[i], buffer)
        total += buffer
    return total


def _by_channel(x: np.ndarray) -> np.ndarray:
    """(N, C, ...) -> (C, N * plane): each channel's values in the kernels' order."""
    n, c = x.shape[0], x.shape[1]
    return x.reshape(n, c, -1).transpose(1, 0, 2).reshape(c, -1)


def collect_stats(x: np.ndarray, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """batch_norm_cpu_collect_stats: per channel (mean, var_sum), both float32."""
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    if x.size // (n * c) == 1:  # channels-last kernel: (N, C) rows
        rows = x.reshape(n, c)
        if count > threads:
            mean = (_rows_sum(rows, threads) / count).astype(F32)
            centred = rows - mean
            var_sum = _rows_dot(centred, centred, threads).astype(F32)
            return mean, var_sum
        values = rows.T
    else:
        values = _by_channel(x)
    total = np.cumsum(values.astype(F64), axis=1)[:, -1]
    mean = (total / count).astype(F32)
    centred = values - mean[:, None]
    squares = (centred * centred).astype(F64)
    var_sum = np.cumsum(squares, axis=1)[:, -1].astype(F32)
    return mean, var_sum


def update_stats(x: np.ndarray, running_mean: np.ndarray | None, running_var: np.ndarray | None,
                 momentum: float, eps: float, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """batch_norm_cpu_update_stats_template with InvStd: (save_mean, save_invstd), and the
    running statistics updated in place."""
    mean, var_sum = collect_stats(x, threads)
    count = x.size // x.shape[1]
    var = (var_sum / F32(count)).astype(F64)
    with np.errstate(all="ignore"):
        invstd = np.where((var != 0) | (eps != 0), 1.0 / np.sqrt(var + eps), 0.0).astype(F32)
        m = F32(momentum)
        keep = F32(1) - m
        if running_mean is not None:
            running_mean[...] = m * mean + keep * running_mean
        if running_var is not None:
            unbiased = (var_sum / F32(count - 1)).astype(F64)
            running_var[...] = (F64(m) * unbiased + (keep * running_var).astype(F64)).astype(F32)
    return mean, invstd


def transform(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None,
              mean: np.ndarray, invstd: np.ndarray) -> np.ndarray:
    """batch_norm_cpu_kernel: x * alpha + beta, alpha = invstd * weight, beta = bias - mean *
    alpha (per channel, float)."""
    c = x.shape[1]
    w = weight if weight is not None else np.ones(c, F32)
    b = bias if bias is not None else np.zeros(c, F32)
    alpha = invstd * w
    beta = fma32(-mean, alpha, b)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return fma32(x, alpha.reshape(shape), beta.reshape(shape))


def eval_invstd(running_var: np.ndarray, eps: float) -> np.ndarray:
    """The forward kernel's inference invstd: 1 / sqrt(var + (float)eps) in float."""
    with np.errstate(all="ignore"):
        return F32(1) / np.sqrt(running_var + F32(eps))


def backward(grad: np.ndarray, x: np.ndarray, weight: np.ndarray | None, mean: np.ndarray,
             invstd: np.ndarray, train: bool, threads: int = 1) -> Stats:
    """batch_norm_cpu_backward_kernel: (grad_input, grad_weight, grad_bias), float32. In
    evaluation mode `mean` and `invstd` are the running mean and 1 / sqrt(var + eps) rounded
    from double, as that kernel computes it."""
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    w = weight if weight is not None else np.ones(c, F32)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if x.size // (n * c) == 1:
        rows_x, rows_dy = x.reshape(n, c), grad.reshape(n, c)
        total = _rows_sum(rows_dy, threads).astype(F32)
        dotp = _rows_dot(rows_x - mean, rows_dy, threads).astype(F32)
        gw = dotp * invstd
        if train:
            k = dotp * invstd * invstd / F32(count)
            grad_mean = total / F32(count)
            # GCC fused the subtraction of dx into one fma in the full-vector loop over the
            # channels, not in the copy for the last c % 8 channels
            centred = rows_x - mean
            gx = rows_dy - grad_mean - centred * k
            full = c - c % LANES
            gx[:, :full] = fma32(-centred[:, :full], k[:full], (rows_dy - grad_mean)[:, :full])
            gx = (gx * invstd * w).reshape(x.shape)
        else:
            gx = (rows_dy * invstd * w).reshape(x.shape)
        return gx, gw, total
    plane = x.size // (n * c)
    planes_x = x.reshape(n * c, plane)
    planes_dy = grad.reshape(n * c, plane)
    mean_rows = np.tile(mean, n)[:, None]
    sums = _reduce_all(planes_dy).reshape(n, c).astype(F64)
    dots = _dot_all(planes_x - mean_rows, planes_dy).reshape(n, c).astype(F64)
    total = np.cumsum(sums, axis=0)[-1]
    dotp = np.cumsum(dots, axis=0)[-1]
    gw = (dotp * invstd).astype(F32)
    gb = total.astype(F32)
    if train:
        k = dotp.astype(F32) * invstd * invstd / F32(count)
        grad_mean = (total / count).astype(F32)
        gx = fma32(-(x - mean.reshape(shape)), k.reshape(shape), grad - grad_mean.reshape(shape))
        gx = gx * invstd.reshape(shape) * w.reshape(shape)
    else:
        gx = grad * invstd.reshape(shape) * w.reshape(shape)
    return gx.astype(F32, copy=False), gw, gb


def backward_generic(grad: np.ndarray, x: np.ndarray, weight: np.ndarray | None,
                     mean: np.ndarray, invstd: np.ndarray, train: bool,
                     sums: np.ndarray) -> Stats:
    """batch_norm_backward_cpu_template's generic path, which ATen takes where the output
    gradient is not contiguous (an expanded one: `out.sum().backward()`), float32 or float64:
    per channel, in the input's order, dotp += (x - mean) * dy (the product in the dtype, the
    sum in double); k = (dtype) dotp * invstd * invstd / n; dx = (dy - sum / n - (x - mean) *
    k) * invstd * w, each step rounded; grad_weight = dotp * invstd rounded once; grad_bias
    the at::sum of dy over (N, H, W), which the caller passes as `sums`."""
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    dtype = x.dtype.type
    w = weight if weight is not None else np.ones(c, dtype)
    xs = _by_channel(x)
    dys = _by_channel(np.ascontiguousarray(grad))
    with np.errstate(all="ignore"):
        centred = xs - mean[:, None]
        dotp = np.cumsum((centred * dys).astype(F64), axis=1)[:, -1]
        gw = (dotp * invstd.astype(F64)).astype(dtype)
        if train:
            k = dotp.astype(dtype) * invstd * invstd / dtype(count)
            grad_mean = sums / dtype(count)
            gx = (dys - grad_mean[:, None] - centred * k[:, None]) * invstd[:, None] * w[:, None]
        else:
            gx = dys * invstd[:, None] * w[:, None]
    gx = gx.reshape((c, n) + x.shape[2:])
    return np.ascontiguousarray(np.moveaxis(gx, 0, 1)), gw, np.asarray(sums, dtype)
