"""How oneDNN v3.12's float32 convolution drivers split work among PyTorch's intra-op threads,
where the split changes the bits: the reductions a kernel does not own alone.

A chain that one thread runs whole gives the same bits at any thread count; what changes them
is a reduction cut among threads, each part a chain from 0 and the parts added afterwards in
the threads' order. oneDNN does that in backward weights (jit_avx512_common_convolution.cpp:
the minibatch, or the minibatch's output rows, split among `nthr_mb` threads by balance211,
each into its own buffer, then `diff_weights += buffer[t]` for t = 1, 2, ... in order) and in
the bias gradient that comes with it. The choice of `nthr_mb` is the kernel's `balance()`
(jit_avx512_common_conv_kernel.cpp), a search over thread grids by a memory and a compute cost,
reproduced here integer for integer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SIMD_W = 16
MIN_OH_REDUCE = 9  # jit_avx512_common_conv_bwd_weights_kernel_f32::min_oh_reduce
MAX_UR_W = 28


def div_up(a: int, b: int) -> int:
    return -(-a // b)


def balance211(n: int, team: int, tid: int) -> tuple[int, int]:
    """oneDNN's balance211: thread `tid` of `team`'s share [start, end) of n items (the first
    threads one more where n does not divide)."""
    if team <= 1 or n == 0:
        return 0, n
    n1 = div_up(n, team)
    n2 = n1 - 1
    t1 = n - n2 * team
    count = n1 if tid < t1 else n2
    start = tid * n1 if tid <= t1 else t1 * n1 + (tid - t1) * n2
    return start, start + count


def shares(n: int, team: int) -> list[tuple[int, int]]:
    """Every thread's balance211 share of n items, in thread order (empty shares left out)."""
    return [share for share in (balance211(n, team, t) for t in range(team))
            if share[0] < share[1]]


@dataclass(frozen=True)
class BwdWeightsConf:
    """The jit_conv_conf_t fields of jit_avx512_common_conv_bwd_weights_kernel_f32 that
    balance() and the drivers read (a 2-D convolution of one group, plain NCHW tensors)."""

    mb: int
    ic: int
    oc: int
    ih: int
    iw: int
    oh: int
    ow: int
    kh: int
    kw: int
    stride_h: int
    stride_w: int
    ic_block: int
    oc_block: int
    two_d: bool  # harness_2d_reduction: the reduction runs over (minibatch, output row)
    hw_transp: bool

    @property
    def nb_ic(self) -> int:
        return div_up(self.ic, self.ic_block)

    @property
    def nb_oc(self) -> int:
        return div_up(self.oc, self.oc_block)


def bwd_weights_conf(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                     padding: tuple[int, int], stride: tuple[int, int],
                     dilation: tuple[int, int]) -> BwdWeightsConf | None:
    """init_conf of oneDNN's avx512 backward-weights kernel for a one-group 2-D convolution, or
    None where it declines the problem (another implementation runs it)."""
    mb, ic, ih, iw = x_shape
    oc, _, kh, kw = w_shape
    (ph, pw), (sh, sw) = padding, stride
    dil_h, dil_w = dilation[0] - 1, dilation[1] - 1
    ext_kh, ext_kw = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    oh = (ih + 2 * ph - ext_kh) // sh + 1
    ow = (iw + 2 * pw - ext_kw) // sw + 1
    if (dil_h and sh != 1) or (dil_h and ext_kh > ih):
        return None
    r_pad = max(0, (ow - 1) * sw + ext_kw - iw - pw)
    b_pad = max(0, (oh - 1) * sh + ext_kh - ih - ph)
    hw_transp = (14 <= kw < 20 and ow == 1 and kw == iw and sh == sw == 1
                 and dil_h == dil_w == 0 and ph == pw == r_pad == b_pad == 0)
    first = ic < 16
    if first and ic not in (1, 2, 3):
        return None  # jit:avx2's kernel (8-channel blocks) runs it
    max_pad_h = ext_kh // 2
    if not (pw < ext_kw and r_pad < ext_kw and ph <= max_pad_h and b_pad <= max_pad_h
            and pw <= MAX_UR_W and r_pad <= MAX_UR_W):
        return None
    if not hw_transp and kw > 14:
        return None
    ic_block = ic if first else SIMD_W
    padded_ic = ic if first else div_up(ic, SIMD_W) * SIMD_W
    return BwdWeightsConf(mb, padded_ic, div_up(oc, SIMD_W) * SIMD_W, ih, iw, oh, ow, kh, kw,
                          sh, sw, ic_block, SIMD_W,
                          dil_h == 0 and oh > MIN_OH_REDUCE and not hw_transp, hw_transp)


def bwd_weights_balance(j: BwdWeightsConf, nthreads: int) -> tuple[int, int, int, int]:
    """jit_avx512_common_conv_bwd_weights_kernel_f32::balance for one group: (nthr, nthr_mb,
    nthr_oc_b, nthr_ic_b)."""
    ih = j.iw if j.hw_transp else j.ih
    oh = j.ow if j.hw_transp else j.oh
    iw = j.ih if j.hw_transp else j.iw
    ow = j.oh if j.hw_transp else j.ow
    ih_reduce, oh_reduce = (ih, oh) if j.two_d else (1, 1)
    ih_no_reduce, oh_no_reduce = (1, 1) if j.two_d else (ih, oh)
    nthr_oh_reduce = max(1, oh_reduce // MIN_OH_REDUCE)

    def mem_cost(nthr_mb: int, nthr_oc_b: int, nthr_ic_b: int) -> int:
        src = (div_up(j.mb * ih_reduce, nthr_mb) * div_up(j.nb_ic, nthr_ic_b) * j.ic_block
               * ih_no_reduce * iw // j.stride_h // j.stride_w)
        dst = div_up(j.mb * oh_reduce, nthr_mb) * div_up(j.nb_oc, nthr_oc_b) * j.oc_block \
            * oh_no_reduce * ow
        wei = 8 * div_up(j.nb_oc, nthr_oc_b) * div_up(j.nb_ic, nthr_ic_b) * j.kh * j.kw \
            * j.ic_block * j.oc_block
        return src + dst + wei

    def comp_cost(nthr_mb: int, nthr_oc_b: int, nthr_ic_b: int) -> int:
        return (div_up(j.mb * oh_reduce, nthr_mb) * div_up(j.nb_oc, nthr_oc_b)
                * div_up(j.nb_ic, nthr_ic_b))

    best = (1, 1, 1)
    nthr_mb_max = min(nthreads, j.mb * nthr_oh_reduce)

    def grids() -> list[tuple[int, int, int]]:
        out = []
        for nthr_mb in range(1, nthr_mb_max + 1):
            par = nthreads // nthr_mb
            for nthr_oc_b in range(1, min(par, j.nb_oc) + 1):
                out.append((nthr_mb, nthr_oc_b, min(par // nthr_oc_b, j.nb_ic)))
        return out

    best_mem = mem_cost(*best)
    for grid in grids():  # step 1: the lowest memory cost (the last of equals)
        cost = mem_cost(*grid)
        if cost <= best_mem:
            best_mem, best = cost, grid
    best_comp = comp_cost(*best)
    for grid in grids():  # step 2: a lower compute cost within 110% of that memory cost
        cost, comp = mem_cost(*grid), comp_cost(*grid)
        opt1 = comp <= best_comp and (j.hw_transp or cost < 1.1 * best_mem)
        if opt1 or 4 * comp <= 3 * best_comp:
            best_comp, best = comp, grid
    nthr_mb, nthr_oc_b, nthr_ic_b = best
    if nthreads // 2 < nthr_mb < nthreads:
        nthr_mb = min(j.mb * nthr_oh_reduce, nthreads)
    return nthr_mb * nthr_oc_b * nthr_ic_b, nthr_mb, nthr_oc_b, nthr_ic_b


def bwd_weights_spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                      padding: tuple[int, int], stride: tuple[int, int],
                      dilation: tuple[int, int], threads: int) -> list[tuple[int, int]] | None:
    """The avx512 backward-weights kernel's reduction cut among threads: each thread's chain as
    a span of the (sample, output row, output column) steps, in thread order; None where that
    kernel does not run the problem. One span at one thread."""
    j = bwd_weights_conf(x_shape, w_shape, padding, stride, dilation)
    if j is None:
        return _avx2_spans(x_shape, w_shape, padding, stride, dilation, threads, 0)
    steps = j.oh * j.ow
    if threads <= 1:
        return [(0, j.mb * steps)]
    nthr_mb = bwd_weights_balance(j, threads)[1]
    if j.two_d:  # rows of (sample, output row)
        return [(a * j.ow, b * j.ow) for a, b in shares(j.mb * j.oh, nthr_mb)]
    return [(a * steps, b * steps) for a, b in shares(j.mb, nthr_mb)]


def bwd_bias_spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                   padding: tuple[int, int], stride: tuple[int, int],
                   dilation: tuple[int, int], threads: int) -> list[tuple[int, int]] | None:
    """The bias gradient's cut, as bwd_weights_spans: with the 2-D harness the kernel sums the
    bias with the weights (the same spans); otherwise compute_diff_bias's reducer (one job per
    16 channels, reduce_balancer_t) splits the minibatch among the threads of a job group."""
    j = bwd_weights_conf(x_shape, w_shape, padding, stride, dilation)
    if j is None:
        return _avx2_spans(x_shape, w_shape, padding, stride, dilation, threads, 1)
    steps = j.oh * j.ow
    if threads <= 1:
        return [(0, j.mb * steps)]
    nthr, nthr_mb = bwd_weights_balance(j, threads)[:2]
    if j.two_d:
        return [(a * j.ow, b * j.ow) for a, b in shares(j.mb * j.oh, nthr_mb)]
    per_group = reducer_threads_per_group(nthr, j.nb_oc, j.mb, nthr * 3 * 5 * 5 * 16 * 16)
    return [(a * steps, b * steps) for a, b in shares(j.mb, per_group)]


def _avx2_spans(x_shape: tuple[int, ...], w_shape: tuple[int, ...], padding: tuple[int, int],
                stride: tuple[int, int], dilation: tuple[int, int], threads: int,
                which: int) -> list[tuple[int, int]] | None:
    """jit:avx2's minibatch split as spans of steps (which: 0 the weights', 1 the bias')."""
    split = avx2_bwd_weights_split(x_shape, w_shape, padding, stride, dilation, threads)
    if split is None:
        return None
    oh = (x_shape[2] + 2 * padding[0] - w_shape[2]) // stride[0] + 1
    ow = (x_shape[3] + 2 * padding[1] - w_shape[3]) // stride[1] + 1
    return [(a * oh * ow, b * oh * ow) for a, b in shares(x_shape[0], split[which])]


def reducer_threads_per_group(nthr: int, njobs: int, reduction: int, max_buffer: int,
                              job_size: int = SIMD_W) -> int:
    """reduce_balancer_t::balance (lock free): the threads that share a group of jobs of
    `job_size` elements, each a balance211 share of the reduction (max_buffer: the elements of
    scratch space it may use)."""
    min_jobs = max(1, njobs // nthr)
    max_jobs = max(1, max_buffer // (nthr * job_size))
    groups = min(njobs // min_jobs, nthr)
    per_group = min(nthr // groups, reduction)
    complexity = njobs * job_size * reduction
    for jobs in range(min_jobs, njobs):
        c_groups = min(njobs // jobs, nthr)
        c_per_group = min(nthr // c_groups, reduction)
        ub = div_up(njobs, c_groups)
        if c_per_group > 1 and ub > max_jobs:
            continue
        c_complexity = job_size * ub * (div_up(reduction, c_per_group) + (c_per_group != 1))
        if c_complexity < complexity:
            per_group, complexity = c_per_group, c_complexity
    return per_group


# --- jit:avx2's backward weights (jit_avx2_convolution_bwd_weights_t), where the avx512 kernel
# declines (4 to 15 input channels): blocks of 8 channels; the minibatch split among the
# threads of a job group by cpu_reducer's balancer at the full thread count, each thread's
# chain over its samples, the threads' buffers added in order (weights and bias alike).
AVX2_W = 8
AVX2_BUFFER = 1 << 21


def avx2_bwd_weights_split(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                           padding: tuple[int, int], stride: tuple[int, int],
                           dilation: tuple[int, int], threads: int) -> tuple[int, int] | None:
    """The threads sharing the minibatch for the weights and for the bias in jit:avx2's
    backward weights, or None where that kernel does not run the problem."""
    mb, ic, ih, iw = x_shape
    oc, _, kh, kw = w_shape
    (ph, pw), (sh, sw) = padding, stride
    if dilation != (1, 1):
        return None
    oh = (ih + 2 * ph - kh) // sh + 1
    ow = (iw + 2 * pw - kw) // sw + 1
    r_pad = max(0, (ow - 1) * sw + kw - iw - pw)
    b_pad = max(0, (oh - 1) * sh + kh - ih - ph)
    if not (ph < kh and b_pad < kh and pw < kw and r_pad < kw and kw < 14 and kh <= ih):
        return None
    nb_ic = 1 if ic == 3 else div_up(ic, AVX2_W)
    ic_block = ic if ic == 3 else AVX2_W
    nb_oc = div_up(oc, AVX2_W)
    weights = reducer_threads_per_group(threads, nb_ic * nb_oc, mb, AVX2_BUFFER,
                                        kh * kw * ic_block * AVX2_W)
    bias = reducer_threads_per_group(threads, nb_oc, mb, AVX2_BUFFER, AVX2_W)
    return weights, bias


# --- the 1x1 kernel's reduction blocks (jit_avx512_common_1x1_conv_kernel::init_conf) -------
# Forward and backward data sum over input (output) channels in blocks of `reduce_blocking`
# channels: each block a chain from 0, added into the result after the first (the kernel's
# store: vaddps with the output unless FLAG_REDUCE_FIRST). Its choice depends on the spatial
# size and, through the register blocking `ur` and a cache-aliasing check, on the image size.
SMALL_SPATIAL, BIG_SPATIAL = 10, 28
BIG_LOAD_DIM = 256
WAY_SIZE, MAX_HITS = 64 * 1024 // 4, 7


def _pointwise_ur(spatial: int, os: int, load_dim: int) -> int:
    """The register blocking over output pixels (the explicit-broadcast kernel's)."""
    max_regs, min_regs, threshold = 9, 6, 14
    if 128 < load_dim < BIG_LOAD_DIM and SMALL_SPATIAL < spatial < BIG_SPATIAL:
        max_regs, min_regs = 6, 5
    for ur in range(max_regs, min_regs - 1, -1):
        if (spatial >= threshold and spatial % ur == 0) or (spatial < threshold
                                                              and os % ur == 0):
            return ur
    ur, tail = min(max_regs, os), os % max_regs
    for i in range(max_regs, min_regs - 1, -1):
        if os % i > tail or os % i == 0:
            ur, tail = i, os % i
            if tail == 0:
                break
    return ur


def pointwise_reduce_blocking(mb: int, reduce_dim: int, load_dim: int, rows: int,
                              os: int, threads: int) -> int | None:
    """The channels each chain of oneDNN's 1x1 forward or backward-data kernel sums (reduce_dim:
    the channels summed, load_dim: the channels produced, rows: the image's rows (output rows
    forward, input rows backward), os: its pixels); None where the kernel would not broadcast
    explicitly (more than 8 threads a sample: not reproduced)."""
    if 8 * mb // max(1, threads) < 1:
        return None
    padded = div_up(reduce_dim, SIMD_W) * SIMD_W
    if load_dim <= BIG_LOAD_DIM and SMALL_SPATIAL < rows < BIG_SPATIAL:
        blocking = min(padded, 80)
    elif rows > SMALL_SPATIAL:
        blocking = min(padded, 512)
    else:
        blocking = min(padded, 256)
    if os * blocking > WAY_SIZE * MAX_HITS:
        ur = _pointwise_ur(rows, os, load_dim)
        lines = WAY_SIZE // SIMD_W
        for start in range(ur):
            off, hits = start, 0
            while off < os * (blocking // SIMD_W):
                if off % os < ur:
                    hits += 1
                    if hits >= MAX_HITS:
                        blocking = min(blocking, SIMD_W * max(1, (off + lines) // os))
                        break
                off += lines
    return blocking


# --- the 1x1 kernel's backward weights (jit_avx512_common_1x1_convolution_bwd_weights_t) ----
# The reduction runs over (sample, block of `reduce_block` pixels); nthr_mb threads take
# balance211 shares of those blocks; each thread's kernel calls cover at most
# nb_reduce_blocking blocks of one sample, each call a chain from 0 added into the thread's
# buffer (the first stored), then diff_weights += buffer[t] in thread order.
L1_FLOATS = 48 * 1024 // 4  # the per-core L1 data cache of the reference machine, in floats


def best_divider(value: int, min_divider: int, max_divider: int, find_max: bool,
                 step: int = 1) -> int:
    """oneDNN's best_divider: the divider in [min, max] wasting the least of `value` when
    rounded up to its multiple (the largest of equals with find_max, else the smallest)."""
    max_divider = max(1, min(max_divider, value))
    min_divider = max(1, min(min_divider, max_divider))
    best, best_loss = max_divider, float("inf")
    for divider in range(max_divider, min_divider - 1, -step):
        padded = div_up(value, divider) * divider
        loss = float(np.float32(padded - value) / np.float32(padded))
        if (find_max and loss < best_loss) or (not find_max and loss <= best_loss):
            best, best_loss = divider, loss
    return best


def pointwise_bwd_weights_split(mb: int, ic: int, oc: int, rows: int, cols: int,
                                threads: int) -> tuple[list[list[tuple[int, int]]], int]:
    """The 1x1 backward-weights kernel's chains as spans of the (sample, output pixel) steps,
    grouped by thread (each thread's added in order, then the threads' in order), and the
    threads of the bias reducer's job groups (bwd_bias's minibatch split)."""
    pixels = rows * cols
    block = best_divider(pixels, 7, 16, True)
    if pixels % block:
        block = best_divider(cols, 4, cols, False)
    if block > 256:
        block = 1
    ur = SIMD_W // 2 if block <= 19 else SIMD_W
    largest = min(L1_FLOATS // ur, pixels)
    smallest = min(L1_FLOATS // ur, max(cols, rows))
    blocking = best_divider(pixels, smallest, largest, True)
    blocking = max(blocking // block * block, block)
    blocking_max = blocking * 3 // 2 // block * block
    step, step_max = div_up(blocking, block), div_up(blocking_max, block)
    nb_reduce = div_up(pixels, block)
    nb_ic, nb_oc = div_up(ic, SIMD_W), div_up(oc, SIMD_W)
    nthr, nthr_mb = _pointwise_balance(mb, nb_reduce, nb_ic, nb_oc, block, threads)
    threads_spans = []
    for begin, end in shares(mb * nb_reduce, nthr_mb):
        spans = []
        at = begin
        while at < end:
            sample, first = divmod(at, nb_reduce)
            remaining = min(nb_reduce - first, end - at)
            count = remaining if remaining < step_max else step
            spans.append((sample * pixels + first * block,
                          sample * pixels + min((first + count) * block, pixels)))
            at += count
        threads_spans.append(spans)
    return threads_spans, reducer_threads_per_group(nthr, nb_oc, mb, nthr * 3 * 5 * 5 * 16 * 16)


def _pointwise_balance(mb: int, nb_reduce: int, nb_bcast: int, nb_load: int, block: int,
                       nthreads: int) -> tuple[int, int]:
    """jit_avx512_common_1x1_conv_kernel::balance for one group: (nthr, nthr_mb)."""
    def mem_cost(nthr_mb: int, nthr_oc_b: int, nthr_ic_b: int) -> int:
        return (div_up(mb * nb_reduce, nthr_mb) * div_up(nb_bcast, nthr_ic_b) * SIMD_W * block
                + div_up(mb * nb_reduce, nthr_mb) * div_up(nb_load, nthr_oc_b) * SIMD_W * block
                + 12 * div_up(nb_load, nthr_oc_b) * div_up(nb_bcast, nthr_ic_b)
                * SIMD_W * SIMD_W)

    best, best_cost = (1, 1, 1), mem_cost(1, 1, 1)
    for nthr_mb in range(1, min(nthreads, mb * nb_reduce) + 1):
        par = nthreads // nthr_mb
        for nthr_oc_b in range(1, min(par, nb_load) + 1):
            grid = (nthr_mb, nthr_oc_b, min(par // nthr_oc_b, nb_bcast))
            cost = mem_cost(*grid)
            if cost <= best_cost:
                best, best_cost = grid, cost
    nthr_mb = best[0]
    if nthreads // 2 < nthr_mb < nthreads:
        nthr_mb = min(mb, nthreads)
    return nthr_mb * best[1] * best[2], nthr_mb


# --- the depthwise kernel's backward weights (jit_uni_dw_convolution_bwd_weights_t, blocked
# layout): per weight one chain over the samples, blocks of 15 output rows, blocks of output
# columns, then the block's rows and columns; 16 channels a job, the minibatch split among
# the threads only where the channels' jobs leave threads over.
DW_OH_BLOCK = 15
DW_MAX_UNROLL_W, DW_BLOCK_W = 30, 15


def dw_bwd_weights_threads(x_shape: tuple[int, ...], kernel: tuple[int, int],
                           padding: tuple[int, int], stride: tuple[int, int],
                           threads: int) -> int | None:
    """The threads the depthwise backward-weights kernel splits the minibatch among (nthr_mb),
    or None where the kernel declines the problem."""
    mb, channels, ih, iw = x_shape
    (kh, kw), (ph, pw), (sh, sw) = kernel, padding, stride
    oh = (ih + 2 * ph - kh) // sh + 1
    ow = (iw + 2 * pw - kw) // sw + 1
    b_pad = max(0, (oh - 1) * sh + kh - ih - ph)
    r_pad = max(0, (ow - 1) * sw + kw - iw - pw)
    if not (kw <= 3 and sw <= kw and ph <= kh // 2 and b_pad <= kh // 2 and pw <= kw // 2
            and r_pad <= kw // 2 and ih >= kh + (-ph) % sh
            and (ph <= 1 or ph % sh == 0) and (b_pad <= 1 or b_pad % sh == 0)):
        return None
    nthr_g = min(div_up(channels, SIMD_W), threads)
    return min(max(1, threads // nthr_g), mb)


def _end_padding(start: int, out: int, size: int, stride: int, kernel: int) -> int:
    """calculate_end_padding: the padding past the input's end that the last output reads."""
    return (out - 1) * stride + kernel - (size + start)


def dw_forward_takes(x_shape: tuple[int, ...], kernel: tuple[int, int],
                     padding: tuple[int, int], stride: tuple[int, int]) -> bool:
    """Whether the depthwise forward kernel (jit_uni_dw_conv_fwd_kernel, NCHW's blocked layout,
    AVX-512: 6 output columns unrolled) takes the problem: not where a padding covers the
    whole kernel, nor where a side's padding is wider than the unrolled columns (a tiny
    image under a wide kernel: then oneDNN's gemm-based convolution)."""
    _, _, ih, iw = x_shape
    (kh, kw), (ph, pw), (sh, sw) = kernel, padding, stride
    oh = (ih + 2 * ph - kh) // sh + 1
    ow = (iw + 2 * pw - kw) // sw + 1
    r_pad = _end_padding(pw, ow, iw, sw, kw)
    b_pad = _end_padding(ph, oh, ih, sh, kh)
    if kw <= pw or kw <= r_pad or kh <= ph or kh <= b_pad:
        return False
    ur_w = min(6, ow)
    r_pad_no_tail = max(0, _end_padding(pw, ow - ow % ur_w, iw, sw, kw))
    return pw <= ur_w and r_pad_no_tail <= ur_w


def dw_column_blocks(ow: int, r_pad: int) -> list[tuple[int, int]]:
    """The depthwise backward-weights kernel's blocks of output columns (its w unrolling)."""
    if ow <= DW_MAX_UNROLL_W:
        return [(0, ow)]
    unroll = min(DW_BLOCK_W, ow)
    trips, tail = ow // unroll, ow % unroll
    if (tail == 0 and r_pad != 0) or (r_pad > 0 and r_pad >= tail):
        if trips > 1:
            tail += unroll
            trips -= 1
        else:
            tail += unroll - unroll // 2
            unroll //= 2
    blocks = [(t * unroll, (t + 1) * unroll) for t in range(trips)]
    return blocks + ([(trips * unroll, trips * unroll + tail)] if tail else [])
