"""Correctly rounded float32 exp, log, tanh, sin, cos, tan: the stand-ins for Intel MKL's VML.

PyTorch's float32 `exp log sin cos tan tanh ...` call MKL's closed-source `vmsExp` & co.
(VML_HA) on every element, whatever the layout. Their algorithms are not public, so gradsh
returns the correctly rounded value instead: independent of the CPU, and what MKL returns on
99% (exp) to 99.99% (log) of inputs (docs/float32.md has the measured rates).

Each function evaluates the mathematical function in float64 with a relative error below
2**-47, rounds to float32, and recomputes exactly (Python `decimal`, 40 digits) the few
elements whose float64 value lies too close to a float32 rounding boundary to be sure.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

from gradsh.engine.vecmath.fp import F32, F64, I64, near_f32_boundary, round_to_f32

_DIGITS = 45
_MARGIN = 2.0**-47 * 2.0**24  # relative float64 error, in float32 ulps (an ulp >= |y| 2^-24)


def _with_fallback(x: np.ndarray, y: np.ndarray, slow: Callable[[Decimal], Decimal],
                   skip: np.ndarray | None = None, margin: float = _MARGIN) -> np.ndarray:
    """Round `y` to float32, recomputing exactly where the rounding could be wrong."""
    with np.errstate(over="ignore"):
        out = y.astype(F32)
    suspect = near_f32_boundary(y, margin) & np.isfinite(y) & (y != 0)
    if skip is not None:
        suspect |= skip
    idx = np.flatnonzero(suspect)
    if len(idx):
        flat = out.reshape(-1)
        with localcontext() as ctx:
            ctx.prec = _DIGITS
            for i in idx:
                flat[i] = _round_decimal(slow(Decimal(float(x.flat[i]))))
    return out


_NUDGE = Fraction(1, 10**(_DIGITS - 5))


def _round_decimal(v: Decimal) -> np.float32:
    """Round a value known to _DIGITS digits to float32. Within the last digits of a rounding
    boundary the exact value must be the boundary itself (a transcendental function of a float
    is never that close to one otherwise: x**2.5 at x = 2^-60 is 2^-150 exactly), so it rounds
    to even."""
    q = Fraction(v)
    below, above = round_to_f32(q * (1 - _NUDGE)), round_to_f32(q * (1 + _NUDGE))
    if below == above or not (np.isfinite(below) and np.isfinite(above)):
        return round_to_f32(q)
    return round_to_f32((Fraction(float(below)) + Fraction(float(above))) / 2)


# ---- exp --------------------------------------------------------------------------------------

def _ln2_parts() -> tuple[F64, F64]:
    """ln 2 = hi + lo with a 33-bit hi, so that k * hi is exact for |k| < 2^20."""
    with localcontext() as ctx:
        ctx.prec = 60
        ln2 = Decimal(2).ln()
        hi = float.fromhex("0x1.62e42fefp-1")
        return F64(hi), F64(float(ln2 - Decimal(hi)))


_LN2_HI, _LN2_LO = _ln2_parts()


def _exp_table() -> np.ndarray:
    with localcontext() as ctx:
        ctx.prec = 40
        return np.array([float(Decimal(2) ** (Decimal(j) / 32)) for j in range(32)], F64)


_EXP2_J = _exp_table()
_INV_FACT = [1 / math.factorial(n) for n in range(0, 24)]  # int / int: correctly rounded


def _exp64(x: np.ndarray) -> np.ndarray:
    """exp in float64 for |x| <= 110 (relative error ~2^-51)."""
    n = np.rint(x * (32.0 / 0.6931471805599453))
    k = n.astype(I64)
    r = (x - n * (_LN2_HI / 32)) - n * (_LN2_LO / 32)
    p = F64(_INV_FACT[7])
    for c in _INV_FACT[6::-1]:
        p = p * r + c
    scale = np.ldexp(_EXP2_J[k & 31], (k >> 5).astype(np.int32))
    return scale * p


def exp(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 exp (stand-in for MKL vmsExp)."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        y = _exp64(np.clip(xd, -110.0, 110.0))
        y = np.where(xd > 110.0, np.inf, np.where(xd < -110.0, 0.0, y))
        y = np.where(np.isnan(xd), xd, y)
    return _with_fallback(x, y, Decimal.exp)


# ---- log --------------------------------------------------------------------------------------

def _log64(x: np.ndarray) -> np.ndarray:
    """log of positive finite float64 values that came from float32 (relative error ~2^-50)."""
    m, e = np.frexp(x)  # x = m 2^e, m in [0.5, 1)
    big = m < 0.7071067811865476
    m = np.where(big, m * 2.0, m)
    e = np.where(big, e - 1, e).astype(F64)
    f = (m - 1.0) / (m + 1.0)
    f2 = f * f
    s = F64(1.0 / 25)
    for k in range(11, -1, -1):
        s = s * f2 + 1.0 / (2 * k + 1)
    # log(m) = 2 atanh(f); e ln2 goes in two parts so that the sum keeps its low bits.
    return e * _LN2_HI + (e * _LN2_LO + 2.0 * f * s)


def log(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 log (stand-in for MKL vmsLn)."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        ok = (xd > 0) & np.isfinite(xd)
        y = _log64(np.where(ok, xd, 1.0))
        y = np.where(xd == 0, -np.inf, y)
        y = np.where(xd < 0, np.nan, y)
        y = np.where(np.isposinf(xd) | np.isnan(xd), xd, y)
    return _with_fallback(x, y, Decimal.ln)


# ---- tanh -------------------------------------------------------------------------------------

def _expm1_64(t: np.ndarray) -> np.ndarray:
    """expm1 in float64 for t <= 0 (relative error ~2^-50)."""
    small = t > -0.35
    ts = np.where(small, t, 0.0)
    p = F64(_INV_FACT[15])
    for c in _INV_FACT[14:0:-1]:
        p = p * ts + c
    series = ts * p
    return np.where(small, series, _exp64(np.maximum(t, -110.0)) - 1.0)


def _tanh_exact(d: Decimal) -> Decimal:
    if d == 0:
        return d
    e = (2 * d).exp()
    return (e - 1) / (e + 1)


def tanh(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 tanh (stand-in for MKL vmsTanh)."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        a = np.minimum(np.abs(xd), 20.0)
        em = _expm1_64(-2.0 * a)
        y = -em / (em + 2.0)
        y = np.where(np.abs(xd) > 20.0, 1.0, y)
        y = np.copysign(y, xd)
        y = np.where(np.isnan(xd), xd, y)
    return _with_fallback(x, y, _tanh_exact)


# ---- sin, cos, tan ----------------------------------------------------------------------------

_HUGE = 2.0**27  # beyond, the slow exact reduction takes over


def _pi_decimal() -> Decimal:
    """pi to _DIGITS + 60 digits (Machin's formula)."""
    with localcontext() as ctx:
        ctx.prec = _DIGITS + 160

        smallest = Decimal(10) ** -(ctx.prec + 5)  # below the precision: the sum is done

        def arctan_inv(n: int) -> Decimal:
            total, term, k, n2 = Decimal(0), Decimal(1) / n, 1, n * n
            while term > smallest:
                total += term / k if (k // 2) % 2 == 0 else -term / k
                term /= n2
                k += 2
            return total

        return 4 * (4 * arctan_inv(5) - arctan_inv(239))


_PI = _pi_decimal()


def _alternating_series(term: Decimal, r: Decimal, n: int) -> Decimal:
    """sum of term * (-r^2)^j / ((n+1)...(n+2j)): sin's series from (r, 1), cos's from (1, 0)."""
    total = Decimal(0)
    while abs(term) >= Decimal(10) ** -(_DIGITS + 40):
        total += term
        term = -term * r * r / ((n + 1) * (n + 2))
        n += 2
    return total


def _sin_cos_exact(d: Decimal) -> tuple[Decimal, Decimal]:
    """sin and cos of `d` (|d| up to 2^128) to the current precision."""
    with localcontext() as ctx:
        ctx.prec = _DIGITS + 160
        half_pi = _PI / 2
        k = (d / half_pi).to_integral_value()
        r = d - k * half_pi
        s = _alternating_series(r, r, 1)
        c = _alternating_series(Decimal(1), r, 0)
        quadrant = int(k) % 4
        pairs = {0: (s, c), 1: (c, -s), 2: (-s, -c), 3: (-c, s)}
    return pairs[quadrant]


def _pio2_parts() -> list[F64]:
    """pi/2 as three 26-bit parts and a float64 remainder: k * part is exact for |k| < 2^27."""
    parts = []
    with localcontext() as ctx:
        ctx.prec = _DIGITS + 160
        rest = _PI / 2
        for _ in range(3):
            m, e = np.frexp(float(rest))
            part = float(np.ldexp(np.floor(np.ldexp(m, 26)), int(e) - 26))
            parts.append(F64(part))
            rest -= Decimal(part)
        parts.append(F64(float(rest)))
    return parts


_PIO2 = _pio2_parts()


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _reduce(xd: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x = k pi/2 + (r_hi + r_lo) for |x| < 2^27, the remainder in double-double."""
    k = np.rint(xd * 0.6366197723675814)
    r = xd - k * _PIO2[0]  # exact: the product fits in 53 bits and lies within 2x of x
    lo = np.zeros_like(r)
    for part in _PIO2[1:]:
        r, err = _two_sum(r, -(k * part))
        lo = lo + err
    r_hi, r_lo = _two_sum(r, lo)
    return k.astype(I64) & 3, r_hi, r_lo


def _sin_cos64(r: np.ndarray, r_lo: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r2 = r * r
    # Taylor series to r^23 / r^22: |r| <= pi/4 leaves a truncation error below 2^-80.
    s = F64(-_INV_FACT[23])
    for n in range(21, 0, -2):
        s = s * r2 + (_INV_FACT[n] if n % 4 == 1 else -_INV_FACT[n])
    s = s * r
    c = F64(_INV_FACT[22] * -1.0)
    for n in range(20, -1, -2):
        c = c * r2 + (_INV_FACT[n] if n % 4 == 0 else -_INV_FACT[n])
    return s + r_lo * c, c - r_lo * s


def _trig(x: np.ndarray, which: str) -> np.ndarray:
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        huge = ~(np.abs(xd) < _HUGE)
        q, r, r_lo = _reduce(np.where(huge, 0.0, xd))
        s, c = _sin_cos64(r, r_lo)
        if which == "sin":
            y = np.choose(q, [s, c, -s, -c])
        elif which == "cos":
            y = np.choose(q, [c, -s, -c, s])
        else:
            y = np.where((q & 1) == 0, s / c, -c / s)
        y = np.where(xd == 0, xd if which != "cos" else 1.0, y)  # keeps the sign of -0
        y = np.where(np.isfinite(xd), y, np.nan)

    def slow(d: Decimal) -> Decimal:
        sn, cs = _sin_cos_exact(d)
        return sn if which == "sin" else cs if which == "cos" else sn / cs

    return _with_fallback(x, y, slow, skip=huge & np.isfinite(xd))


def sin(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 sin (stand-in for MKL vmsSin)."""
    return _trig(x, "sin")


def cos(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 cos (stand-in for MKL vmsCos)."""
    return _trig(x, "cos")


def tan(x: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 tan (stand-in for MKL vmsTan)."""
    return _trig(x, "tan")


# ---- pow with a float64 exponent (glibc pow, rounded to float32) ------------------------------

def pow_double_exponent(x: np.ndarray, e: float) -> np.ndarray:
    """float32(pow(double(x), e)) correctly rounded: ATen's scalar path for pow(tensor, number)
    calls the double pow (glibc's, within 0.52 float64 ulps) with the exponent as a double."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    e = float(e)
    e_int = e == np.floor(e) and abs(e) < 2.0**53
    odd = e_int and abs(e) < 2.0**53 and int(e) % 2 == 1
    with np.errstate(all="ignore"):
        a = np.abs(xd)
        ok = (a > 0) & np.isfinite(a)
        # NumPy's float64 power (a few float64 ulps at most, on any CPU: far inside the
        # fallback's margin below, so the rounding is the same wherever it is not recomputed)
        y = np.power(np.where(ok, a, 1.0), e)
        if odd:
            y = np.where(xd < 0, -y, y)
        elif not e_int:
            y = np.where(xd < 0, np.nan, y)
        # zeros and infinities as C99's pow
        zero = np.where(e > 0, 0.0, np.inf)
        inf = np.where(e > 0, np.inf, 0.0)
        signed_zero = np.copysign(zero, xd) if odd else zero
        signed_inf = np.copysign(inf, xd) if odd else inf
        y = np.where(xd == 0, signed_zero, y)
        y = np.where(np.isinf(xd), signed_inf, y)
        y = np.where((xd == -1.0) & np.isinf(e), 1.0, y)
        y = np.where(np.isnan(xd), np.nan, y)
        y = np.where(xd == 1.0, 1.0, y)
    # The margin (2^-18 of a float32 ulp, some 2,000 float64 ulps) dwarfs the float64 error.

    def slow(d: Decimal) -> Decimal:
        value = abs(d) ** Decimal(e)
        return -value if (odd and d < 0) else value

    return _with_fallback(x, y, slow, margin=2.0**-42 * 2.0**24)
