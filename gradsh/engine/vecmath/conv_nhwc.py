"""oneDNN's float32 convolution on channels-last (NHWC) data, groups of 1, bit for bit: the
kernels PyTorch 2.13 runs when the input or the weight is channels-last
(mkldnn_conv_use_channels_last), found in ONEDNN_VERBOSE and followed from oneDNN's sources.

Forward: brg_conv_fwd (jit_brgemm_conv.cpp). Each brgemm call is one fused multiply-add chain
per output, from 0, over its batch (kernel rows, kernel columns) and, per batch element, every
input channel; a call's chain is added to what earlier calls left, the bias after the last
(post-ops). With exec_vpad (init_conf: the left and right padding each narrower than the kernel
and an output block that fits the input row) one call covers every kernel position; otherwise
exec_base (ker_base) makes one call per kernel column that reaches the padding for part of the
output row (get_kw_range / get_ow_range), in column order, the columns that cover the whole
row in one call between them. The output row is taken as one block (its ow_block: small images).

Backward data with strides of 1: brg_conv_bwd runs brg_conv_fwd on the output gradient with the
weight flipped and transposed (padding kernel - 1 - padding), so the same calls over the
kernel positions in reverse order. Strided: brgconv_strided, the chains of conv.data_pieces.

Backward weights: jit:avx512_core's NHWC kernel: per weight, one chain from 0 per output row
(over its columns), the rows' chains added in order, sample by sample (probed: 0 of 36,864
elements differ).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine import limits
from gradsh.engine.vecmath import conv, conv_split, native
from gradsh.engine.vecmath.fp import F32

# (first kernel column, end) of each brgemm call covering an output column, in call order
Calls = tuple[tuple[int, int], ...]


def _div_up(a: int, b: int) -> int:
    return -(-a // b)


def _ow_range(ow: int, kw: int, iw: int, stride: int, l_pad: int) -> tuple[int, int]:
    """get_ow_range for one block of the whole row: the outputs kernel column `kw` reaches
    inside the input (its call's range)."""
    iw_lp = -l_pad + kw
    iw_rp = iw_lp + (ow - 1) * stride - iw + 1
    ow_s, skipped = 0, 0
    if iw_lp < 0:
        skipped += _div_up(-iw_lp, stride)
        ow_s += skipped
    if iw_rp > 0:
        skipped += _div_up(iw_rp, stride)
    return ow_s, max(ow_s, ow_s + ow - skipped)


def column_calls(iw: int, ow: int, kw: int, stride: int, l_pad: int) -> list[tuple[int, Calls]]:
    """Per run of output columns (its first column), the brgemm calls' kernel columns that
    reach it, in order: one call of all columns under exec_vpad or without padding, else
    ker_base's calls."""
    r_pad = max(0, (ow - 1) * stride + kw - iw - l_pad)
    vpad = (_div_up(l_pad, stride) < kw and _div_up(r_pad, stride) < kw
            and (ow - 1) * stride + 1 <= iw)
    if vpad or (l_pad == 0 and r_pad == 0):
        return [(0, ((0, kw),))]
    ranges = [_ow_range(ow, j, iw, stride, l_pad) for j in range(kw)]
    reached = [j for j in range(kw) if ranges[j][0] < ranges[j][1]]
    full = [j for j in reached if ranges[j] == (0, ow)]
    calls: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (columns, outputs)
    if full:
        first, last = full[0], full[-1] + 1
        calls += [((j, j + 1), ranges[j]) for j in reached if j < first]
        calls.append(((first, last), (0, ow)))
        calls += [((j, j + 1), ranges[j]) for j in reached if j >= last]
    else:
        calls = [((j, j + 1), ranges[j]) for j in reached]
    edges = sorted({0, ow, *(r for _, span in calls for r in span)})
    runs = []
    for a, b in zip(edges[:-1], edges[1:]):
        if a < b:
            runs.append((a, tuple(cols for cols, (s, e) in calls if s <= a < e)))
    return runs


def _gathered(y: np.ndarray, part: np.ndarray) -> native.Gathered:
    """`part` (a view of y (N, C, H, W)) as the gathered (C, N * H * W') product rows."""
    first = conv._first(part, y)
    return y, conv._offsets(part, y, (1,)), conv._offsets(part, y, (0, 2, 3)) + first


def _chains(padded: np.ndarray, w: np.ndarray, bias: np.ndarray | None, out: tuple[int, int],
            stride: tuple[int, int], runs: list[tuple[int, Calls]]) -> np.ndarray:
    """The calls' chains over `padded` (N, C, H', W'), per run of output columns; the calls of
    a run added in order, the bias after them."""
    n, c = padded.shape[:2]
    o, _, kh, kw = w.shape
    limits.check((n, o, *out), 4)
    base = np.ascontiguousarray(padded, F32)
    view = conv._window_view(base, (kh, kw), out, stride, (1, 1))
    y = np.empty((n, o, *out), F32)
    ends = [start for start, _ in runs[1:]] + [out[1]]
    for (start, calls), end in zip(runs, ends, strict=True):
        part = y[:, :, :, start:end]
        if not calls:  # (outputs no kernel position reaches: the bias alone)
            part[...] = 0 if bias is None else np.asarray(bias, F32)[None, :, None, None]
            continue
        pieces = [(0, c, j0, j1) for j0, j1 in calls]
        weights, spans = conv._piece_weights(w.transpose(1, 2, 3, 0), pieces)
        single = bias is not None and len(calls) == 1  # (the bias fused: the same bits)
        first = np.asarray(bias, F32)[:, None] if single else None
        rows = conv._piece_rows(view[..., start:end], base, pieces)
        native.blocked_into(_gathered(y, part), weights, rows, spans, first)
        if bias is not None and not single:
            part += np.asarray(bias, F32)[None, :, None, None]
    return y


def _usable(size: int, multiply_adds: int) -> bool:
    return native.kernels is not None and conv._compiled(multiply_adds, size)


def forward(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None, padding: tuple[int, int],
            stride: tuple[int, int]) -> np.ndarray | None:
    """brg_conv_fwd on float32 `x` (N, C, H, W) (the values; the layout is the caller's), no
    dilation; None without the compiled kernels or over their bound."""
    n, c, h, width = x.shape
    o, _, kh, kw = w.shape
    (ph, pw), (sh, sw) = padding, stride
    oh = (h + 2 * ph - kh) // sh + 1
    ow = (width + 2 * pw - kw) // sw + 1
    if not _usable(x.size * kh * kw, n * o * oh * ow * c * kh * kw):
        return None
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    runs = column_calls(width, ow, kw, sw, pw)
    return _chains(padded, w, bias, (oh, ow), stride, runs)


def backward_data(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...],
                  padding: tuple[int, int], stride: tuple[int, int],
                  threads: int) -> np.ndarray | None:
    """The input gradient: with strides of 1 the forward's calls on gy with the weight flipped
    and transposed (brg_conv_bwd); strided, brgconv_strided's chains (conv.data_pieces). None
    where the padding is wider than the kernel's reach or over the bound."""
    o, c, kh, kw = w.shape
    (ph, pw) = padding
    if stride != (1, 1):
        return conv.onednn_backward_data(gy, w, x_shape, padding, stride, (1, 1), threads,
                                         kernel_1x1=False, block=max(o, 1))
    top, left = kh - 1 - ph, kw - 1 - pw
    if top < 0 or left < 0:
        return None
    flipped = np.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
    if not _usable(gy.size * kh * kw, gy.size * c * kh * kw):
        return None
    padded = np.pad(gy, ((0, 0), (0, 0), (top, top), (left, left))) if top or left else gy
    runs = column_calls(gy.shape[3], x_shape[3], kw, 1, left)
    return _chains(padded, flipped, None, (x_shape[2], x_shape[3]), (1, 1), runs)


def _weights_conf(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
                  stride: tuple[int, int]) -> conv_split.BwdWeightsConf | None:
    """init_conf of jit:avx512_core's backward weights on NHWC data (one group, no dilation):
    the channels unpadded, fewer than 16 input channels one block (is_1stconv), never the 2-D
    harness; None where its boundary checks decline (the jit:avx2 or gemm kernel then)."""
    mb, ic, ih, iw = x_shape
    oc, _, kh, kw = w_shape
    (ph, pw), (sh, sw) = padding, stride
    oh, ow = (ih + 2 * ph - kh) // sh + 1, (iw + 2 * pw - kw) // sw + 1
    r_pad = max(0, (ow - 1) * sw + kw - iw - pw)
    b_pad = max(0, (oh - 1) * sh + kh - ih - ph)
    if not (pw < kw and r_pad < kw and ph <= kh // 2 and b_pad <= kh // 2
            and pw <= conv_split.MAX_UR_W and r_pad <= conv_split.MAX_UR_W and kw <= 14):
        return None
    return conv_split.BwdWeightsConf(mb, ic, oc, ih, iw, oh, ow, kh, kw, sh, sw,
                                     min(ic, conv_split.SIMD_W), conv_split.SIMD_W, False, False)


def weights_known(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
                  stride: tuple[int, int]) -> bool:
    """Whether backward_weights is the kernel torch runs: jit:avx512_core's (_weights_conf),
    strides of 1, or any with fewer than 16 input channels (is_1stconv's single chains). Not
    found yet: other strided ones, and the jit:avx2 and gemm kernels wider padding takes. A 1x1
    kernel's (jit_1x1) is conv.py's, as on NCHW data."""
    out = tuple((size + 2 * pad - k) // s + 1
                for size, pad, k, s in zip(x_shape[2:], padding, w_shape[2:], stride))
    return ((stride == (1, 1) or x_shape[1] < 16)
            and _weights_conf(x_shape, w_shape, padding, stride) is not None
            and not conv.pointwise(x_shape, w_shape, padding, stride, out))


def _spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
           stride: tuple[int, int], threads: int, bias: bool) -> list[tuple[int, int]]:
    """The kernel's minibatch split among threads (harness_mb_reduction: NHWC data never takes
    the 2-D harness; balance() on the unpadded channel counts) as each thread's span of the
    (sample, output row, output column) steps: the weights' (bias False), or compute_diff_bias'
    (its reducer's threads per job group, as conv_split.bwd_bias_spans)."""
    conf = _weights_conf(x_shape, w_shape, padding, stride)
    assert conf is not None
    steps = conf.oh * conf.ow
    if threads <= 1:
        return [(0, conf.mb * steps)]
    nthr, nthr_mb = conv_split.bwd_weights_balance(conf, threads)[:2]
    if bias:
        nthr_mb = conv_split.reducer_threads_per_group(nthr, conf.nb_oc, conf.mb,
                                                       nthr * 3 * 5 * 5 * 16 * 16)
    return [(a * steps, b * steps) for a, b in conv_split.shares(conf.mb, nthr_mb)]


def bias_spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
               stride: tuple[int, int], threads: int) -> list[tuple[int, int]]:
    """The bias gradient's sums (where weights_known) as conv.onednn_backward_bias's spans."""
    return _spans(x_shape, w_shape, padding, stride, threads, True)


def backward_weights(x: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...],
                     padding: tuple[int, int], stride: tuple[int, int],
                     threads: int) -> np.ndarray | None:
    """The NHWC backward-weights kernel (where weights_known): per weight a chain from 0 per
    output row, the rows added in order (samples, then rows) into each thread's buffer (its
    span of the samples, _spans), the buffers added in thread order; with fewer than 16 input
    channels (is_1stconv) one chain over the thread's span. None over the bound."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w_shape[1:]
    if not _usable(x.size * kh * kw, n * oh * ow * o * c * kh * kw) or not gy.size:
        return None
    spans = _spans(x.shape, w_shape, padding, stride, threads, False)
    return _row_chains(x, gy, w_shape, padding, stride, spans, first=c < 16)


def _row_chains(x: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...],
                padding: tuple[int, int], stride: tuple[int, int], spans: list[tuple[int, int]],
                first: bool) -> np.ndarray:
    """Per span of the (sample, row, column) steps a buffer of the rows' chains added in
    order (first: one chain over the span), the buffers added in order; (O, C, kh, kw)."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w_shape[1:]
    (ph, pw) = padding
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    base = np.ascontiguousarray(padded, F32)
    view = conv._window_view(base, (kh, kw), (oh, ow), stride, (1, 1))
    g = np.ascontiguousarray(gy, F32)
    grads = (g, conv._offsets(g, g, (1,)), conv._offsets(g, g, (0, 2, 3)))
    columns = (base, conv._offsets(view, base, (0, 4, 5)) + conv._first(view, base),
               conv._offsets(view, base, (1, 2, 3)))
    total = None
    for begin, end in spans:
        out = np.empty((o, c * kh * kw), F32)
        rows = [(begin, end)] if first else [(r, r + ow) for r in range(begin, end, ow)]
        native.blocked_into(out, grads, columns, rows)
        total = out if total is None else total + out
    return total.reshape(o, c, kh, kw)


def grouped_weights_known(x_shape: tuple[int, ...], w_shape: tuple[int, ...], groups: int,
                          padding: tuple[int, int], stride: tuple[int, int],
                          threads: int) -> bool:
    """Whether grouped_backward_weights is torch's: jit:avx512_core on NHWC data with groups
    (a depthwise convolution where oneDNN's depthwise kernel declines, or any grouped one),
    strides of 1, at least as many groups as threads (balance() gives each group its own
    thread: no minibatch split)."""
    group_x = (x_shape[0], x_shape[1] // groups, *x_shape[2:])
    return (stride == (1, 1) and groups >= threads
            and _weights_conf(group_x, w_shape, padding, stride) is not None)


def grouped_backward_weights(x: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...],
                             groups: int, padding: tuple[int, int],
                             stride: tuple[int, int]) -> np.ndarray | None:
    """Each group's weight gradient as backward_weights' row chains (never is_1stconv's single
    chain: that takes one group), the groups joined; None over the bound."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w_shape[1:]
    if not _usable(x.size * kh * kw, n * oh * ow * o * c * kh * kw) or not gy.size:
        return None
    og = o // groups
    parts = [_row_chains(x[:, i * c:(i + 1) * c], gy[:, i * og:(i + 1) * og],
                         (og, *w_shape[1:]), padding, stride, [(0, n * oh * ow)], False)
             for i in range(groups)]
    return np.concatenate(parts)
