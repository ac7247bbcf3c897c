"""float32 matrix products with the bits of PyTorch 2.13's CPU wheel (Intel MKL's sgemm/sgemv,
ATen's small bmm loop), emulated with exact float64 steps; docs/float32.md, "Matrix products".

MKL picks a kernel by shape and layout. Found by experiment against the torch oracle (one
thread, the AVX-512 code of the reference machine) and reproduced bit for bit:

* the general kernel: one fused multiply-add chain per output over k in order, the k range cut
  into blocks (384 at a time while more than 768 remain, then the rest whole or in two halves;
  on wide outputs with k > 768, 384 at a time to the end); each block its own chain, added
  into the output in turn;
* the dot-product kernels (sgemv on rows contiguous along k, the small `x @ W.T` kernel): 16
  lanes each accumulate every 16th product, fused, and a halving tree adds them; variants peel
  the first product, keep two accumulators on alternate pairs of vectors, or take 4 rows at once;
* sgemv's axpy kernel (the matrix contiguous along the outputs): eight k at a time in a fixed
  pattern of fused and unfused adds;
* ATen's own bmm below m * n * k = 400: an unfused chain per output.

* sdot: four accumulators of 16 lanes, then a fixed tree.

`plan` says which kernel a shape and layout reach, None where it is not reproduced (other small-
matrix kernels); those products, and any whose emulation would take longer than
EXACT_MAX_US, compute with NumPy's matmul.

The compiled kernels (_native.c, through native.py) run the same chains with fmaf, a hundred
times faster or more; without them (no C compiler at install, or GRADSH_NATIVE=0) the NumPy
emulation below gives the same bits. Where MKL itself is loaded (the `mkl` package, blas.py),
mm, addmm, bmm, mv and dot call it as ATen does instead: every size and layout, MKL's speed.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from gradsh.engine.vecmath import blas, native
from gradsh.engine.vecmath.fp import F32, F64, I64, fma32, round_f64_to_f32

__all__ = ["mm", "addmm", "bmm", "dot", "matmul", "chain", "plan", "cost", "EXACT_MAX_US"]


def _bound_from_environment(default: float = 10_000) -> float:
    """GRADSH_EXACT_MATMUL_US: the bound a user sets (0 turns the exact products off, a larger
    value buys MKL's bits for bigger products at their cost); the default otherwise."""
    text = os.environ.get("GRADSH_EXACT_MATMUL_US", "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        return default
    return value if value >= 0 else default


# Products whose exact emulation would take longer than this (microseconds, estimated by
# `cost`) compute with NumPy's matmul instead (docs/float32.md, "matmul": the measurements).
EXACT_MAX_US = _bound_from_environment()
# The cost model, measured on the reference machine: each vector step of a kernel is a few
# NumPy calls over all the outputs (or lanes) at once.
_STEP_US = 8.0
_MULTIPLY_ADD_US = 0.004

_LOW29 = I64((1 << 29) - 1)
_HALF29 = I64(1 << 28)
# With every nonzero input at least this large in magnitude, every exact product and partial
# sum is a multiple of 2**-126, so no intermediate result can be a float32 subnormal (where a
# float64 sum rounded to float32 double-rounds in ways the halfway test does not see).
_SAFE_MIN = 2.0 ** -40

Kernel = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _layout(x: np.ndarray) -> str:
    """'r' (row-major: PyTorch passes it to BLAS untransposed) or 'c' (column-major: passed
    transposed); any other layout is copied row-major first, so 'r' too."""
    rows, cols = x.shape
    strides, item = x.strides, x.itemsize
    s0, s1 = strides[0] // item, strides[1] // item
    if (s1 == 1 or cols == 1) and s0 >= max(1, cols):
        return "r"
    if (s0 == 1 or rows == 1) and s1 >= max(1, rows):
        return "c"
    return "r"


def plan(m: int, n: int, k: int, a_col: bool, b_col: bool) -> str | None:
    """Which kernel MKL runs for an (m, k) @ (k, n) float32 product (a_col, b_col: the operand
    is column-major), among those gradsh reproduces: "blocked" (the general kernel), "rank1",
    "chain" (1 x 1), "gemv" (sgemv's dot form), "gemv_t" (the same on the transposed product),
    "axpy" / "axpy_t" (sgemv's axpy form), "dot2" (the small `x @ W.T` kernel); None where it is
    not known."""
    if m == 0 or n == 0 or k == 0:
        return "blocked"  # no product: zeros
    if k == 1:
        return "rank1"  # one product: every order gives the same bits (addmm does not)
    if m == 1 and n == 1:
        return "chain" if k <= 384 else None
    if n == 1:
        if not a_col:
            return "gemv"
        return "axpy_t"
    if m == 1:
        return "gemv_t" if b_col else "axpy"
    if a_col and b_col:
        return "blocked" if m >= 8 else None
    if b_col:  # x @ W.T: MKL's small-matrix kernels below 16 rows
        if m >= 16:
            return "blocked"
        if n <= 3 and k < 24 * m:  # (probed on 400 random shapes: m < 16, n <= 3)
            return "dot2" if m * n <= 30 else "blocked"
        if n >= 4 and 17 <= k < 24 * m:  # from k = 24 m on, another small-matrix kernel
            return "blocked"
        return None
    return "blocked"


# ---------------------------------------------------------------------------------------------
# The multiply-add steps


class _State:
    """careful: the product's inputs have tiny nonzero values (not _safe), so every step also
    checks for float32 subnormal sums. Set around one product (the engine is single-threaded)."""

    careful = False


_state = _State()
_F32_MIN_NORMAL = 2.0 ** -126


def _run(kernel: Kernel, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if native.kernels is not None:  # exact in every range: no subnormal checks
        with np.errstate(all="ignore"):
            return kernel(a, b)
    _state.careful = not _safe(a, b)
    try:
        with np.errstate(all="ignore"):
            return kernel(a, b)
    finally:
        _state.careful = False


def _safe(*arrays: np.ndarray) -> bool:
    """Whether no partial sum can be a float32 subnormal: every nonzero input's magnitude is at
    least _SAFE_MIN (see there)."""
    for x in arrays:
        mag = np.abs(x)
        tiny = (mag < _SAFE_MIN) & (mag != 0)
        if np.count_nonzero(tiny):
            return False
    return True



class _Acc:
    """float32 accumulators (`f32`) with a float64 copy (`f64`: float64 + float64 adds cost a
    third of float64 + float32 ones) and the buffers of the fused step."""

    def __init__(self, shape: tuple[int, ...], start: np.ndarray | None = None) -> None:
        self.f32 = np.zeros(shape, F32) if start is None else np.array(start, F32)
        self.f64 = self.f32.astype(F64)
        self.low = np.empty(shape, I64)
        self.flag = np.empty(shape, np.bool_)

    def fma(self, p: np.ndarray, products_at: Callable[[tuple[np.ndarray, ...]], np.ndarray],
            count: int | None = None) -> None:
        """acc = fl32(p + acc) elementwise (the first `count` rows), one rounding, as vfmadd
        does: p holds exact float64 products and is overwritten. The float64 sum double-rounds
        only where it lands exactly halfway between two float32 values (or, with tiny inputs,
        in float32's subnormal range); there `products_at` gives the products back and TwoSum
        the exact remainder."""
        f32, f64, low, flag = self.f32, self.f64, self.low, self.flag
        if count is not None:
            f32, f64, low, flag = f32[:count], f64[:count], low[:count], flag[:count]
        s = np.add(p, f64, out=p)
        np.bitwise_and(s.view(I64), _LOW29, out=low)
        np.equal(low, _HALF29, out=flag)
        if _state.careful:
            flag |= (np.abs(s) < _F32_MIN_NORMAL) & (s != 0)
        if np.count_nonzero(flag):
            idx = np.nonzero(flag)
            pp = products_at(idx)
            ss = s[idx]
            cc = f64[idx]
            bp = ss - cc
            err = (pp - bp) + (cc - (ss - bp))
            s[idx] = round_f64_to_f32(ss, err)
        np.copyto(f32, s, casting="same_kind")
        np.copyto(f64, f32)

    def add(self, x: np.ndarray) -> None:
        """acc = fl32(acc + x) for float32 x (an IEEE float32 add)."""
        self.f32 += x
        np.copyto(self.f64, self.f32)


# From this many outputs (columns; with `b` row-major, rows too) MKL keeps its k blocks at 384
# all the way when k > 768 (probed: k 769-2000, m 16-256, n 2-1024, every layout).
_WIDE = 192


def _kblocks(k: int, wide: bool = False) -> list[tuple[int, int]]:
    """MKL's k blocks: 384 at a time while more than 768 remain, then the rest whole (up to
    384) or in two halves, the first one larger; `wide` (see _wide) and k > 768: 384 at a time,
    then the rest whole (up to 384)."""
    blocks, start = [], 0
    if wide and k > 768:
        return [(k0, min(k, k0 + 384)) for k0 in range(0, k, 384)]
    while k - start > 768:
        blocks.append((start, start + 384))
        start += 384
    rest = k - start
    if rest > 384:
        half = (rest + 1) // 2
        blocks += [(start, start + half), (start + half, k)]
    elif rest:
        blocks.append((start, k))
    return blocks


def chain_parts(a: np.ndarray, b: np.ndarray, blocks: list[tuple[int, int]],
           start: np.ndarray | None = None) -> np.ndarray:
    """One fused multiply-add chain per output and k block, from 0 (or from `start`, one
    block), the blocks side by side (the shorter ones padded with 0 * 0, which leaves a sum
    that started at +0 unchanged): (len(blocks), m, n) float32."""
    if native.kernels is not None:
        return native.chain(a, b, blocks, start)
    m, n = a.shape[0], b.shape[1]
    count = len(blocks)
    longest = max(k1 - k0 for k0, k1 in blocks)
    a_t = np.zeros((longest, count, m), F64)
    b_t = np.zeros((longest, count, n), F64)
    for i, (k0, k1) in enumerate(blocks):
        a_t[:k1 - k0, i] = a[:, k0:k1].T
        b_t[:k1 - k0, i] = b[k0:k1]
    acc = _Acc((count, m, n), None if start is None else start[None])
    p = np.empty((count, m, n), F64)
    for step in range(longest):
        a_k, b_k = a_t[step][:, :, None], b_t[step][:, None, :]
        np.multiply(a_k, b_k, out=p)
        acc.fma(p, lambda idx, a_k=a_k, b_k=b_k: a_k[idx[0], idx[1], 0] * b_k[idx[0], 0, idx[2]])
    return acc.f32


def _blocked_parts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's general kernel before the blocks are added: one chain per k block, (blocks, m, n)."""
    blocks = _kblocks(a.shape[1], _wide(a, b))
    if not blocks:
        return np.zeros((1, a.shape[0], b.shape[1]), F32)
    return chain_parts(a, b, blocks)


def _wide(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether MKL's k blocks stay at 384 for a @ b (k > 768): n >= 192, and m >= 192 too
    when `b` is row-major (as probed)."""
    m, n = a.shape[0], b.shape[1]
    return n >= _WIDE and (m >= _WIDE or _layout(b) == "c")


def _blocked(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's general kernel: the k blocks' chains, added into the output in turn."""
    parts = _blocked_parts(a, b)
    out = parts[0]
    for part in parts[1:]:
        out += part
    return out


def _tree16(lanes: np.ndarray) -> np.ndarray:
    """The horizontal sum of a 16-lane register: lane l + lane l+8, then +4, +2, +1."""
    for half in (8, 4, 2, 1):
        lanes = lanes[:half] + lanes[half:2 * half]
    return lanes[0]


class _Lanes:
    """Vector steps over 16 lanes for every output at once: lane l of a step at k0 takes the
    product of k0 + l (the caller's a and b, float64, contiguous along k)."""

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a_t = np.ascontiguousarray(a.T, F64)  # (k, m)
        self.b = np.ascontiguousarray(b, F64)  # (k, n)
        m, n = a.shape[0], b.shape[1]
        self.p = np.empty((16, m, n), F64)

    def fma(self, acc: _Acc, k0: int, count: int = 16) -> None:
        """acc[l] = fma(a[:, k0 + l], b[k0 + l], acc[l]) for l < count."""
        a_v, b_v = self.a_t[k0:k0 + count], self.b[k0:k0 + count]
        p = self.p[:count]
        np.multiply(a_v[:, :, None], b_v[:, None, :], out=p)
        acc.fma(p, lambda idx: a_v[idx[0], idx[1]] * b_v[idx[0], idx[2]], count)


def _dot_lanes(a: np.ndarray, b: np.ndarray, accumulators: int, peel: bool) -> np.ndarray:
    """MKL's dot-product kernel (rows of `a` contiguous along k): 16 lanes accumulate every
    16th product (fused); with two accumulators, pairs of 16-vectors alternate between them
    and are added lane-wise after the last pair; the remaining vectors and the partial last one
    are fused into the lanes, then the halving tree. `peel`: the first product is left out of
    the lanes and added (rounded) last."""
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    first = int(peel)
    lanes = _Lanes(a[:, first:], b[first:])
    span = k - first
    vectors = span // 16
    paired = vectors - vectors % accumulators
    accs = [_Acc((16, m, n)) for _ in range(accumulators)]
    for v in range(paired):
        lanes.fma(accs[v % accumulators], 16 * v)
    acc = accs[0]
    for other in accs[1:]:
        acc.add(other.f32)
    for start in range(16 * paired, span, 16):
        lanes.fma(acc, start, min(16, span - start))
    out = _tree16(acc.f32)
    if peel:
        out = out + a[:, :1] * b[:1]
    return out


def _dot_rows(a: np.ndarray, b: np.ndarray, peel: bool) -> np.ndarray:
    """The dot kernel on a few rows: even rows (counted from the first) keep two accumulators,
    odd rows one."""
    if native.kernels is not None:
        return native.dot_rows(a, b, peel)
    out = _dot_lanes(a, b, 1, peel)
    if a.shape[0]:
        out[0::2] = _dot_lanes(a[0::2], b, 2, peel)
    return out


def _gemv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's sgemv on rows of `a` contiguous along k (b: one column, or a few): 4 rows at a
    time, the first product starting lane 0, 16-lane fused steps from k = 1, the tree, then the
    partial last vector fused into fresh lanes with the tree's sum in lane 0, and its tree; the
    last m % 4 rows through the dot kernel with the first product peeled."""
    if native.kernels is not None:
        return native.gemv(a, b)
    m, k = a.shape
    full = m - m % 4
    out = np.empty((m, b.shape[1]), F32)
    if full:
        out[:full] = _gemv_rows4(a[:full], b)
    if m % 4:
        out[full:] = _dot_rows(a[full:], b, peel=True)
    return out


def _gemv_rows4(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    total = a[:, :1] * b[:1]  # the first product, rounded
    lanes = _Lanes(a[:, 1:], b[1:])
    vectors = (k - 1) // 16
    if vectors:
        acc = _Acc((16, m, n), _lane0(total))
        for v in range(vectors):
            lanes.fma(acc, 16 * v)
        total = _tree16(acc.f32)
    rest = k - 1 - 16 * vectors
    if rest:
        acc = _Acc((16, m, n), _lane0(total))
        lanes.fma(acc, 16 * vectors, rest)
        total = _tree16(acc.f32)
    return total


def _lane0(x: np.ndarray) -> np.ndarray:
    """A 16-lane register holding x in lane 0, zeros elsewhere."""
    lanes = np.zeros((16,) + x.shape, F32)
    lanes[0] = x
    return lanes


def _axpy(x: np.ndarray, rows: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """MKL's sgemv on a matrix contiguous along the outputs: y = sum_k x[k] * rows[k] (rows:
    (k, n)). Outputs in whole 16-vectors take k eight at a time, as
    y = (fma(x6, fma(x4 ... (y) + fma(x5, fl(x7))) + (fma(x0, fl(x2)) + fma(x1, fl(x3)))
    (products named by their k in the eight), then the last k % 8 fused in turn; the outputs
    past the last whole 16-vector are one fused chain. The sums start at `start` (addmm's
    beta * input) or 0."""
    if native.kernels is not None:
        return native.axpy(x, rows, start)
    k, n = rows.shape
    wide = n - n % 16
    y = np.zeros(n, F32) if start is None else np.array(start, F32)
    if n % 16:
        y[wide:] = chain_parts(x[None, :], rows[:, wide:], [(0, k)], y[None, wide:])[0, 0]
    if not wide:
        return y
    x64 = x.astype(F64)
    r64 = np.ascontiguousarray(rows[:, :wide], F64)
    acc = _Acc((wide,), y[:wide])
    p = np.empty(wide, F64)

    def fma(i: int, into: _Acc) -> None:
        np.multiply(r64[i], x64[i], out=p)
        into.fma(p, lambda idx: r64[i][idx] * x64[i])

    def rounded(i: int) -> _Acc:
        return _Acc((wide,), r64[i] * x64[i])

    for base in range(0, k - k % 8, 8):
        fma(base + 6, acc)
        fma(base + 4, acc)
        v = rounded(base + 7)
        fma(base + 5, v)
        acc.add(v.f32)
        w0, w1 = rounded(base + 2), rounded(base + 3)
        fma(base, w0)
        fma(base + 1, w1)
        w0.add(w1.f32)
        acc.add(w0.f32)
    for i in range(k - k % 8, k):
        fma(i, acc)
    y[:wide] = acc.f32
    return y


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x . y for float32 vectors as MKL's sdot (a 0-d array)."""
    out = blas.dot(x, y)
    if out is not None:
        return out
    if cost("sdot", 1, 1, x.shape[0]) > EXACT_MAX_US:
        return np.asarray(np.dot(x, y), F32)
    return _run(_sdot, x, y)


def _sdot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MKL's sdot: 16-vectors four at a time into four accumulators, then a pair into the
    first two, the rest (and the partial last vector) into the first; (acc0 + acc1) + (acc2 +
    acc3), then lane l + l+8, + l+4, and (0 + 1) + (2 + 3)."""
    if native.kernels is not None:
        return native.sdot(x, y)
    k = x.shape[0]
    lanes = _Lanes(x[None, :], y[:, None])
    accs = [_Acc((16, 1, 1)) for _ in range(4)]
    vectors, v = k // 16, 0
    while vectors - v >= 4:
        for j in range(4):
            lanes.fma(accs[j], 16 * (v + j))
        v += 4
    if vectors - v >= 2:
        lanes.fma(accs[0], 16 * v)
        lanes.fma(accs[1], 16 * (v + 1))
        v += 2
    for start in range(16 * v, k, 16):
        lanes.fma(accs[0], start, min(16, k - start))
    total = (accs[0].f32 + accs[1].f32) + (accs[2].f32 + accs[3].f32)
    total = total[:8] + total[8:]
    total = total[:4] + total[4:]
    return np.asarray((total[0] + total[1]) + (total[2] + total[3]), F32).reshape(())


def _unfused_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """acc += a[..., i, k] * b[..., k, j] in float32, k in order, the product rounded (ATen's
    small bmm kernel, and the 1 x 1 chain)."""
    if native.kernels is not None and a.ndim == 3 and b.ndim == 3:
        return native.unfused_chain(a, b)
    acc = np.zeros(a.shape[:-1] + b.shape[-1:], F32)
    for k in range(a.shape[-1]):
        acc += a[..., :, k:k + 1] * b[..., k:k + 1, :]
    return acc


def _fused_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return chain_parts(a, b, [(0, a.shape[1])])[0]


def chain(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None,
          blocked: bool = False) -> np.ndarray:
    """start + a @ b for float32 operands as one fused chain per output over all of k, from
    `start` (or 0); `blocked`: the general kernel's k blocks whatever the layout, the first
    from `start`, added in turn (oneDNN's GEMMs, vecmath/lstm.py). NumPy's matmul over the
    bound."""
    m, k = a.shape
    n = b.shape[1]
    if cost("blocked" if blocked else "chain", m, n, k) > EXACT_MAX_US:
        out = np.matmul(a, b)
        return out if start is None else out + start
    blocks = _kblocks(k) if blocked else [(0, k)]
    if not k:
        return np.zeros((m, n), F32) if start is None else np.array(start, F32)

    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        parts = chain_parts(a, b, blocks[:1], start)[0]
        if len(blocks) > 1:
            for part in chain_parts(a, b, blocks[1:]):
                parts += part
        return parts

    with np.errstate(all="ignore"):
        return _run(run, a, b)


_KERNELS: dict[str, Kernel] = {
    "blocked": _blocked,
    "chain": _fused_chain,
    "gemv": _gemv,
    "gemv_t": lambda a, b: _gemv(np.ascontiguousarray(b.T), np.ascontiguousarray(a.T)).T,
    "dot2": lambda a, b: _dot_rows(a, b, peel=False),
    "rank1": lambda a, b: a * b,
    "axpy": lambda a, b: _axpy(a[0], b)[None, :],
    "axpy_t": lambda a, b: _axpy(b[:, 0], np.ascontiguousarray(a.T))[:, None],
}


def cost(kernel: str, m: int, n: int, k: int) -> float:
    """The estimated time of a kernel's emulation, in microseconds: its vector steps (each a
    few NumPy calls) and its multiply-adds; through the compiled kernels, their cost."""
    if native.kernels is not None:
        return native.cost(m * n * k)
    if kernel == "sdot":
        return k * _STEP_US / 16
    if kernel == "blocked":
        steps = k if k <= 384 else (k + 1) // 2 if k <= 768 else 384
    elif kernel in ("chain", "axpy", "axpy_t"):
        steps = 2 * k
    elif kernel in ("gemv", "gemv_t", "dot2"):
        steps = 3 * (k // 16 + 1)
    else:
        steps = 1
    return steps * _STEP_US + m * n * k * _MULTIPLY_ADD_US


def _exact_kernel(a: np.ndarray, b: np.ndarray) -> str | None:
    """The kernel name for a @ b when gradsh reproduces it and it is worth the time."""
    m, k = a.shape
    n = b.shape[1]
    name = plan(m, n, k, _layout(a) == "c", _layout(b) == "c")
    if name is None or cost(name, m, n, k) > EXACT_MAX_US:
        return None
    return name


def _flat_kblocks(k: int, wide: bool = False) -> tuple[int, ...]:
    """_kblocks(k, wide) as the compiled kernel takes them: k0, k1, k0, k1, ..."""
    flat = _FLAT_KBLOCKS.get((k, wide))
    if flat is None:
        flat = _FLAT_KBLOCKS[k, wide] = tuple(bound for block in _kblocks(k, wide)
                                              for bound in block)
    return flat


_FLAT_KBLOCKS: dict[tuple[int, bool], tuple[int, ...]] = {}


def mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for 2-D float32 arrays with PyTorch's bits where gradsh knows them."""
    out = blas.mm(a, b)  # MKL itself, where it is loaded
    if out is not None:
        return out
    name = _exact_kernel(a, b)
    if name is None:
        return np.matmul(a, b)
    if name == "blocked" and native.kernels is not None:  # one call: the blocks and their sum
        return native.blocked(a, b, _flat_kblocks(a.shape[1], _wide(a, b)))
    return np.ascontiguousarray(_run(_KERNELS[name], a, b))


def addmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray, beta: float,
          alpha: float) -> np.ndarray:
    """beta * bias + alpha * (a @ b), float32, as MKL adds them: the general and small-matrix
    kernels make the first k block's alpha * product (rounded), then fma(beta, bias, it), then
    add the other blocks' in turn; sgemv makes fma(alpha, product, beta * bias (rounded))."""
    out = blas.addmm(bias, a, b, beta, alpha)
    if out is not None:
        return out
    m, n = a.shape[0], b.shape[1]
    name = _exact_kernel(a, b)
    if (name == "blocked" and native.kernels is not None and beta.__class__ in _NUMBERS
            and alpha.__class__ in _NUMBERS):  # one call: blocks, scaling, start, sum
        return native.blocked(a, b, _flat_kblocks(a.shape[1], _wide(a, b)),
                              np.asarray(bias) if beta else None, beta, alpha)
    with np.errstate(all="ignore"):
        if beta == 0:  # the input is ignored, NaN and all
            start = np.zeros((m, n), F32)
        else:
            start = np.broadcast_to(np.asarray(bias, F32), (m, n))
        if name in _AXPY or (name == "chain" and beta == 1 and alpha == 1):
            kind = "axpy_t" if name == "chain" else name
            return _run(lambda a, b: _axpy_from(kind, a, b, start * F32(beta), F32(alpha)), a, b)
        if name == "rank1" and n > 1:  # fused into the input, as sger does
            return fma32(a * F32(alpha), np.broadcast_to(b, (m, n)), start * F32(beta))
        if name == "rank1":
            name = "gemv"
        if name == "blocked":
            parts = _run(_blocked_parts, a, b)
        else:
            parts = mm(a, b)[None]
        if name in _SGEMV:
            first = fma32(F32(alpha), parts[0], start * F32(beta))
        else:
            if alpha != 1:
                parts = parts * F32(alpha)
            first = fma32(F32(beta), start, parts[0]) if beta else parts[0]
        out = np.array(first, F32)
        for part in parts[1:]:
            out += part
        return out


_NUMBERS = (float, int)
# MKL's sgemv kernels: the dot form adds alpha * product to beta * input (one fma); the axpy
# form starts its sums at beta * input and takes alpha * x (rounded) as the vector.
_SGEMV = frozenset({"gemv", "gemv_t"})
_AXPY = frozenset({"axpy", "axpy_t"})


def _axpy_from(name: str, a: np.ndarray, b: np.ndarray, start: np.ndarray,
               alpha: np.float32) -> np.ndarray:
    """addmm through the axpy kernels: the sums start at `start`, the vector scaled first."""
    if name == "axpy":
        return _axpy(a[0] * alpha, b, start[0])[None, :]
    return _axpy(b[:, 0] * alpha, np.ascontiguousarray(a.T), start[:, 0])[:, None]


def bmm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for 3-D float32 arrays: ATen's own unfused loop below m * n * k = 400, else
    MKL's sgemm on each matrix."""
    batch, m, k = a.shape
    n = b.shape[2]
    if m * n * k < 400:
        if native.kernels is not None:
            estimate = native.cost(batch * m * n * k)
        else:
            estimate = k * _STEP_US + batch * m * n * k * _MULTIPLY_ADD_US
        if estimate > EXACT_MAX_US:
            return np.matmul(a, b)
        with np.errstate(all="ignore"):
            return _unfused_chain(a, b)
    out = blas.bmm(a, b)
    if out is not None:
        return out
    kernel = plan(m, n, k, _layout(a[0]) == "c", _layout(b[0]) == "c") if batch else None
    if kernel is None or batch * cost(kernel, m, n, k) > EXACT_MAX_US:
        return np.matmul(a, b)
    out = np.empty((batch, m, n), F32)
    for i in range(batch):
        out[i] = mm(a[i], b[i])
    return out


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The engine's float32 products (mm, mv, bmm, dot) by dimension; the rest (a one-row mv,
    whose kernel is not reproduced) through NumPy."""
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if a.ndim == 2 and b.ndim == 1:
        out = blas.mv(a, b)  # sgemv, as ATen's mv calls it
        if out is not None:
            return out
    if a.ndim == 2 and b.ndim == 1 and a.shape[0] != 1:
        return mm(a, b[:, None])[:, 0]
    if a.ndim == 3 and b.ndim == 3:
        return bmm(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    return np.matmul(a, b)
