"""oneDNN's float32 3-D convolution forward (groups of 1, not dilated), bit for bit, probed
against PyTorch 2.13 (ONEDNN_VERBOSE: jit:avx512_core on NCDHW data, brg_conv_fwd on
channels-last-3d): one fused multiply-add chain per output, from 0, over the kernel's depth,
rows and columns and, per kernel position, the block's input channels; NCDHW data sums its
input channels in blocks of 16, the blocks' chains added in order, the bias right after the
first (as conv.py's 2-D kernel); channels-last-3d data takes every channel in one chain, the
bias after it (conv_nhwc's exec_vpad call). The input gradient with strides of 1 likewise
(probed): NCDHW, per 16 output channels one chain over the kernel positions in order; channels-
last-3d (brg_conv_bwd: the forward on the flipped weight), one chain over all output channels
with the kernel positions reversed. The weight gradient is not reproduced yet.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine import limits
from gradsh.engine.vecmath import conv, conv_nhwc, native
from gradsh.engine.vecmath.fp import F32

Triple = tuple[int, int, int]


def uses_onednn(x_shape: tuple[int, ...], w_shape: tuple[int, ...], stride: Triple,
                dilation: Triple, groups: int, threads: int) -> bool:
    """ConvParams::use_mkldnn for a float32 5-D input (its size test reads input dimensions 0
    to 3: the depth, not the width; the 1x1 test the kernel's last two sizes)."""
    strided = any(s != 1 for s in stride)
    dilated = any(d != 1 for d in dilation)
    if not (strided or dilated or x_shape[0] >= 16 or w_shape[-1] != 1 or w_shape[-2] != 1
            or threads > 1):
        return False
    return (groups > 1 or (w_shape[-1] > 3 and w_shape[-2] > 3) or x_shape[0] > 1
            or int(np.prod(x_shape[:4])) > 20480)


def forward(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, padding: Triple,
            stride: Triple, channels_last: bool) -> np.ndarray | None:
    """The forward's values (N, O, OD, OH, OW), or None without the compiled kernels, over
    their bound, or where the channels-last kernel would split its calls (padding the output
    row outgrows the input by: ker_base's per-column calls, not followed in 3-D)."""
    n, c = x.shape[:2]
    o, _, kd, kh, kw = w.shape
    out = tuple((size + 2 * p - k) // s + 1
                for size, p, k, s in zip(x.shape[2:], padding, w.shape[2:], stride))
    if native.kernels is None or min(out) <= 0 or kd * kh * kw == 1:
        return None  # (a 1x1x1 kernel: oneDNN's 1x1 kernels, other blocks)
    if channels_last and len(conv_nhwc.column_calls(x.shape[4], out[2], kw, stride[2],
                                                     padding[2])) != 1:
        return None
    if not conv._compiled(n * o * int(np.prod(out)) * c * kd * kh * kw, x.size * kd * kh * kw):
        return None
    limits.check((n, o, *out), 4)
    padded = np.ascontiguousarray(np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding)),
                                  F32)
    sn, sc, sd, sh, sw = padded.strides
    view = np.lib.stride_tricks.as_strided(
        padded, (n, c, kd, kh, kw, *out),
        (sn, sc, sd, sh, sw, sd * stride[0], sh * stride[1], sw * stride[2]), writeable=False)
    block = c if channels_last else conv.IC_BLOCK
    rows, weights = [], []
    for c0 in range(0, c, block):
        chans = range(c0, min(c0 + block, c))
        rows.append(conv._offsets(view, padded, (2, 3, 4, 1),
                                  (range(kd), range(kh), range(kw), chans)))
        weights.append(w[:, c0:c0 + block].transpose(0, 2, 3, 4, 1).reshape(o, -1))
    ends = np.cumsum([part.shape[1] for part in weights]).tolist()
    spans = list(zip([0] + ends[:-1], ends))
    columns = conv._offsets(view, padded, (0, 5, 6, 7)) + conv._first(view, padded)
    y = np.empty((n, o, *out), F32)
    target = (y, conv._offsets(y, y, (1,)), conv._offsets(y, y, (0, 2, 3, 4)))
    start = None if bias is None else np.asarray(bias, F32)[:, None]
    native.blocked_into(target, np.ascontiguousarray(np.concatenate(weights, axis=1), F32),
                        (padded, np.concatenate(rows), columns), spans, start)
    return y


def backward_data(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...], padding: Triple,
                  channels_last: bool) -> np.ndarray | None:
    """The input gradient (N, C, D, H, W) of a convolution with strides of 1, or None (no
    compiled kernels, over their bound, a 1x1x1 kernel, padding wider than the kernel's
    reach, or channels-last padding that splits the brgemm calls)."""
    n, o = gy.shape[:2]
    c, kd, kh, kw = w.shape[1:]
    kernel = (kd, kh, kw)
    reach = tuple(k - 1 - p for k, p in zip(kernel, padding))
    if native.kernels is None or kd * kh * kw == 1 or min(reach) < 0 or gy.size == 0:
        return None
    if channels_last and len(conv_nhwc.column_calls(gy.shape[4], x_shape[4], kw, 1,
                                                     reach[2])) != 1:
        return None
    if not conv._compiled(int(np.prod(x_shape)) * o * kd * kh * kw, gy.size * kd * kh * kw):
        return None
    limits.check(tuple(x_shape), 4)
    # spread: gy placed kernel - 1 in from the start of each axis, zeros elsewhere
    tops = tuple(k - 1 for k in kernel)
    spread = np.zeros((n, o) + tuple(t + size + 2 * p for t, size, p
                                     in zip(tops, x_shape[2:], padding)), F32)
    spread[(slice(None), slice(None)) + tuple(slice(t, t + g) for t, g
                                              in zip(tops, gy.shape[2:]))] = gy
    base = spread[(slice(None), slice(None)) + tuple(slice(p, None) for p in padding)]
    s = base.strides
    view = np.lib.stride_tricks.as_strided(base, (n, o, *kernel, *x_shape[2:]),
                                           (s[0], s[1], s[2], s[3], s[4], s[2], s[3], s[4]),
                                           writeable=False)
    if channels_last:  # the flipped weight's positions in order: the view as it lies
        weight, block = w[:, :, ::-1, ::-1, ::-1], o
    else:  # the kernel's positions in order: the view reversed
        view, weight, block = view[:, :, ::-1, ::-1, ::-1], w, conv.IC_BLOCK
    rows, parts = [], []
    for o0 in range(0, o, block):
        rows.append(conv._offsets(view, spread, (2, 3, 4, 1),
                                  (range(kd), range(kh), range(kw), range(o0, min(o0 + block, o)))))
        parts.append(weight[o0:o0 + block].transpose(1, 2, 3, 4, 0).reshape(c, -1))
    ends = np.cumsum([part.shape[1] for part in parts]).tolist()
    spans = list(zip([0] + ends[:-1], ends))
    columns = conv._offsets(view, spread, (0, 5, 6, 7)) + conv._first(view, spread)
    gx = np.empty((n, c) + tuple(x_shape[2:]), F32)
    target = (gx, conv._offsets(gx, gx, (1,)), conv._offsets(gx, gx, (0, 2, 3, 4)))
    native.blocked_into(target, np.ascontiguousarray(np.concatenate(parts, axis=1), F32),
                        (spread, np.concatenate(rows), columns), spans)
    return gx
