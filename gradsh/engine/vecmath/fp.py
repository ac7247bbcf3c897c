"""Exact float32/float64 building blocks: fused multiply-add, rounding checks, bit tricks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

F32 = np.float32
F64 = np.float64
I32 = np.int32
I64 = np.int64

# A float64 whose low 29 significand bits are exactly 1 << 28 lies halfway between two float32
# neighbours (for results in float32's normal range): rounding it again would double-round.
_LOW29 = I64((1 << 29) - 1)
_HALF29 = I64(1 << 28)
_F32_MIN_NORMAL = F64(2.0**-126)


def f32(x: object) -> np.ndarray:
    """`x` as a float32 array (no copy when it already is one)."""
    return np.asarray(x, dtype=F32)


def round_f64_to_f32(s: np.ndarray, err: np.ndarray | None = None) -> np.ndarray:
    """Round float64 `s` (+ the exact remainder `err`, if known) to float32 as one rounding.

    `s + err` is the exact value; casting `s` alone double-rounds only where `s` sits exactly on
    a float32 rounding boundary, so those rare elements are first moved one float64 ulp toward the
    exact value (round-to-odd), which makes the final cast correct.
    """
    if err is None:
        return s.astype(F32)
    bits = s.view(I64)
    suspect = ((bits & _LOW29) == _HALF29) | (np.abs(s) < _F32_MIN_NORMAL)
    suspect &= err != 0
    if not suspect.any():
        return s.astype(F32)
    s = s.copy()
    idx = np.nonzero(suspect)
    toward = np.where((err[idx] > 0) == (s[idx] > 0), 1, -1).astype(I64)
    odd = (bits[idx] & 1) == 0
    s.view(I64)[idx] = bits[idx] + np.where(odd, toward, 0)
    return s.astype(F32)


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 fused multiply-add a*b + c with one rounding, as the CPU's vfmadd does.

    The product of two float32 values is exact in float64, so only the addition can round; the
    float64 sum is then exact or off by a remainder that decides the rare double-rounding cases.
    """
    p = np.asarray(a, F32).astype(F64) * np.asarray(b, F32)
    c64 = np.asarray(c, F32).astype(F64)
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c64
        bits = s.view(I64)
        suspect = ((bits & _LOW29) == _HALF29) | (np.abs(s) < _F32_MIN_NORMAL)
        if not suspect.any():
            return s.astype(F32)
        s, p, c64 = np.broadcast_arrays(s, p, c64)
        idx = np.nonzero(suspect)
        ss, pp, cc = s[idx], p[idx], c64[idx]
        bp = ss - cc
        err = (pp - bp) + (cc - (ss - bp))
        err = np.where(np.isfinite(ss), err, 0.0)
        out = s.astype(F32)
        out[idx] = round_f64_to_f32(ss, err)
        return out


def from_int32(i: np.ndarray) -> np.ndarray:
    """The float32 array whose bits are `i`."""
    return np.ascontiguousarray(i, I32).view(F32)


def pow2i32(q: np.ndarray) -> np.ndarray:
    """2**q as float32 for integer q in [-126, 127], built from its exponent bits."""
    return from_int32((np.asarray(q, I32) + 127) << 23)


def rint_i32(x: np.ndarray) -> np.ndarray:
    """Round half to even to int32, as cvtps2dq does: nan and out-of-range give INT_MIN."""
    with np.errstate(invalid="ignore"):
        r = np.rint(np.asarray(x, F32)).astype(F64)
        ok = np.abs(r) < 2.0**31
        return np.where(ok, r, -(2.0**31)).astype(I32)


def near_f32_boundary(y: np.ndarray, margin: float) -> np.ndarray:
    """Where float64 `y` lies within `margin` float32-ulps of a float32 rounding boundary.

    Such elements may round differently when `y` carries a few float64 ulps of error. In
    float32's normal range the boundary is where y's 29 low significand bits equal 1 << 28;
    the subnormal and overflow ranges are measured against the float32 neighbours instead.
    """
    bits = y.view(I64)
    off = np.abs((bits & _LOW29) - _HALF29)
    near = off <= I64(margin * 2.0**29)
    with np.errstate(all="ignore"):
        a = np.abs(y)
        edge = (a < _F32_MIN_NORMAL) | (a >= 2.0**127)
    if edge.any():
        idx = np.flatnonzero(edge)
        ye = y.reshape(-1)[idx]
        with np.errstate(all="ignore"):
            r = ye.astype(F32)
            toward = np.nextafter(r, np.where(ye > r, F32(np.inf), F32(-np.inf))).astype(F64)
            r64 = r.astype(F64)
            frac = np.abs(ye - r64) / np.abs(toward - r64)
        near = near.reshape(-1).copy()
        near[idx] = (frac > 0.5 - margin) & np.isfinite(toward) & (ye != 0)
        near = near.reshape(y.shape)
    return near


def exact(x: float) -> Fraction:
    """A float's exact value."""
    return Fraction(float(x))


def fraction_to_f64(q: Fraction) -> float:
    """Round an exact rational to the nearest float64 (ties to even): int / int is exact in
    CPython."""
    return q.numerator / q.denominator


def fma64(a: float, b: float, c: float) -> float:
    """Scalar float64 fused multiply-add, exactly (slow: for rare elements only)."""
    if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
        return a * b + c
    q = exact(a) * exact(b) + exact(c)
    if q == 0:
        return a * b + c  # the sign of an exact zero follows IEEE's sum rules
    return fraction_to_f64(q)


def round_to_f32(q: Fraction) -> np.float32:
    """Round an exact rational to the nearest float32 (ties to even, subnormals, overflow)."""
    if q == 0:
        return F32(0.0)
    sign = -1 if q < 0 else 1
    q = abs(q)
    # scale so that the result has 24 significant bits: find e with 2^23 <= q*2^-e*... < 2^24
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, -126)  # subnormals share the smallest normal exponent's spacing
    scale = Fraction(2) ** (e - 23)
    m = q / scale
    n = m.numerator // m.denominator
    rem = m - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    value = n * scale
    if value >= Fraction(2) ** 128:
        return F32(sign * np.inf)
    return F32(sign * float(value))
