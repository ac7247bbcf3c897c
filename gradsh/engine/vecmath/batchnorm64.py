"""ATen's float64 batch norm on the CPU (batch_norm_kernel.cpp and Normalization.cpp), bit for
bit, for inputs in the default contiguous layout: vecmath/batchnorm.py's steps with double
accumulators and no float roundings (measured against torch 2.13).

Statistics: per channel a double sum in input order, mean = sum / n, then the squares
(x - mean)**2 added in order, rounded in pairs along each plane with an odd last one fused (an
(N, C) input with more rows than threads: the channels-last kernel's per-thread buffers, rows
in order). invstd = 1 /
sqrt(var_sum / n + eps); the running statistics momentum * stat + (1 - momentum) * running
(unfused: Normalization.cpp is compiled without FMA). Output fma(x, alpha, beta), alpha =
invstd * weight, beta = fma(-mean, alpha, bias). Backward: per plane the sums of dy and of
(x - mean) * dy in 4-double lanes folded left to right (a partial last block fused), the
planes' sums added over the batch in order.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import sleef_double
from gradsh.engine.vecmath.batchnorm import _by_channel, parallel_chunks
from gradsh.engine.vecmath.layernorm import _dot_rows64, _sum_rows64

F64 = np.float64


def _rows(values: np.ndarray, threads: int, square: bool,
          other: np.ndarray | None = None) -> np.ndarray:
    """The channels-last kernel's per-thread double buffers over (n, C) rows, in order (a
    product fused into the buffer: the square, or values * other), the buffers then added."""
    total = np.zeros(values.shape[1], F64)
    for begin, end in parallel_chunks(values.shape[0], threads):
        buffer = np.zeros(values.shape[1], F64)
        for i in range(begin, end):
            if square or other is not None:
                factor = values[i] if other is None else other[i]
                buffer = sleef_double.fma(values[i], factor, buffer)
            else:
                buffer = buffer + values[i]
        total += buffer
    return total


def _rows_backward(grad: np.ndarray, x: np.ndarray, weight: np.ndarray | None,
                   mean: np.ndarray, invstd: np.ndarray, train: bool, threads: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The channels-last backward kernel for (N, C) inputs: the sums by the per-thread buffers;
    dx's subtraction fused over whole 4-double vectors of channels, not over the rest."""
    n, c = x.shape[0], x.shape[1]
    rows_x, rows_dy = x.reshape(n, c), grad.reshape(n, c)
    total = _rows(rows_dy, threads, False)
    centred = rows_x - mean
    dotp = _rows(centred, threads, False, rows_dy)
    w = weight if weight is not None else np.ones(c)
    with np.errstate(all="ignore"):
        if train:
            k = dotp * invstd * invstd / n
            grad_mean = total / n
            gx = rows_dy - grad_mean - centred * k
            full = c - c % 4
            gx[:, :full] = sleef_double.fma(-centred[:, :full], k[:full],
                                            (rows_dy - grad_mean)[:, :full])
            gx = gx * invstd * w
        else:
            gx = rows_dy * invstd * w
    return gx.reshape(x.shape), dotp * invstd, total


def collect_stats(x: np.ndarray, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """batch_norm_cpu_collect_stats on float64: per channel (mean, var_sum)."""
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    if x.size // (n * c) == 1 and count > threads:
        rows = x.reshape(n, c)
        mean = _rows(rows, threads, False) / count
        return mean, _rows(rows - mean, threads, True)
    values = _by_channel(x)
    mean = np.cumsum(values, axis=1)[:, -1] / count
    centred = np.ascontiguousarray((values - mean[:, None]).T)
    plane = x.size // (n * c)
    paired = plane - plane % 2
    var_sum = np.zeros(c, F64)
    for k, row in enumerate(centred):
        # _var_sum += (x - mean) * (x - mean) over each plane: GCC computed the squares two
        # at a time (rounded, then added in order), the odd last one fused (measured)
        if k % plane < paired:
            var_sum = var_sum + row * row
        else:
            var_sum = sleef_double.fma(row, row, var_sum)
    return mean, var_sum


def update_stats(x: np.ndarray, running_mean: np.ndarray | None, running_var: np.ndarray | None,
                 momentum: float, eps: float, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """batch_norm_cpu_update_stats_template on float64: (save_mean, save_invstd), the running
    statistics updated in place."""
    mean, var_sum = collect_stats(x, threads)
    count = x.size // x.shape[1]
    with np.errstate(all="ignore"):
        var = var_sum / count
        invstd = np.where((var != 0) | (eps != 0), 1.0 / np.sqrt(var + eps), 0.0)
        if running_mean is not None:
            running_mean[...] = momentum * mean + (1 - momentum) * running_mean
        if running_var is not None:
            running_var[...] = momentum * (var_sum / (count - 1)) + (1 - momentum) * running_var
    return mean, invstd


def transform(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None,
              mean: np.ndarray, invstd: np.ndarray) -> np.ndarray:
    """batch_norm_cpu_kernel on float64: fma(x, alpha, beta) per channel."""
    c = x.shape[1]
    alpha = invstd * (weight if weight is not None else np.ones(c))
    beta = sleef_double.fma(-mean, alpha, bias if bias is not None else np.zeros(c))
    shape = (1, c) + (1,) * (x.ndim - 2)
    return sleef_double.fma(x, alpha.reshape(shape), beta.reshape(shape))


def backward(grad: np.ndarray, x: np.ndarray, weight: np.ndarray | None, mean: np.ndarray,
             invstd: np.ndarray, train: bool, threads: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """batch_norm_cpu_backward_kernel on float64: (grad_input, grad_weight, grad_bias)."""
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    plane = x.size // (n * c)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if plane == 1:
        return _rows_backward(grad, x, weight, mean, invstd, train, threads)
    planes_x, planes_dy = x.reshape(n * c, plane), grad.reshape(n * c, plane)
    centred_rows = planes_x - np.tile(mean, n)[:, None]
    total = np.cumsum(_sum_rows64(planes_dy).reshape(n, c), axis=0)[-1]
    dotp = np.cumsum(_dot_rows64(centred_rows, planes_dy).reshape(n, c), axis=0)[-1]
    w = (weight if weight is not None else np.ones(c)).reshape(shape)
    with np.errstate(all="ignore"):
        if train:
            k = dotp * invstd * invstd / count
            centred = x - mean.reshape(shape)
            gx = sleef_double.fma(-centred, k.reshape(shape), grad - (total / count).reshape(shape))
            gx = gx * invstd.reshape(shape) * w
        else:
            gx = grad * invstd.reshape(shape) * w
    return gx, dotp * invstd, total
