"""Exact float32/float64 building blocks: fused multiply-add, rounding checks, bit tricks."""

from __future__ import annotations

import bisect
import functools
import itertools
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from gradsh.engine.vecmath import native

F32 = np.float32
F64 = np.float64
I32 = np.int32
I64 = np.int64

# A float64 whose low 29 significand bits are exactly 1 << 28 lies halfway between two float32
# neighbours (for results in float32's normal range): rounding it again would double-round.
_LOW29 = I64((1 << 29) - 1)
_HALF29 = I64(1 << 28)
_F32_MIN_NORMAL = F64(2.0**-126)
_F32_EXPONENT = I32(0x7F800000)


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


def _f64(x: object) -> object:
    """x's float32 values in float64 (exact); a scalar stays a scalar, and float64 arrays (of
    float32 values: a polynomial's argument, converted once) pass through."""
    if x.__class__ is np.ndarray:
        return x if x.dtype == F64 else x.astype(F64)  # type: ignore[union-attr]
    return F64(F32(x))  # type: ignore[arg-type]


def fma32_into(a: np.ndarray, b: np.floating, c: np.ndarray) -> bool:
    """c = fma32(a, b, c) in c's own storage where the compiled kernels take the operands
    (contiguous float32 arrays of one shape, a float32 scalar; native.fma32_into); False, and
    nothing done, where not (the caller writes fma32's result)."""
    return native.kernels is not None and native.fma32_into(a, b, c)


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 fused multiply-add a*b + c with one rounding, as the CPU's vfmadd does.

    The product of two float32 values is exact in float64, so only the addition can round; the
    float64 sum is then exact or off by a remainder that decides the rare double-rounding cases:
    a sum exactly halfway between two float32 neighbours, or in float32's subnormal range.
    Callers ignore floating-point warnings (np.errstate), as the engine does everywhere.
    The compiled kernels (native.py), where built, do it with the CPU's own fmaf.
    """
    if native.kernels is not None:
        out = native.fma32(a, b, c)
        if out is not None:
            return out
    a64, b64, c64 = _f64(a), _f64(b), _f64(c)
    s = a64 * b64
    s += c64
    out = s.astype(F32)
    log = _DEFERRED.log
    if log is not None:  # inside deferred_checks: checked there, with the other steps
        log.append((a64, b64, c64, s, out))
        return out
    halfway = (s.view(I64) & _LOW29) == _HALF29
    tiny = (out.view(I32) & _F32_EXPONENT) == 0
    suspects = np.count_nonzero(halfway)  # (cheaper than .any())
    zeros = np.count_nonzero(tiny)
    if zeros and not suspects:
        # the common tiny case is an exact zero sum (a product's error term), which needs no
        # fixing: only when some tiny element is not one (s == 0 implies tiny) is there work
        zeros -= np.size(s) - np.count_nonzero(s)
    if suspects or zeros:
        _fix_double_rounding(a64, b64, c64, s, out, halfway | tiny)
    return out


def product_error(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """fma32(a, b, -p) for p = a*b rounded to float32 (the low part of the exact product).

    a*b - p has no more significant bits than the exact product's 48, so float64 holds it
    exactly and one cast rounds it once: fma32's result without its double-rounding checks (the
    same bits, inf and nan included). Through the compiled kernels, fma32 itself."""
    if native.kernels is not None:
        out = native.fma32(a, b, -np.asarray(p))
        if out is not None:
            return out
    s = _f64(a) * _f64(b)
    s += _f64(-p)  # (adding the negation, as fma32 does: a NaN keeps the same sign bit)
    return s.astype(F32)


class _Deferred(threading.local):
    """The fma32 steps of the deferred_checks routine running on this thread (None: none)."""

    log: list[tuple[Any, Any, Any, np.ndarray, np.ndarray]] | None = None


_DEFERRED = _Deferred()
# Up to this many elements a routine's per-step checks cost more than its arithmetic.
_DEFER_MAX = 1024
_Routine = TypeVar("_Routine", bound=Callable[..., np.ndarray])


def deferred_checks(routine: _Routine) -> _Routine:
    """`routine` (element-wise float32 code built on fma32, a SLEEF function) with fma32's
    double-rounding checks made once over all its steps instead of at each one, on arrays of
    up to _DEFER_MAX elements (where each NumPy call costs more than its arithmetic).

    The routine first runs with every fused step rounded once from float64 and unchecked. If no
    step has an element that fma32 would have fixed (a sum halfway between two float32 values
    or in the subnormal range, inexact in float64), that is fma32's result; otherwise the
    routine runs again with the checks. The same bits either way."""

    @functools.wraps(routine)
    def run(x: Any, *rest: Any) -> np.ndarray:
        if _DEFERRED.log is not None or np.size(x) > _DEFER_MAX:
            return routine(x, *rest)
        log: list[tuple[Any, Any, Any, np.ndarray, np.ndarray]] = []
        _DEFERRED.log = log
        try:
            out = routine(x, *rest)
        finally:
            _DEFERRED.log = None
        with np.errstate(all="ignore"):
            exact = not log or _all_exact(log)
        return out if exact else routine(x, *rest)

    return run  # type: ignore[return-value]


def _all_exact(log: list[tuple[Any, Any, Any, np.ndarray, np.ndarray]]) -> bool:
    """Whether every recorded fma32 step's unchecked rounding is what fma32 returns: true
    where no step has a suspect element (see _suspects) whose float64 sum was inexact (then
    fma32 would have looked closer; False makes deferred_checks run the routine again)."""
    suspect = _suspects(np.concatenate([step[3] for step in log], axis=None))
    found = np.flatnonzero(suspect)
    if not found.size:
        return True
    # the steps with suspects: often exact sums (a remainder, an error term), whose float64
    # value has exactly the bits of a halfway case
    ends = list(itertools.accumulate(np.size(step[3]) for step in log))
    for k in sorted({bisect.bisect_right(ends, i) for i in found.tolist()}):
        a64, b64, c64, s, _ = log[k]
        s = np.atleast_1d(s)  # (a 0-d input's steps give NumPy scalars)
        idx = np.nonzero(suspect[ends[k] - s.size:ends[k]].reshape(s.shape))
        ss = s[idx]
        pp = _pick(a64, idx, s.shape) * _pick(b64, idx, s.shape)
        cc = _pick(c64, idx, s.shape)
        bp = ss - cc
        err = (pp - bp) + (cc - (ss - bp))  # TwoSum: ss + err == pp + cc exactly
        if np.count_nonzero(err):  # (nan too)
            return False
    return True


def _suspects(s: np.ndarray) -> np.ndarray:
    """Where rounding float64 `s` to float32 may round twice: halfway between two float32
    values, or below float32's normal range (and not zero: a zero sum is exact). A superset of
    fma32's own test (which reads the subnormal range from the rounded result)."""
    suspect = (s.view(I64) & _LOW29) == _HALF29
    suspect |= np.abs(s) < _F32_MIN_NORMAL
    suspect &= s != 0
    return suspect


def _fix_double_rounding(a64: object, b64: object, c64: object, s: np.ndarray,
                         out: np.ndarray, suspect: np.ndarray) -> None:
    """fma32's rare elements: round a*b + c once, from s = RN64(a*b + c) and its remainder."""
    idx = np.nonzero(suspect)
    keep = s[idx] != 0  # an exact zero is exact in float32 too
    idx = tuple(i[keep] for i in idx)
    if not idx[0].size:
        return
    pp = _pick(a64, idx, s.shape) * _pick(b64, idx, s.shape)
    cc = _pick(c64, idx, s.shape)
    ss = s[idx]
    bp = ss - cc
    err = (pp - bp) + (cc - (ss - bp))  # TwoSum: ss + err == pp + cc exactly
    err[~np.isfinite(ss)] = 0.0
    out[idx] = round_f64_to_f32(ss, err)


def _pick(v: object, idx: tuple[np.ndarray, ...], shape: tuple[int, ...]) -> np.ndarray:
    """v (an array broadcastable to `shape`, or a scalar) at the positions `idx`."""
    if v.__class__ is not np.ndarray or v.ndim == 0:  # type: ignore[union-attr]
        return np.full(idx[0].shape, v, F64)
    if v.shape != shape:  # type: ignore[union-attr]
        v = np.broadcast_to(v, shape)
    return v[idx]  # type: ignore[index]


# Up to this many elements np.where's branches cost less than where()'s four extra calls.
_BRANCHY_MAX = 2048


def where(condition: np.ndarray, a: object, b: object) -> np.ndarray:
    """np.where for float32 (or int32) values, without branches: NumPy's loop branches on each
    element, which costs ten times more when the condition follows no pattern (the same bits
    either way; small arrays take np.where, which is then cheaper)."""
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    kind = a_arr.dtype if a_arr.ndim else b_arr.dtype
    if kind not in (F32, I32) or a_arr.dtype != b_arr.dtype:
        return np.where(condition, a, b)
    if max(np.size(condition), a_arr.size, b_arr.size) <= _BRANCHY_MAX:
        return np.where(condition, a_arr, b_arr)
    mask = np.negative(np.asarray(condition).astype(I32))  # all ones where true
    ai, bi = a_arr.view(I32), b_arr.view(I32)
    picked = np.bitwise_xor(ai, bi)
    picked = np.bitwise_and(picked, mask, out=picked if picked.shape == mask.shape else None)
    picked ^= bi
    return picked.view(kind)


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
