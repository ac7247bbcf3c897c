"""Correctly rounded float32 log2, log10, atan, asin, acos, erf: MKL VML's other stand-ins.

Same scheme as `rounded`: float64 evaluation with a relative error below about 2**-47, then the
decimal fallback for results too close to a float32 rounding boundary.
"""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np

from gradsh.engine.vecmath.fp import F32, F64
from gradsh.engine.vecmath.rounded import _DIGITS, _PI, _exp64, _log64, _with_fallback

_LN2 = F64(0.6931471805599453)
_LN10 = F64(2.302585092994046)
_HALF_PI = F64(1.5707963267948966)
_TWO_OVER_SQRT_PI = F64(1.1283791670955126)


def _positive_log_case(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xd = x.astype(F64)
    y = np.where(xd == 0, -np.inf, y)
    y = np.where(xd < 0, np.nan, y)
    return np.where(np.isposinf(xd) | np.isnan(xd), xd, y)


def log2(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 log2 (stand-in for MKL vmsLog2)."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        ok = (xd > 0) & np.isfinite(xd)
        m, e = np.frexp(np.where(ok, xd, 1.0))
        # log2(m 2^e) = e + ln(m) / ln 2, with m in [0.5, 1): the integer part stays exact
        y = _positive_log_case(x, e + _log64(m) / _LN2)

    def slow(d: Decimal) -> Decimal:
        return d.ln() / Decimal(2).ln()

    return _with_fallback(x, y, slow)


def log10(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 log10 (stand-in for MKL vmsLog10)."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        ok = (xd > 0) & np.isfinite(xd)
        y = _positive_log_case(x, _log64(np.where(ok, xd, 1.0)) / _LN10)
    return _with_fallback(x, y, Decimal.log10)


# ---- atan, asin, acos --------------------------------------------------------------------------

def _atan64(t: np.ndarray) -> np.ndarray:
    """atan for any float64 t (inf included): reflect beyond 1, halve the angle three times,
    then the Taylor series on |u| <= tan(pi/32)."""
    a = np.abs(t)
    big = a > 1.0
    u = np.where(big, 1.0 / np.where(big, a, 1.0), a)
    for _ in range(3):
        u = u / (1.0 + np.sqrt(1.0 + u * u))
    u2 = u * u
    s = F64(1.0 / 25)  # the series' coefficients (-1)^k / (2k + 1), k = 12 down to 0
    for k in range(11, -1, -1):
        s = s * u2 + (-1.0) ** k / (2 * k + 1)
    r = 8.0 * u * s
    r = np.where(big, _HALF_PI - r, r)
    return np.copysign(r, t)


def _atan_decimal(d: Decimal) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = _DIGITS + 20
        if d == 0:
            return d
        sign = -1 if d < 0 else 1
        u = abs(d)
        flip = u > 1
        if flip:
            u = 1 / u
        for _ in range(6):
            u = u / (1 + (1 + u * u).sqrt())
        total, term, k = Decimal(0), u, 0
        while abs(term) > Decimal(10) ** -(_DIGITS + 15):
            total += term / (2 * k + 1)
            term = -term * u * u
            k += 1
        r = 64 * total
        if flip:
            r = _PI / 2 - r
        return sign * r


def atan(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 atan (stand-in for MKL vmsAtan)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        y = _atan64(x.astype(F64))
    return _with_fallback(x, y, _atan_decimal)


def asin(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 asin (stand-in for MKL vmsAsin): atan(x / sqrt((1-x)(1+x)))."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        root = np.sqrt((1.0 - xd) * (1.0 + xd))
        y = _atan64(xd / root)
        y = np.where(np.abs(xd) > 1.0, np.nan, y)
        y = np.where(xd == 0, xd, y)

    def slow(d: Decimal) -> Decimal:
        if abs(d) == 1:
            return d * _PI / 2
        return _atan_decimal(d / ((1 - d) * (1 + d)).sqrt())

    return _with_fallback(x, y, slow)


def acos(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 acos (stand-in for MKL vmsAcos): 2 atan(sqrt((1-x)/(1+x)))."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        y = 2.0 * _atan64(np.sqrt((1.0 - xd) / (1.0 + xd)))
        y = np.where(np.abs(xd) > 1.0, np.nan, y)

    def slow(d: Decimal) -> Decimal:
        if d == -1:
            return _PI
        return 2 * _atan_decimal(((1 - d) / (1 + d)).sqrt())

    return _with_fallback(x, y, slow)


# ---- erf ---------------------------------------------------------------------------------------

_ERF_TERMS = 110
_ERF_ONE = 4.5  # beyond, erf rounds to +-1 in float32 with a wide margin


def erf(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 erf (stand-in for MKL vmsErf), from the all-positive series
    erf(x) = 2/sqrt(pi) exp(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1))."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        a = np.minimum(np.abs(xd), _ERF_ONE)
        a2 = a * a  # exact: a float32 squared fits in float64
        term = a.copy()
        total = a.copy()
        for n in range(1, _ERF_TERMS):
            term = term * (2.0 * a2) / (2 * n + 1)
            total = total + term
        y = _TWO_OVER_SQRT_PI * _exp64(-a2) * total
        y = np.where(np.abs(xd) >= _ERF_ONE, 1.0, y)
        y = np.copysign(y, xd)
        y = np.where(np.isnan(xd), xd, y)

    def slow(d: Decimal) -> Decimal:
        with localcontext() as ctx:
            ctx.prec = _DIGITS + 20
            a = abs(d)
            term, total, n = a, a, 0
            while term > Decimal(10) ** -(_DIGITS + 15) * total:
                n += 1
                term = term * 2 * a * a / (2 * n + 1)
                total += term
            value = 2 / _PI.sqrt() * (-(a * a)).exp() * total
            return value if d > 0 else -value

    return _with_fallback(x, y, slow)
