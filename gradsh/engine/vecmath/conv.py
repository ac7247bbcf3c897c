"""PyTorch 2.13's float32 2-D convolution forward on the CPU, bit for bit, under the time bound
of the exact matrix products (sgemm.EXACT_MAX_US).

ATen sends a float32 convolution to oneDNN (ConvParams::use_mkldnn) unless it is small and
single-sample (then slow_conv2d: im2col and one MKL sgemm, reproduced by sgemm.py). oneDNN's
jit:avx512_core direct kernel, found by probing torch: the input channels in blocks of 16; per
block one fused multiply-add chain per output, from 0, over the kernel rows, the kernel columns
and the block's channels, in that order; the blocks' results added in order, the bias added
right after the first block's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import limits
from gradsh.engine.vecmath import blas, conv_split, native, sgemm
from gradsh.engine.vecmath.fp import F32, fma32

IC_BLOCK = 16
# A part of a sum: (first channel, end, first kernel column, end).
Piece = tuple[int, int, int, int]
_STEP_US = 8.0
_ELEMENT_US = 0.004


def uses_onednn(x_shape: tuple[int, ...], w_shape: tuple[int, ...], stride: tuple[int, int],
                dilation: tuple[int, int], groups: int, threads: int) -> bool:
    """ConvParams::use_mkldnn for a float32 CPU input (torch.backends.mkldnn enabled)."""
    n = x_shape[0]
    kh, kw = w_shape[2], w_shape[3]
    strided = any(s != 1 for s in stride)
    dilated = any(d != 1 for d in dilation)
    if not (strided or dilated or n >= 16 or kw != 1 or kh != 1 or threads > 1):
        return False
    return (groups > 1 or (kw > 3 and kh > 3) or n > 1
            or int(np.prod(x_shape)) > 20480)


def backward_known(stride: tuple[int, int], dilation: tuple[int, int]) -> bool:
    """Whether oneDNN's backward kernels below are the ones torch runs: not for a convolution
    both strided and dilated (another kernel whose order is not found yet; NumPy's then)."""
    return stride == (1, 1) or dilation == (1, 1)


def _windows(x: np.ndarray, kh: int, kw: int, out: tuple[int, int], stride: tuple[int, int],
             dilation: tuple[int, int]) -> list[list[np.ndarray]]:
    """For each kernel position (i, j): the (N, C, OH, OW) input values it multiplies."""
    (oh, ow), (sh, sw), (dh, dw) = out, stride, dilation
    return [[x[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw]
             for j in range(kw)] for i in range(kh)]


def onednn_forward(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None,
                   padding: tuple[int, int], stride: tuple[int, int],
                   dilation: tuple[int, int], threads: int = 1, *,
                   kernel_1x1: bool = True, ic_block: int = IC_BLOCK) -> np.ndarray | None:
    """oneDNN's direct convolution (groups of 1) on float32 NCHW `x`, or None when its
    emulation would take longer than the bound. kernel_1x1=False: a group of a grouped
    convolution, which oneDNN runs through the direct kernel even with a 1x1 kernel, its input
    channels in blocks of `ic_block` (a grouped convolution's channel block)."""
    n, c = x.shape[0], x.shape[1]
    o, _, kh, kw = w.shape
    (ph, pw) = padding
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    h, width = padded.shape[2], padded.shape[3]
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (width - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    if kernel_1x1 and pointwise(x.shape, w.shape, padding, stride, (oh, ow)):
        return _pointwise_forward(x, w, bias, stride, threads)
    outputs = n * o * oh * ow
    steps = c * kh * kw
    if _compiled(outputs * steps, padded.size):
        return _compiled_forward(padded, w, bias, (oh, ow), stride, dilation, ic_block)
    if steps * (_STEP_US + outputs * _ELEMENT_US) > sgemm.EXACT_MAX_US:
        return None
    windows = _windows(padded, kh, kw, (oh, ow), stride, dilation)
    total = None
    for start in range(0, c, ic_block):
        acc = np.zeros((n, o, oh, ow), F32)
        for i in range(kh):
            for j in range(kw):
                for ic in range(start, min(start + ic_block, c)):
                    inputs = windows[i][j][:, ic][:, None]
                    weights = w[:, ic, i, j][None, :, None, None]
                    acc = fma32(np.broadcast_to(inputs, acc.shape),
                                np.broadcast_to(weights, acc.shape), acc)
        if total is None:
            total = acc if bias is None else acc + bias[None, :, None, None]
        else:
            total += acc
    return total


# oneDNN's 1x1 kernels (a 1x1 convolution without padding whose stride divides the input),
# found by probing torch: forward and backward data, the channels summed in blocks of
# conv_split.pointwise_reduce_blocking's size (80, 256 or 512 by the image's rows, less where
# the image is large), each one chain from 0 (forward: the first from the bias), the blocks
# added in order; backward weights, one chain per sample over its output pixels, the samples
# added in order.
POINTWISE_CHUNK = 256  # (the blocks where the kernel's choice is not reproduced)


def _pointwise_blocks(mb: int, count: int, produced: int, rows: int, pixels: int,
                      threads: int) -> list[tuple[int, int]]:
    """The 1x1 kernel's blocks of the `count` channels it sums, producing `produced` channels
    of images of `rows` rows and `pixels` pixels."""
    size = conv_split.pointwise_reduce_blocking(mb, count, produced, rows, pixels, threads)
    size = size or POINTWISE_CHUNK
    return [(k0, min(k0 + size, count)) for k0 in range(0, count, size)]


def pointwise(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
               stride: tuple[int, int], out: tuple[int, int]) -> bool:
    """Whether oneDNN runs its 1x1 kernels (the input reduced to unit stride)."""
    return (w_shape[2] == w_shape[3] == 1 and padding == (0, 0)
            and (out[0] * stride[0], out[1] * stride[1]) == tuple(x_shape[2:]))


def _pointwise_backward_weights(x: np.ndarray, gy: np.ndarray, stride: tuple[int, int],
                                threads: int) -> np.ndarray | None:
    """oneDNN's 1x1 backward weights, (O, C, 1, 1), or None over the bound: its chains over
    spans of the samples' pixels (conv_split.pointwise_bwd_weights_split), each thread's added
    in order into its buffer, the buffers added in thread order."""
    n, o = gy.shape[:2]
    c = x.shape[1]
    pixels = gy.shape[2] * gy.shape[3]
    if sgemm.cost("chain", o, c, n * pixels) > sgemm.EXACT_MAX_US:
        return None
    rows = np.ascontiguousarray(gy.transpose(1, 0, 2, 3), F32).reshape(o, -1)
    picked = x[:, :, ::stride[0], ::stride[1]]
    columns = np.ascontiguousarray(picked.transpose(0, 2, 3, 1), F32).reshape(-1, c)
    split = conv_split.pointwise_bwd_weights_split(n, c, o, gy.shape[2], gy.shape[3],
                                                   threads)[0]
    parts = sgemm.chain_parts(rows, columns, [span for spans in split for span in spans])
    buffers, at = [], 0
    for spans in split:
        buffers.append(_added(parts[at:at + len(spans)]))
        at += len(spans)
    return _added(buffers).reshape(o, c, 1, 1)


def slow_pointwise_forward(x: np.ndarray, w: np.ndarray,
                           stride: tuple[int, int]) -> np.ndarray | None:
    """One group of a grouped 1x1 convolution that ATen keeps from oneDNN (one thread, fewer
    than 16 samples, unstrided), found by probing: chains over POINTWISE_CHUNK channels at a
    time, no bias (ATen adds it after); None over the bound."""
    return _pointwise_forward(x, w, None, stride, 1, POINTWISE_CHUNK)


def _pointwise_forward(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None,
                       stride: tuple[int, int], threads: int,
                       chunk: int | None = None) -> np.ndarray | None:
    """oneDNN's 1x1 kernel on float32 NCHW `x` (strided by `stride`), or None over the bound:
    (O, C) @ (C, N*OH*OW), chains over the kernel's blocks of channels (or `chunk`s)."""
    n, c = x.shape[:2]
    o = w.shape[0]
    picked = x[:, :, ::stride[0], ::stride[1]]
    oh, ow = picked.shape[2:]
    if sgemm.cost("chain", o, n * oh * ow, c) > sgemm.EXACT_MAX_US:
        return None
    columns = np.ascontiguousarray(picked.transpose(1, 0, 2, 3)).reshape(c, -1)
    weights = np.ascontiguousarray(w.reshape(o, c), F32)
    start = None
    if bias is not None:
        start = np.ascontiguousarray(np.broadcast_to(np.asarray(bias, F32)[:, None],
                                                     (o, columns.shape[1])))
    chunks = (_pointwise_blocks(n, c, o, oh, oh * ow, threads) if chunk is None
              else [(k0, min(k0 + chunk, c)) for k0 in range(0, c, chunk)])
    out = sgemm.chain_parts(weights, columns, chunks[:1], start)[0]
    if len(chunks) > 1:
        for part in sgemm.chain_parts(weights, columns, chunks[1:]):
            out += part
    return np.ascontiguousarray(out.reshape(o, n, oh, ow).transpose(1, 0, 2, 3))


def _over_bound(m: int, n: int, k: int, count: int = 1) -> bool:
    """Whether `count` (m x n x k) products of slow_conv2d would take the emulation past the
    bound; never where MKL itself is loaded (its sgemm is torch's, at MKL's speed)."""
    if blas.available():
        return False
    return count * sgemm.cost("blocked", m, n, k) > sgemm.EXACT_MAX_US


def slow_forward(cols: np.ndarray, w: np.ndarray, bias: np.ndarray | None) -> np.ndarray | None:
    """slow_conv2d for one sample: weight (O, K) @ columns (K, OH*OW) by MKL's sgemm, the bias
    (when present) as the product's starting value; None over the bound."""
    weights = w.reshape(w.shape[0], -1)
    if _over_bound(weights.shape[0], cols.shape[1], cols.shape[0]):
        return None
    if bias is None:
        return sgemm.mm(weights, cols)
    start = np.broadcast_to(bias[:, None], (weights.shape[0], cols.shape[1]))
    return sgemm.addmm(np.ascontiguousarray(start), weights, cols, 1.0, 1.0)


def slow_backward_columns(gy: np.ndarray, w: np.ndarray) -> np.ndarray | None:
    """slow_conv2d's input gradient before its col2im: per sample weight^T (K, O) @ the
    output gradient (O, OH*OW) by MKL's sgemm, (N, K, OH*OW); None over the bound."""
    n, o = gy.shape[:2]
    weights = w.reshape(o, -1)
    rows = np.ascontiguousarray(gy).reshape(n, o, -1)  # (ATen: grad_output.contiguous())
    if _over_bound(weights.shape[1], rows.shape[2], o, n):
        return None
    return np.stack([sgemm.mm(weights.T, sample) for sample in rows])


def slow_backward_weights(cols: np.ndarray, gy: np.ndarray) -> np.ndarray | None:
    """slow_conv2d's weight gradient: from 0, per sample in turn, += the output gradient
    (O, OH*OW) @ its columns^T (OH*OW, K) by MKL's sgemm with beta 1; (O, K), None over the
    bound."""
    n, o = gy.shape[:2]
    rows = gy.reshape(n, o, -1)
    k = cols.shape[1]
    if _over_bound(o, k, rows.shape[2], n):
        return None
    acc = np.zeros((o, k), gy.dtype)
    for sample, columns in zip(rows, cols, strict=True):
        acc = sgemm.addmm(acc, sample, columns.T, 1.0, 1.0)
    return acc


def data_pieces(o: int, kw: int, width: int, stride: tuple[int, int],
                block: int = IC_BLOCK) -> list[Piece]:
    """How oneDNN's backward-data kernel splits each input element's sum, found by probing
    torch: with strides of 1, output channels in blocks of 16, each block one chain over the
    kernel rows, kernel columns and its channels; a strided convolution takes all channels at
    once, and when its stride divides the input's width, one chain per kernel column (over the
    kernel rows and the channels). Each piece's chain starts from 0; the pieces are added in
    order: (first channel, end, first kernel column, end) each."""
    if stride == (1, 1):
        return _blocks(o, kw, block)
    if width % stride[1] == 0:
        return [(0, o, j, j + 1) for j in range(kw)]
    return [(0, o, 0, kw)]


def onednn_backward_data(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...],
                         padding: tuple[int, int], stride: tuple[int, int],
                         dilation: tuple[int, int], threads: int = 1, *,
                         kernel_1x1: bool = True, block: int = IC_BLOCK) -> np.ndarray | None:
    """oneDNN's backward-data kernel (data_pieces: the chains from 0 that each input element's
    sum is made of, added in order). None over the time bound. kernel_1x1: as onednn_forward's;
    block: the output channels' block with strides of 1 (a grouped convolution's)."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w.shape[1], w.shape[2], w.shape[3]
    (ph, pw), (sh, sw), (dh, dw) = padding, stride, dilation
    h, width = x_shape[2] + 2 * ph, x_shape[3] + 2 * pw
    pieces = data_pieces(o, kw, x_shape[3], stride, block)
    if kernel_1x1 and stride == (1, 1) and pointwise(x_shape, w.shape, padding, stride,
                                                     (oh, ow)):
        # the 1x1 kernel: the output channels in its blocks (strided: one chain, as above)
        pieces = [(start, end, 0, 1)
                  for start, end in _pointwise_blocks(n, o, c, x_shape[2], oh * ow, threads)]
    if _compiled(n * c * h * width * o * kh * kw, n * o * kh * kw * h * width):
        return _compiled_backward_data(gy, w, x_shape, padding, stride, dilation, pieces)
    if o * kh * kw * (_STEP_US + n * c * oh * ow * _ELEMENT_US) > sgemm.EXACT_MAX_US:
        return None
    total = None
    for o0, o1, j0, j1 in pieces:
        acc = np.zeros((n, c, h, width), F32)
        for i in range(kh):
            for j in range(j0, j1):
                rows = slice(i * dh, i * dh + sh * (oh - 1) + 1, sh)
                cols = slice(j * dw, j * dw + sw * (ow - 1) + 1, sw)
                for oc in range(o0, o1):
                    target = acc[:, :, rows, cols]
                    acc[:, :, rows, cols] = fma32(
                        np.broadcast_to(gy[:, oc][:, None], target.shape),
                        np.broadcast_to(w[oc, :, i, j][None, :, None, None], target.shape),
                        target)
        if total is None:
            total = acc
        else:
            total += acc
    return np.ascontiguousarray(total[:, :, ph:ph + x_shape[2], pw:pw + x_shape[3]])


def depthwise_forward(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None,
                      padding: tuple[int, int], stride: tuple[int, int],
                      bias_after: bool = False) -> np.ndarray:
    """oneDNN's depthwise forward (groups = channels, one filter each, no dilation), found by
    probing torch: each output one chain over the kernel positions row by row, from the bias
    (or 0). bias_after: the chain from 0 and the bias added after it, as the brdgmm_dw kernel
    (NHWC data) and the gemm-based convolution (jit_sse41_gemv_n_f32_kern's fused chain over
    the kernel positions, then the bias) have it."""
    n, c = x.shape[:2]
    kh, kw = w.shape[2], w.shape[3]
    (ph, pw), (sh, sw) = padding, stride
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    oh = (padded.shape[2] - kh) // sh + 1
    ow = (padded.shape[3] - kw) // sw + 1
    shape = (n, c, oh, ow)
    acc = np.zeros(shape, F32)
    if bias is not None and not bias_after:
        acc[...] = np.asarray(bias, F32)[None, :, None, None]
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw]
            acc = fma32(window, np.broadcast_to(w[None, :, 0, i, j, None, None], shape), acc)
    if bias is not None and bias_after:
        acc += np.asarray(bias, F32)[None, :, None, None]
    return acc


def depthwise_backward_data(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...],
                            padding: tuple[int, int], stride: tuple[int, int]) -> np.ndarray:
    """oneDNN's depthwise backward data (groups = channels, one filter each, no dilation),
    found by probing torch: each input element's chain from 0 over the kernel positions that
    reach it, row by row."""
    n, c, h, width = x_shape
    kh, kw = w.shape[2], w.shape[3]
    (ph, pw), (sh, sw) = padding, stride
    oh, ow = gy.shape[2], gy.shape[3]
    acc = np.zeros((n, c, h + 2 * ph, width + 2 * pw), F32)
    for i in range(kh):
        for j in range(kw):
            rows, cols = slice(i, i + sh * (oh - 1) + 1, sh), slice(j, j + sw * (ow - 1) + 1, sw)
            weights = np.broadcast_to(w[None, :, 0, i, j, None, None], gy.shape)
            acc[:, :, rows, cols] = fma32(gy, weights, acc[:, :, rows, cols])
    return np.ascontiguousarray(acc[:, :, ph:ph + h, pw:pw + width])


def depthwise_backward_weights(x: np.ndarray, gy: np.ndarray, kernel: tuple[int, int],
                               padding: tuple[int, int], stride: tuple[int, int],
                               threads: int = 1) -> np.ndarray | None:
    """oneDNN's depthwise backward weights (groups = channels, one filter each, no dilation),
    (C, 1, kh, kw): per weight one fused chain from 0 in the kernel's order (samples, blocks of
    15 output rows, blocks of output columns, the block's rows, its columns), cut where the
    driver splits the minibatch among threads, the threads' chains added in order. None where
    that kernel does not run the problem, or the kernels are not built."""
    nthr_mb = conv_split.dw_bwd_weights_threads(x.shape, kernel, padding, stride, threads)
    if nthr_mb is None or native.kernels is None:
        return None
    n, c, oh, ow = gy.shape
    (kh, kw), (ph, pw), (sh, sw) = kernel, padding, stride
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    base = np.ascontiguousarray(padded, F32)
    g = np.ascontiguousarray(gy, F32)
    r_pad = max(0, (ow - 1) * sw + kw - x.shape[3] - pw)
    # one sample's (row, column) steps in the kernel's order, then every sample's
    rows, cols = [], []
    for r0 in range(0, oh, conv_split.DW_OH_BLOCK):
        block = np.arange(r0, min(r0 + conv_split.DW_OH_BLOCK, oh))
        for q0, q1 in conv_split.dw_column_blocks(ow, r_pad):
            rows.append(np.repeat(block, q1 - q0))
            cols.append(np.tile(np.arange(q0, q1), block.size))
    r_, q_ = np.concatenate(rows).astype(np.int64), np.concatenate(cols).astype(np.int64)
    samples = np.arange(n, dtype=np.int64)[:, None]
    grads = ((samples * g.strides[0] + r_ * g.strides[2] + q_ * g.strides[3]) // 4).ravel()
    inputs = ((samples * base.strides[0] + r_ * sh * base.strides[2]
               + q_ * sw * base.strides[3]) // 4).ravel()
    taps = ((np.arange(kh)[:, None] * base.strides[2] + np.arange(kw)[None] * base.strides[3])
            // 4).reshape(-1).astype(np.int64)
    spans = [(a * oh * ow, b * oh * ow) for a, b in conv_split.shares(n, nthr_mb)]
    out = np.empty((c, kh * kw), F32)
    for channel in range(c):
        row = (g, np.array([channel * g.strides[1] // 4], np.int64), grads)
        columns = (base, inputs + channel * base.strides[1] // 4, taps)
        out[channel] = _added(native.chain(row, columns, spans))[0]
    return out.reshape(c, 1, kh, kw)


def depthwise_bias_spans(x_shape: tuple[int, ...], kernel: tuple[int, int],
                         padding: tuple[int, int], stride: tuple[int, int],
                         threads: int) -> list[tuple[int, int]] | None:
    """The depthwise kernel's bias sums (with its weights') cut among threads, as
    onednn_backward_bias's spans."""
    nthr_mb = conv_split.dw_bwd_weights_threads(x_shape, kernel, padding, stride, threads)
    if nthr_mb is None:
        return None
    n, _, h, width = x_shape
    oh = (h + 2 * padding[0] - kernel[0]) // stride[0] + 1
    ow = (width + 2 * padding[1] - kernel[1]) // stride[1] + 1
    return [(a * oh * ow, b * oh * ow) for a, b in conv_split.shares(n, nthr_mb)]


def onednn_backward_weights(x: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...],
                            padding: tuple[int, int], stride: tuple[int, int],
                            dilation: tuple[int, int], threads: int = 1, *,
                            kernel_1x1: bool = True) -> np.ndarray | None:
    """oneDNN's backward-weights kernel: one fused chain per weight, from 0, over the samples,
    then the output rows and columns; at more than one thread that chain cut where the driver
    splits the minibatch (conv_split.bwd_weights_spans), the threads' chains added in order.
    None over the time bound. kernel_1x1: as onednn_forward's."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w_shape[1], w_shape[2], w_shape[3]
    if kernel_1x1 and pointwise(x.shape, w_shape, padding, stride, (oh, ow)):
        return _pointwise_backward_weights(x, gy, stride, threads)
    spans = conv_split.bwd_weights_spans(x.shape, w_shape, padding, stride, dilation,
                                         threads) or [(0, n * oh * ow)]
    if _compiled(n * oh * ow * o * c * kh * kw, x.size * kh * kw):
        return _compiled_backward_weights(x, gy, w_shape, padding, stride, dilation, spans)
    if n * oh * ow * (_STEP_US + o * c * kh * kw * _ELEMENT_US) > sgemm.EXACT_MAX_US:
        return None
    (ph, pw) = padding
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    windows = np.stack([np.stack(row, axis=-1) for row in
                        _windows(padded, kh, kw, (oh, ow), stride, dilation)], axis=-2)
    # windows: (N, C, OH, OW, kh, kw); the chain's step k = (s, r, q) multiplies gy[s, :, r, q]
    # by windows[s, :, r, q]
    flat_gy = gy.transpose(0, 2, 3, 1).reshape(-1, o)
    flat_windows = windows.transpose(0, 2, 3, 1, 4, 5).reshape(-1, c, kh, kw)
    total = None
    for begin, end in spans:
        acc = np.zeros((o, c, kh, kw), F32)
        for k in range(begin, end):
            acc = fma32(np.broadcast_to(flat_gy[k][:, None, None, None], acc.shape),
                        np.broadcast_to(flat_windows[k][None], acc.shape), acc)
        total = acc if total is None else total + acc
    return total


def onednn_backward_bias(gy: np.ndarray,
                         spans: list[tuple[int, int]] | None = None) -> np.ndarray:
    """The bias gradient oneDNN computes with the weights': per channel a float sum over the
    samples, then the output rows and columns, in order; cut into `spans` of those steps where
    the driver splits them among threads (conv_split.bwd_bias_spans), each span's sum from 0
    and the sums added in order."""
    o = gy.shape[1]
    steps_total = gy.shape[0] * gy.shape[2] * gy.shape[3]
    spans = spans or [(0, steps_total)]
    if native.kernels is not None and gy.dtype == F32 and gy.size:
        # the sums as fused chains of products by 1 (each a + 1 * g rounded once: a + g), gy
        # read where it lies
        g = np.ascontiguousarray(gy)
        steps = _offsets(g, g, (0, 2, 3))
        ones = np.broadcast_to(F32(1), (steps.size, 1))
        parts = native.chain((g, _offsets(g, g, (1,)), steps), ones, spans)[:, :, 0]
        return _added(parts)
    values = gy.transpose(1, 0, 2, 3).reshape(o, -1)
    if values.shape[1] == 0:
        return np.zeros(o, F32)
    return _added([np.cumsum(values[:, a:b], axis=1, dtype=F32)[:, -1] for a, b in spans])


def bias_spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
               stride: tuple[int, int], dilation: tuple[int, int],
               threads: int) -> list[tuple[int, int]] | None:
    """How the backward-weights driver that runs this convolution cuts its bias sums among
    `threads` (onednn_backward_bias's spans; None: one sum)."""
    n, _, h, width = x_shape
    out = ((h + 2 * padding[0] - dilation[0] * (w_shape[2] - 1) - 1) // stride[0] + 1,
           (width + 2 * padding[1] - dilation[1] * (w_shape[3] - 1) - 1) // stride[1] + 1)
    if pointwise(x_shape, w_shape, padding, stride, out):
        per_group = conv_split.pointwise_bwd_weights_split(n, x_shape[1], w_shape[0], *out,
                                                           threads)[1]
        return [(a * out[0] * out[1], b * out[0] * out[1])
                for a, b in conv_split.shares(n, per_group)]
    return conv_split.bwd_bias_spans(x_shape, w_shape, padding, stride, dilation, threads)


def _added(parts: Any) -> np.ndarray:
    """Threads' partial results added in thread order (oneDNN's reductions: d += s)."""
    total = np.array(parts[0], F32)
    for part in parts[1:]:
        total += part
    return total


def deconv_backward_bias(gy: np.ndarray, channels_last: bool = False) -> np.ndarray:
    """A transposed convolution's bias gradient (oneDNN's deconvolution, probed): with fewer
    than 4 output channels (or on channels-last data) a float sum per sample (rows, then
    columns) and those sums added in sample order; with more, the convolution's
    (onednn_backward_bias)."""
    n, o = gy.shape[:2]
    if (o >= 4 and not channels_last) or gy.size == 0:
        return onednn_backward_bias(gy)
    sums = np.cumsum(gy.reshape(n, o, -1), axis=2, dtype=F32)[:, :, -1]
    total = np.zeros(o, F32)
    for sample in sums:
        total = total + sample
    return total

# The compiled path: each of oneDNN's chains above is a row of one product of the weights and
# the input's (or output gradient's) windows, in the chain's order, through the kernels' general
# product (native.chain, the one sgemm.py's blocked products run), which packs the windows into
# its panels straight from the input (a gathered operand: offsets of rows and columns, no column
# copy); one call per channel block. Its cost (microseconds): the kernels' multiply-adds and the
# packing of the windows, measured on the reference machine; the bound it runs under is a
# multiple of the products' (one convolution is many products' work at once).
_COLUMN_US = 0.002
_COMPILED_BOUND = 100.0


def _compiled(multiply_adds: int, columns: int) -> bool:
    """Whether the kernels are built and run this convolution within the bound."""
    if native.kernels is None:
        return False
    cost = native.cost(multiply_adds) + columns * _COLUMN_US
    return cost <= sgemm.EXACT_MAX_US * _COMPILED_BOUND


def _blocks(count: int, kw: int, block: int = IC_BLOCK) -> list[Piece]:
    return [(start, min(start + block, count), 0, kw) for start in range(0, count, block)]


def _window_view(x: np.ndarray, kernel: tuple[int, int], out: tuple[int, int],
                 stride: tuple[int, int], dilation: tuple[int, int]) -> np.ndarray:
    """(N, C, kh, kw, OH, OW): the input value each kernel position multiplies, a view."""
    sn, sc, sh, sw = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (x.shape[0], x.shape[1], *kernel, *out),
        (sn, sc, sh * dilation[0], sw * dilation[1], sh * stride[0], sw * stride[1]),
        writeable=False)


def _offsets(view: np.ndarray, base: np.ndarray, axes: tuple[int, ...],
             ranges: tuple[range, ...] | None = None) -> np.ndarray:
    """The element offsets in `base` (C-contiguous, float32, under `view`) of the positions
    along `axes` of `view`, the last axis fastest (ranges: those positions, default all)."""
    steps = [view.strides[axis] // 4 for axis in axes]
    spans = ranges or tuple(range(view.shape[axis]) for axis in axes)
    total = np.zeros((), np.int64)
    for step, span in zip(steps, spans, strict=True):
        total = total[..., None] + np.asarray(span, np.int64) * step
    return total.reshape(-1)


def _first(view: np.ndarray, base: np.ndarray) -> int:
    """The element offset of view's first element in base."""
    return (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 4


def _piece_rows(view: np.ndarray, base: np.ndarray, pieces: list[Piece]) -> native.Gathered:
    """view (N, C, kh, kw, ...) over base as the rows (kh * kw * C, N * ...), gathered: per
    piece its kernel rows, kernel columns and channels, in that order (the chains' order)."""
    kh = view.shape[2]
    rows = [_offsets(view, base, (2, 3, 1), (range(kh), range(j0, j1), range(c0, c1)))
            for c0, c1, j0, j1 in pieces]
    columns = _offsets(view, base, (0, *range(4, view.ndim))) + _first(view, base)
    return base, np.concatenate(rows), columns


def _piece_weights(w: np.ndarray,
                   pieces: list[Piece]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """w (C, kh, kw, R) as the rows (R, kh * kw * C) that _piece_rows' columns meet, and each
    piece's span of them."""
    parts = [w[c0:c1, :, j0:j1].transpose(3, 1, 2, 0).reshape(w.shape[3], -1)
             for c0, c1, j0, j1 in pieces]
    ends = np.cumsum([part.shape[1] for part in parts]).tolist()
    return np.concatenate(parts, axis=1), list(zip([0] + ends[:-1], ends))


def _by_channel(y: np.ndarray) -> native.Gathered:
    """y (N, C, ...) as the gathered (C, N * ...) product the chains write."""
    return y, _offsets(y, y, (1,)), _offsets(y, y, (0, *range(2, y.ndim)))


def _compiled_forward(padded: np.ndarray, w: np.ndarray, bias: np.ndarray | None,
                      out: tuple[int, int], stride: tuple[int, int],
                      dilation: tuple[int, int], ic_block: int = IC_BLOCK) -> np.ndarray:
    """The blocks' chains added in order, the bias right after the first's, written into the
    output where it lies."""
    n, c = padded.shape[:2]
    o, _, kh, kw = w.shape
    pieces = _blocks(c, kw, ic_block)
    weights, spans = _piece_weights(w.transpose(1, 2, 3, 0), pieces)
    limits.check((n, o, *out), 4)
    base = np.ascontiguousarray(padded, F32)
    view = _window_view(base, (kh, kw), out, stride, dilation)
    y = np.empty((n, o, *out), F32)
    start = None if bias is None else np.asarray(bias, F32)[:, None]
    native.blocked_into(_by_channel(y), weights, _piece_rows(view, base, pieces), spans, start)
    return y


def _compiled_backward_data(gy: np.ndarray, w: np.ndarray, x_shape: tuple[int, ...],
                            padding: tuple[int, int], stride: tuple[int, int],
                            dilation: tuple[int, int], pieces: list[Piece]) -> np.ndarray:
    """Each input element's chain runs over every kernel position of its piece; the positions
    that reach no output multiply a 0 (which leaves the chain's value as it was)."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w.shape[1:]
    (ph, pw), (sh, sw), (dh, dw) = padding, stride, dilation
    h, width = x_shape[2], x_shape[3]
    top, left = (kh - 1) * dh, (kw - 1) * dw
    spread_shape = (n, o, top + h + 2 * ph, left + width + 2 * pw)
    limits.check((n, c, h, width), 4, int(np.prod(spread_shape)) * 4)
    # spread[..., t, u]: gy at the padded input row t - (kh-1)*dh (column likewise), else 0
    spread = np.zeros(spread_shape, F32)
    spread[:, :, top:top + sh * (oh - 1) + 1:sh, left:left + sw * (ow - 1) + 1:sw] = gy
    # kernel position (i, j) takes input element (y, x) from spread[y + ph + top - i*dh, ...]
    view = _window_view(spread[:, :, ph:, pw:], (kh, kw), (h, width), (1, 1), dilation)
    view = view[:, :, ::-1, ::-1]
    weights, spans = _piece_weights(w.transpose(0, 2, 3, 1), pieces)
    gx = np.empty((n, c, h, width), F32)
    native.blocked_into(_by_channel(gx), weights, _piece_rows(view, spread, pieces), spans)
    return gx


def _compiled_backward_weights(x: np.ndarray, gy: np.ndarray, w_shape: tuple[int, ...],
                               padding: tuple[int, int], stride: tuple[int, int],
                               dilation: tuple[int, int],
                               spans: list[tuple[int, int]]) -> np.ndarray:
    """One chain per weight and span of the samples, output rows and columns (a product over
    them, both operands gathered where they lie), the spans' results added in order."""
    n, o, oh, ow = gy.shape
    c, kh, kw = w_shape[1:]
    (ph, pw) = padding
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    base = np.ascontiguousarray(padded, F32)
    view = _window_view(base, (kh, kw), (oh, ow), stride, dilation)
    g = np.ascontiguousarray(gy, F32)
    grads = (g, _offsets(g, g, (1,)), _offsets(g, g, (0, 2, 3)))
    columns = (base, _offsets(view, base, (0, 4, 5)) + _first(view, base),
               _offsets(view, base, (1, 2, 3)))
    return _added(native.chain(grads, columns, spans)).reshape(o, c, kh, kw)
