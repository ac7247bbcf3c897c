"""SLEEF's float32 routines as ATen's AVX-512 `Vectorized<float>` calls them, bit for bit.

Each function follows the algorithm of SLEEF's `sleefsimdsp.c` (the AVX-512 build, where every
multiply-add is a fused one): the same constants, the same operation order, every float32
rounding reproduced with `fp.fma32` and float32 NumPy arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.fp import (
    F32,
    deferred_checks,
    fma32,
    from_int32,
    pow2i32,
    product_error,
    rint_i32,
    where,
)

R_LN2F = F32(1.442695040888963407359924681001892137)
L2UF = F32(0.693145751953125)
L2LF = F32(1.428606765330187045e-06)
_EXP_POLY = [F32(c) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5)]


def ldexp2(d: np.ndarray, e: np.ndarray) -> np.ndarray:
    """d * 2**e in two float32 multiplications (SLEEF's vldexp2), so that e may reach +-254."""
    half = e >> 1
    return (d * pow2i32(half)) * pow2i32(e - half)


def _horner(s: np.ndarray, coefficients: list[np.float32]) -> np.ndarray:
    """c0 s^n + ... + cn by Horner's rule, one fused multiply-add per step (the argument
    converted to float64 once)."""
    s64 = s.astype(np.float64)
    u = fma32(coefficients[0], s64, coefficients[1])
    for c in coefficients[2:]:
        u = fma32(u, s64, c)
    return u


def _exp_reduce(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """q = rint(d / ln 2) and s = d - q ln 2 in two fused steps (Cody-Waite)."""
    q = rint_i32(d * R_LN2F)
    qf = q.astype(F32)
    s = fma32(qf, -L2UF, d)
    s = fma32(qf, -L2LF, s)
    return q, s


def expf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_expf16_u10 (xexpf); through the compiled kernels where they were built."""
    if native.kernels is not None:
        return native.elementwise(native.kernels.expf, x, _expf_u10)
    return _expf_u10(x)


@deferred_checks
def _expf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_expf16_u10 (xexpf), emulated."""
    d = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        q, s = _exp_reduce(d)
        u = _horner(s, _EXP_POLY)
        u = F32(1.0) + fma32(s * s, u, s)
        u = ldexp2(u, q)
        u = where(d < F32(-104.0), F32(0.0), u)
        u = where(F32(100.0) < d, F32(np.inf), u)
    return u.astype(F32, copy=False)


# ---- double-float arithmetic (SLEEF's df.h, FMA flavour) ---------------------------------------
# A double-float is a pair (x, y) of float32 arrays standing for x + y.

DF = tuple[np.ndarray, np.ndarray]


def _fmapn(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """fma(x, y, -z), where every use has z = x*y rounded to float32: the product's error."""
    return product_error(x, y, z)


def _fmanp(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    return fma32(-x, y, z)


def df_add_ff(x: np.ndarray, y: np.ndarray) -> DF:
    s = x + y
    return s, (x - s) + y


def df_add2_ff(x: np.ndarray, y: np.ndarray) -> DF:
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def df_add_df_f(x: DF, y: np.ndarray) -> DF:
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def df_add2_df_f(x: DF, y: np.ndarray) -> DF:
    s = x[0] + y
    v = s - x[0]
    t = (x[0] - (s - v)) + (y - v)
    return s, t + x[1]


def df_add_f_df(x: np.ndarray, y: DF) -> DF:
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def df_add_df_df(x: DF, y: DF) -> DF:
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def df_add2_df_df(x: DF, y: DF) -> DF:
    s = x[0] + y[0]
    v = s - x[0]
    t = (x[0] - (s - v)) + (y[0] - v)
    return s, t + (x[1] + y[1])


def df_sub_df_df(x: DF, y: DF) -> DF:
    s = x[0] - y[0]
    t = x[0] - s
    t = t - y[0]
    t = t + x[1]
    return s, t - y[1]


def df_scale(d: DF, s: np.ndarray) -> DF:
    return d[0] * s, d[1] * s


def df_mul_ff(x: np.ndarray, y: np.ndarray) -> DF:
    s = x * y
    return s, _fmapn(x, y, s)


def df_mul_df_f(x: DF, y: np.ndarray) -> DF:
    s = x[0] * y
    return s, fma32(x[1], y, _fmapn(x[0], y, s))


def df_mul_df_df(x: DF, y: DF) -> DF:
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], _fmapn(x[0], y[0], s)))


def df_squ(x: DF) -> DF:
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], _fmapn(x[0], x[0], s))


def df_div(n: DF, d: DF) -> DF:
    t = F32(1.0) / d[0]
    s = n[0] * t
    u = _fmapn(t, n[0], s)
    v = _fmanp(d[1], t, _fmanp(d[0], t, F32(1.0)))
    return s, fma32(s, v, fma32(n[1], t, u))


def df_rec(d: DF) -> DF:
    s = F32(1.0) / d[0]
    return s, s * _fmanp(d[1], s, _fmanp(d[0], s, F32(1.0)))


# ---- log --------------------------------------------------------------------------------------

_LN2_DF = (F32(0.69314718246459960938), F32(-1.904654323148236017e-09))
_LOG_POLY = [F32(c) for c in (0.3027294874, 0.3996108174, 0.6666694880)]


def _getexp(d: np.ndarray) -> np.ndarray:
    """vgetexp: floor(log2 |d|) as float32 (-inf for 0, +inf for inf, exact for subnormals)."""
    _, k = np.frexp(d)
    e = (k - 1).astype(F32)
    e = where(d == 0, F32(-np.inf), e)
    return where(np.isinf(d), F32(np.inf), where(np.isnan(d), d, e))


def _getmant(d: np.ndarray) -> np.ndarray:
    """vgetmant with interval [0.75, 1.5) and the sign dropped (negative inputs give nan)."""
    f, _ = np.frexp(np.abs(d))
    m = where(f < F32(0.75), f * F32(2.0), f).astype(F32)
    return where(d < 0, F32(np.nan), m)


def logf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_logf16_u10 (xlogf_u1, AVX-512 branch); through the compiled kernels where they
    were built."""
    if native.kernels is not None:
        return native.elementwise(native.kernels.logf, x, _logf_u10)
    return _logf_u10(x)


@deferred_checks
def _logf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_logf16_u10 (xlogf_u1, AVX-512 branch), emulated."""
    d = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        e = _getexp(d * F32(1.0 / 0.75))
        e = where(np.isposinf(e), F32(128.0), e)
        m = _getmant(d)
        s = df_mul_df_f(_LN2_DF, e)
        xx = df_div(df_add2_ff(F32(-1.0), m), df_add2_ff(F32(1.0), m))
        x2 = xx[0] * xx[0]
        t = fma32(fma32(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        s = df_add_df_df(s, df_scale(xx, F32(2.0)))
        s = df_add_df_f(s, (x2 * xx[0]) * t)
        r = s[0] + s[1]
        # vfixupimm: 0 -> -inf, -inf -> nan, +inf -> +inf, negative -> nan; nan stays nan.
        r = where(d == 0, F32(-np.inf), r)
        r = where(np.isposinf(d), F32(np.inf), r)
        r = where(d < 0, F32(np.nan), r)
    return r.astype(F32, copy=False)


# ---- exp in double-float, tanh, expm1, log1p ---------------------------------------------------

_EXPK2_POLY = [F32(c) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2,
                                0.4166637361e-1)]


def _expk2f(d: DF) -> DF:
    u = (d[0] + d[1]) * R_LN2F
    q = rint_i32(u)
    qf = q.astype(F32)
    s = df_add2_df_f(d, qf * -L2UF)
    s = df_add2_df_f(s, qf * -L2LF)
    u = _horner(s[0], _EXPK2_POLY)
    t = df_add2_df_f(df_mul_df_f(s, u), F32(0.166666659414234244790680580464))
    t = df_add2_df_f(df_mul_df_df(s, t), F32(0.5))
    t = df_add2_df_df(s, df_mul_df_df(df_squ(s), t))
    t = df_add_f_df(F32(1.0), t)
    tx = ldexp2(t[0], q)
    ty = ldexp2(t[1], q)
    under = d[0] < F32(-104.0)
    return where(under, F32(0.0), tx), where(under, F32(0.0), ty)


@deferred_checks
def tanhf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_tanhf16_u10 (xtanhf)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2f((y, np.zeros_like(y)))
        e = df_rec(d)
        d = df_div(df_add_df_df(d, (-e[0], -e[1])), df_add_df_df(d, e))
        y = d[0] + d[1]
        y = where((np.abs(x) > F32(8.664339742)) | np.isnan(y), F32(1.0), y)
        y = np.copysign(y, x)
        y = where(np.isnan(x), x, y)
    return y.astype(F32, copy=False)


@deferred_checks
def expm1f_u10(a: np.ndarray) -> np.ndarray:
    """Sleef_expm1f16_u10 (xexpm1f)."""
    a = np.asarray(a, F32)
    with np.errstate(all="ignore"):
        d = df_add2_df_f(_expk2f((a, np.zeros_like(a))), F32(-1.0))
        x = d[0] + d[1]
        x = where(a > F32(88.72283172607421875), F32(np.inf), x)
        x = where(a < F32(-16.635532333438687426013570), F32(-1.0), x)
        x = where((a == 0) & np.signbit(a), F32(-0.0), x)
    return x.astype(F32, copy=False)


_LOG1PF_BOUND = F32(float.fromhex("0x1.2ced32p+126"))


@deferred_checks
def log1pf_u10(d: np.ndarray) -> np.ndarray:
    """Sleef_log1pf16_u10 (xlog1pf, AVX-512 branch)."""
    d = np.asarray(d, F32)
    with np.errstate(all="ignore"):
        dp1 = d + F32(1.0)
        e = _getexp(dp1 * F32(1.0 / 0.75))
        e = where(np.isposinf(e), F32(128.0), e)
        t = from_int32_exp(-rint_i32(e))
        m = fma32(d, t, t - F32(1.0))
        s = df_mul_df_f(_LN2_DF, e)
        xx = df_div((m, np.zeros_like(m)), df_add_ff(F32(2.0), m))
        x2 = xx[0] * xx[0]
        tt = fma32(fma32(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        s = df_add_df_df(s, df_scale(xx, F32(2.0)))
        s = df_add_df_f(s, (x2 * xx[0]) * tt)
        r = s[0] + s[1]
        r = where(d <= _LOG1PF_BOUND, r, logf_u10(d))
        r = where(F32(-1.0) > d, F32(np.nan), r)
        r = where(d == F32(-1.0), F32(-np.inf), r)
        r = where((d == 0) & np.signbit(d), F32(-0.0), r)
    return r.astype(F32, copy=False)


def from_int32_exp(q: np.ndarray) -> np.ndarray:
    """vldexp3(1, q): 1.0 with q added to its exponent field (no range checks, as SLEEF)."""
    with np.errstate(over="ignore"):
        return from_int32((np.asarray(q, np.int32) << 23) + np.int32(0x3F800000))


def _half_exp_pair(x: np.ndarray, combine: Callable[[DF, DF], DF]) -> np.ndarray:
    """(e^|x| combined with e^-|x|) / 2 in double-float, inf past |x| = 89: sinh's and cosh's
    common core."""
    y = np.abs(x)
    d = _expk2f((y, np.zeros_like(y)))
    d = combine(d, df_rec(d))
    y = (d[0] + d[1]) * F32(0.5)
    return where((np.abs(x) > F32(89.0)) | np.isnan(y), F32(np.inf), y)


@deferred_checks
def sinhf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_sinhf16_u10 (xsinhf)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        y = np.copysign(_half_exp_pair(x, df_sub_df_df), x)
        y = where(np.isnan(x), x, y)
    return y.astype(F32, copy=False)


@deferred_checks
def coshf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_coshf16_u10 (xcoshf)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        y = where(np.isnan(x), x, _half_exp_pair(x, df_add_df_df))
    return y.astype(F32, copy=False)


# ---- exp2, pow ---------------------------------------------------------------------------------

_EXP2_POLY = [F32(c) for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2,
                               0.5550347269e-1, 0.2402264476e+0, 0.6931471825e+0)]


@deferred_checks
def exp2f_u10(d: np.ndarray) -> np.ndarray:
    """Sleef_exp2f16_u10 (xexp2f)."""
    d = np.asarray(d, F32)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = rint_i32(u)
        s = d - u
        p = _horner(s, _EXP2_POLY + [F32(1.0)])
        p = ldexp2(p, q)
        p = where(d >= F32(128.0), F32(np.inf), p)
        p = where(d < F32(-150.0), F32(0.0), p)
    return p.astype(F32, copy=False)


def ldexp(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """SLEEF's general vldexp: x * 2**q in five float32 multiplications, for any int32 q."""
    q = np.asarray(q, np.int32)
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + 0x7F, 0, 0xFF)
    u = from_int32(m << 23)
    x = ((x * u) * u) * u * u
    return x * from_int32((q + 0x7F) << 23)


_LOGK_POLY = [F32(c) for c in (0.240320354700088500976562, 0.285112679004669189453125,
                               0.400007992982864379882812)]
_LOGK_C = (F32(0.66666662693023681640625), F32(3.69183861259614332084311e-09))
_EXPK_POLY = [F32(c) for c in (0.00136324646882712841033936, 0.00836596917361021041870117,
                               0.0416710823774337768554688, 0.166665524244308471679688,
                               0.499999850988388061523438)]


def _logkf(d: np.ndarray) -> DF:
    """log(d) in double-float (AVX-512 branch)."""
    e = _getexp(d * F32(1.0 / 0.75))
    e = where(np.isposinf(e), F32(128.0), e)
    m = _getmant(d)
    x = df_div(df_add2_ff(F32(-1.0), m), df_add2_ff(F32(1.0), m))
    x2 = df_squ(x)
    t = fma32(fma32(_LOGK_POLY[0], x2[0], _LOGK_POLY[1]), x2[0], _LOGK_POLY[2])
    s = df_mul_df_f(_LN2_DF, e)
    s = df_add_df_df(s, df_scale(x, F32(2.0)))
    tail = df_add2_df_df(df_mul_df_f(x2, t), _LOGK_C)
    return df_add_df_df(s, df_mul_df_df(df_mul_df_df(x2, x), tail))


def _expkf(d: DF) -> np.ndarray:
    """exp of a double-float, rounded to float."""
    u = (d[0] + d[1]) * R_LN2F
    q = rint_i32(u)
    qf = q.astype(F32)
    s = df_add2_df_f(d, qf * -L2UF)
    s = df_add2_df_f(s, qf * -L2LF)
    total = s[0] + s[1]
    s = (total, (s[0] - total) + s[1])
    u = _horner(s[0], _EXPK_POLY)
    t = df_add_df_df(s, df_mul_df_f(df_squ(s), u))
    t = df_add_f_df(F32(1.0), t)
    u = ldexp(t[0] + t[1], q)
    return where(d[0] < F32(-104.0), F32(0.0), u)


def powf_u10(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sleef_powf16_u10 (xpowf); through the compiled kernels where they were built (the
    elements they leave NaN from the emulation, whose NaN they do not reproduce)."""
    if native.kernels is None:
        return _powf_u10(x, y)
    x, y = np.asarray(x, F32), np.asarray(y, F32)
    shape = np.broadcast_shapes(x.shape, y.shape)
    base = np.ascontiguousarray(np.broadcast_to(x, shape).reshape(-1))  # (flat)
    one = y.size == 1
    exponent = np.ascontiguousarray(y.reshape(1) if one else np.broadcast_to(y, shape).reshape(-1))
    out = np.empty(base.size, F32)
    native.kernels.sleef_powf(out, base, exponent, out.size, 0 if one else 1)
    nan = np.isnan(out)
    if nan.any():
        out[nan] = _powf_u10(base[nan], exponent[0] if one else exponent[nan])
    return out.reshape(shape) if shape else out  # (numbers give one element, as emulated)


@deferred_checks
def _powf_u10(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sleef_powf16_u10 (xpowf), emulated."""
    x, y = np.broadcast_arrays(np.asarray(x, F32), np.asarray(y, F32))
    one, inf, nan = F32(1.0), F32(np.inf), F32(np.nan)
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > F32(1 << 24))
        ty = where(ay < F32(2.0**31), np.trunc(y), F32(0.0)).astype(np.int32)
        yisodd = ((ty & 1) == 1) & yisint & (ay < F32(1 << 24))
        result = _expkf(df_mul_df_f(_logkf(np.abs(x)), y))
        result = where(np.isnan(result), inf, result)
        sign = where(x > 0, one, where(yisint, where(yisodd, -one, one), nan))
        result = result * sign
        efx = _mulsign(np.abs(x) - one, y)
        inf_y = where(efx < 0, F32(0.0), where(efx == 0, one, inf))
        result = where(np.isinf(y), inf_y, result)
        zero_or_inf = where(np.signbit(y) ^ (x == 0), F32(0.0), inf)
        result = where(np.isinf(x) | (x == 0),
                          _mulsign(zero_or_inf, where(yisodd, x, one)), result)
        result = where(np.isnan(x) | np.isnan(y), nan, result)
        result = where((y == 0) | (x == one), one, result)
    return result.astype(F32, copy=False)


def _mulsign(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """vmulsign: x with its sign flipped where y's sign bit is set."""
    return from_int32(np.ascontiguousarray(x, F32).view(np.int32)
                      ^ (np.ascontiguousarray(y, F32).view(np.int32) & np.int32(-2**31)))


# ---- atan2 -------------------------------------------------------------------------------------

_ATAN2_POLY = [F32(c) for c in (
    -0.00176397908944636583328247, 0.0107900900766253471374512, -0.0309564601629972457885742,
    0.0577365085482597351074219, -0.0838950723409652709960938, 0.109463557600975036621094,
    -0.142626821994781494140625, 0.199983194470405578613281)]
_HALF_PI_DF = (F32(1.5707963705062866211), F32(-4.3711388286737928865e-08))


def _atan2kf_u1(y: DF, x: DF) -> DF:
    q = where(x[0] < 0, -2, 0).astype(np.int32)
    flip = where(x[0] < 0, np.int32(-2**31), np.int32(0))
    x = (from_int32(x[0].view(np.int32) ^ flip), from_int32(x[1].view(np.int32) ^ flip))
    q = where(x[0] < y[0], q + 1, q)
    p = x[0] < y[0]
    s = (where(p, -x[0], y[0]), where(p, -x[1], y[1]))
    t = (where(p, y[0], x[0]), where(p, y[1], x[1]))
    s = df_div(s, t)
    t = df_squ(s)
    total = t[0] + t[1]
    t = (total, (t[0] - total) + t[1])
    u = _horner(t[0], _ATAN2_POLY)
    t = df_mul_df_df(t, df_add_ff(F32(-0.333332866430282592773438), u * t[0]))
    t = df_mul_df_df(s, df_add_f_df(F32(1.0), t))
    return df_add_df_df(df_mul_df_f(_HALF_PI_DF, q.astype(F32)), t)


def _isinf2(d: np.ndarray, m: np.ndarray) -> np.ndarray:
    """visinf2: where d is infinite, m with d's sign bit or-ed in; 0 elsewhere."""
    bits = (np.ascontiguousarray(d, F32).view(np.int32) & np.int32(-2**31)) | \
        np.ascontiguousarray(m, F32).view(np.int32)
    return where(np.isinf(d), from_int32(bits), F32(0.0))


@deferred_checks
def atan2f_u10(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Sleef_atan2f16_u10 (xatan2f_u1)."""
    y, x = np.broadcast_arrays(np.asarray(y, F32), np.asarray(x, F32))
    half_pi, quarter_pi = F32(np.pi / 2), F32(np.pi / 4)
    with np.errstate(all="ignore"):
        o = np.abs(x) < F32(2.9387372783541830947e-39)
        x = where(o, x * F32(1 << 24), x)
        y = where(o, y * F32(1 << 24), y)
        zeros = np.zeros_like(x)
        d = _atan2kf_u1((np.abs(y), zeros), (x, zeros))
        r = _mulsign(d[0] + d[1], x)
        r = where(np.isinf(x) | (x == 0),
                     half_pi - _isinf2(x, _mulsign(np.full_like(x, half_pi), x)), r)
        r = where(np.isinf(y), half_pi - _isinf2(x, _mulsign(np.full_like(x, quarter_pi), x)),
                     r)
        r = where(y == 0, where(np.signbit(x), F32(np.pi), F32(0.0)), r)
        r = where(np.isnan(x) | np.isnan(y), F32(np.nan), _mulsign(r, y))
    return r.astype(F32, copy=False)
