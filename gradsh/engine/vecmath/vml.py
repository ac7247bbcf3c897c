"""MKL VML's float32 routines as PyTorch's CPU wheel runs them (AVX-512, VML_HA), bit for bit.

ATen hands contiguous float32 sqrt (and exp, log, sin, tanh ...) to MKL's VML in high-accuracy
mode. Those results are not correctly rounded: VML computes a close approximation with fused
steps and rounds it once, so about one element in 170 (sqrt) lands on the other side of a
rounding boundary. Where the steps are known, this module repeats them.

sqrt (vmsSqrt), found by probing torch.sqrt on every float32 in [1, 4) (the result scales with
the exponent, tested): from y = VRSQRT14PS(x), an estimate of 1/sqrt(x) within 2**-14,

    s = fl(x * y);  d = fma(-s, s, x);  result = fma(d, fl(0.5 * y), s)

one Newton step on the square root with the residual d computed exactly by the first fma.
VRSQRT14PS is the same on every AVX-512 processor: Intel specifies it by a reference
implementation, a piecewise-linear interpolation on the top 15 fraction bits (32 segments for
even exponents and 32 for odd ones) truncated to a 17-bit significand. The segment
coefficients below were fitted to the instruction's output on this machine (every one of the
65,536 inputs it distinguishes; each fit is unique) and agree with Intel's published table.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32, F64, I32, I64, fma32

# (slope, value at the segment's middle) for segment i of [1, 2) then of [2, 4), i = 0..31:
# significand17 = (value * 128 - slope * delta) // 512, delta = fraction15 - segment middle.
_RSQRT14_SEGMENTS = (
    (1001, 520261, 707, 367881), (955, 512437, 675, 362349), (915, 504953, 647, 357056),
    (877, 497790, 619, 351992), (841, 490922, 595, 347136), (807, 484331, 571, 342475),
    (775, 478001, 549, 337997), (747, 471909, 527, 333693), (719, 466046, 509, 329545),
    (693, 460397, 491, 325551), (669, 454947, 473, 321697), (647, 449688, 457, 317977),
    (625, 444606, 441, 314385), (603, 439694, 427, 310910), (585, 434939, 413, 307549),
    (567, 430335, 401, 304295), (549, 425875, 389, 301139), (533, 421551, 377, 298079),
    (517, 417355, 365, 295115), (501, 413284, 355, 292237), (487, 409329, 345, 289439),
    (473, 405487, 335, 286722), (461, 401748, 325, 284080), (449, 398111, 317, 281508),
    (437, 394571, 309, 279006), (425, 391127, 301, 276569), (415, 387770, 293, 274195),
    (403, 384498, 285, 271882), (393, 381307, 279, 269625), (385, 378194, 271, 267425),
    (375, 375155, 265, 265276), (367, 372190, 259, 263178),
)


def _significand_table() -> np.ndarray:
    """The 17-bit significand of VRSQRT14's result for each (odd exponent, top 15 fraction
    bits): 65,536 entries, from the segments."""
    fraction15 = np.arange(1 << 15, dtype=I64)
    segment = fraction15 >> 10
    delta = fraction15 - ((2 * segment + 1) << 9)
    coefficients = np.array(_RSQRT14_SEGMENTS, dtype=I64)  # (32, 4)
    halves = []
    for odd in (0, 1):
        slope, middle = coefficients[segment, 2 * odd], coefficients[segment, 2 * odd + 1]
        halves.append((middle * 128 - slope * delta) // 512)  # positive: truncation is floor
    return np.concatenate(halves)


_SIGNIFICAND17 = _significand_table()


def rsqrt14(x: np.ndarray) -> np.ndarray:
    """VRSQRT14PS for positive normal float32 `x` (other elements: unspecified)."""
    bits = x.view(I32).astype(I64)
    unbiased = ((bits >> 23) & 0xFF) - 127
    odd = unbiased & 1
    fraction = bits & 0x7FFFFF
    significand = _SIGNIFICAND17[(odd << 15) | (fraction >> 8)]
    # 1.0 (and every even power of two) is exact: the reference's one special case
    significand = np.where((fraction == 0) & (odd == 0), 1 << 17, significand)
    # value = significand * 2**-17 * 2**-floor(unbiased / 2): an exact float32 either way
    return np.ldexp(significand.astype(F32), (-17 - (unbiased >> 1)).astype(I32))


_NAN = F32(np.nan)  # MKL's nan for a negative argument (positive sign bit)
_HALF = F32(0.5)


def _sqrt_core(m: np.ndarray) -> np.ndarray:
    """The Newton step on float32 `m` in [1, 4)."""
    y = rsqrt14(m)
    s = m * y
    # m - s*s is exact in float64 (s*s has 48 bits and cancels about 13 against m), so its
    # one rounding to float32 is the fma's
    s64 = s.astype(F64)
    d = (m.astype(F64) - s64 * s64).astype(F32)
    return fma32(d, _HALF * y, s)


def sqrt(x: np.ndarray) -> np.ndarray:
    """vmsSqrt(VML_HA) on a float32 array. VML's result scales exactly with the argument's
    exponent (tested from subnormals up to 2**128, where the steps above would underflow or
    overflow), so every positive number is computed as m * 4**k with m in [1, 4); zeros,
    infinities and nans as IEEE's sqrt, a negative number gives MKL's nan."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        out = np.sqrt(x)
        out[x < 0] = _NAN
        positive = (x > 0) & (x < np.inf)
        v = x if positive.all() else x[positive]
        if v.size == 0:
            return out
        k = (np.frexp(v)[1] - 1) >> 1  # v = (1 <= f < 2) * 2**(2k or 2k + 1)
        r = np.ldexp(_sqrt_core(np.ldexp(v, -2 * k)), k)
        if v is x:
            return np.asarray(r, F32)
        out[positive] = r
    return out
