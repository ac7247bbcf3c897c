"""glibc 2.36's fdlibm-derived float32 functions, which ATen's scalar paths call.

log1pf, expm1f, tanhf, sinhf, coshf, erff, atanf and atan2f are plain float32 arithmetic in glibc
(Sun's fdlibm, converted to float by Cygnus; no FMA build), so each is transcribed operation by
operation, its branches as masks.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.fp import F32, where
from gradsh.engine.vecmath.libm import compiled, expf


# ---- the fdlibm-derived float routines (pure float32 arithmetic, no FMA build) ---------------

_LN2_HI_F = F32(6.9313812256e-01)
_LN2_LO_F = F32(9.0580006145e-06)
_LP = [F32(c) for c in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01, 2.2222198546e-01,
                        1.8183572590e-01, 1.5313838422e-01, 1.4798198640e-01)]


def _bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, F32).view(np.int32)


def _float(i: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(i, np.int32).view(F32)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc log1pf (s_log1pf.c), element-wise, flattened; through the compiled kernels where
    they were built."""
    if native.kernels is not None:
        return compiled(2, x, _log1pf).reshape(-1)
    return _log1pf(x)


def _log1pf(x: np.ndarray) -> np.ndarray:
    """glibc log1pf, element-wise, flattened, emulated."""
    x = np.asarray(x, F32).reshape(-1)
    one = F32(1.0)
    with np.errstate(all="ignore"):
        hx = _bits(x)
        ax = hx & 0x7FFFFFFF
        small_k = (hx < 0x3ED413D7) & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))  # 0xbe95f61f
        # k != 0 path: reduce 1 + x = 2^k u with a correction c for the rounding of 1 + x
        u = one + x
        hu = _bits(u)
        k = (hu >> 23) - 127
        c = where(k > 0, one - (u - x), x - (u - one)) / u
        big = hx >= 0x5A000000
        hu = where(big, hx, hu)
        k = where(big, (hx >> 23) - 127, k)
        c = where(big, F32(0.0), c)
        hu = hu & 0x007FFFFF
        low = hu < 0x3504F7
        u = where(low, _float(hu | 0x3F800000), _float(hu | 0x3F000000))
        k = where(low, k, k + 1)
        hu = where(low, hu, (0x00800000 - hu) >> 2)
        f = u - one
        f = where(small_k, x, f)
        k = where(small_k, 0, k)
        hu = where(small_k, 1, hu)
        c = where(small_k, F32(0.0), c)
        kf = k.astype(F32)
        hfsq = F32(0.5) * f * f
        # general case
        s = f / (F32(2.0) + f)
        z = s * s
        r = _LP[6]
        for lp in _LP[5::-1]:
            r = lp + z * r
        r = z * r
        general = where(k == 0, f - (hfsq - s * (hfsq + r)),
                           kf * _LN2_HI_F - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO_F + c))) - f))
        # |f| < 2^-20
        r0 = hfsq * (one - F32(0.66666666666666666) * f)
        tiny_f = where(k == 0, f - r0, kf * _LN2_HI_F - ((r0 - (kf * _LN2_LO_F + c)) - f))
        zero_f = where(k == 0, F32(0.0), kf * _LN2_HI_F + (c + kf * _LN2_LO_F))
        out = where(hu == 0, where(f == 0, zero_f, tiny_f), general)
        # the early returns, in reverse order of precedence
        out = where(hx >= 0x7F800000, x + x, out)
        tiny_x = (hx < 0x3ED413D7) & (ax < 0x31000000)
        out = where(tiny_x, where(ax < 0x24800000, x, x - x * x * F32(0.5)), out)
        le_m1 = (hx < 0x3ED413D7) & (ax >= 0x3F800000)
        out = where(le_m1, where(x == F32(-1.0), F32(-np.inf), F32(np.nan)), out)
    return out.astype(F32, copy=False)


_Q = [F32(c) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05, 4.0082177293e-06,
                       -2.0109921195e-07)]
_INVLN2_F = F32(1.4426950216e+00)


def expm1f(x: np.ndarray) -> np.ndarray:
    """glibc expm1f (s_expm1f.c), element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one, half = F32(1.0), F32(0.5)
    with np.errstate(all="ignore"):
        hx = _bits(x) & 0x7FFFFFFF
        neg = np.signbit(x)
        # argument reduction: x = k ln2 + (hi - lo), c the rounding error of hi - lo
        near = hx < 0x3F851592
        k_far = (_INVLN2_F * x + where(neg, F32(-0.5), half))
        k_far = where(np.abs(k_far) < F32(2.0**31), k_far, F32(0.0)).astype(np.int32)
        t = k_far.astype(F32)
        hi = where(near, where(neg, x + _LN2_HI_F, x - _LN2_HI_F), x - t * _LN2_HI_F)
        lo = where(near, where(neg, -_LN2_LO_F, _LN2_LO_F), t * _LN2_LO_F)
        k = where(near, where(neg, -1, 1), k_far)
        reduce = hx > 0x3EB17218
        xr = where(reduce, hi - lo, x)
        c = where(reduce, (hi - xr) - lo, F32(0.0))
        k = where(reduce, k, 0)
        hfx = half * xr
        hxs = xr * hfx
        r1 = _Q[4]
        for q in _Q[3::-1]:
            r1 = q + hxs * r1
        r1 = one + hxs * r1
        t = F32(3.0) - r1 * hfx
        e = hxs * ((r1 - t) / (F32(6.0) - xr * t))
        out_k0 = xr - (xr * e - hxs)
        e = xr * (e - c) - c
        e = e - hxs
        out_km1 = half * (xr - e) - half
        out_k1 = where(xr < F32(-0.25), -F32(2.0) * (e - (xr + half)), one + F32(2.0) * (xr - e))
        kshift = (k << 23).astype(np.int32)
        y = one - (e - xr)
        out_far = _float(_bits(y) + kshift) - one
        t_lo = _float((0x3F800000 - (0x1000000 >> np.clip(k, 0, 31))).astype(np.int32))
        y = t_lo - (e - xr)
        out_mid = _float(_bits(y) + kshift)
        t_hi = _float(((0x7F - k) << 23).astype(np.int32))
        y = (xr - (e + t_hi)) + one
        out_high = _float(_bits(y) + kshift)
        out = where(k < 23, out_mid, out_high)
        out = where((k <= -2) | (k > 56), out_far, out)
        out = where(k == 1, out_k1, out)
        out = where(k == -1, out_km1, out)
        out = where(k == 0, out_k0, out)
        out = where(~reduce & (hx < 0x33000000), x, out)
        big = hx >= 0x4195B844
        out = where(big & neg, F32(-1.0), out)
        out = where((hx >= 0x42B17218) & ~neg & (x > F32(8.8721679688e+01)), F32(np.inf), out)
        out = where(hx == 0x7F800000, where(neg, F32(-1.0), x), out)
        out = where(hx > 0x7F800000, x + x, out)
    return out.astype(F32, copy=False)


def tanhf(x: np.ndarray) -> np.ndarray:
    """glibc tanhf (s_tanhf.c, through expm1f), element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one, two = F32(1.0), F32(2.0)
    with np.errstate(all="ignore"):
        ix = _bits(x) & 0x7FFFFFFF
        a = np.abs(x)
        t_big = expm1f(two * a)
        t_small = expm1f(-two * a)
        z = where(ix >= 0x3F800000, one - two / (t_big + two), -t_small / (t_small + two))
        z = where(ix < 0x41B00000, z, one - F32(1.0e-30))
        out = where(np.signbit(x), -z, z)
        out = where(ix < 0x24000000, x * (one + x), out)
        out = where(ix == 0, x, out)
        out = where(ix >= 0x7F800000, where(np.signbit(x), one / x - one, one / x + one), out)
    return out.astype(F32, copy=False)


def sinhf(x: np.ndarray) -> np.ndarray:
    """glibc sinhf (e_sinhf.c), element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one, two = F32(1.0), F32(2.0)
    with np.errstate(all="ignore"):
        ix = _bits(x) & 0x7FFFFFFF
        a = np.abs(x)
        h = where(np.signbit(x), F32(-0.5), F32(0.5))
        t = expm1f(a)
        mid = where(ix < 0x3F800000, h * (two * t - t * t / (t + one)), h * (t + t / (t + one)))
        big = h * expf(a)
        w = expf(F32(0.5) * a)
        huge = (h * w) * w
        out = where(ix <= 0x42B2D4FC, huge, x * F32(1.0e37))
        out = where(ix < 0x42B17180, big, out)
        out = where(ix < 0x41B00000, mid, out)
        out = where(ix < 0x31800000, x, out)
        out = where(ix >= 0x7F800000, x + x, out)
    return out.astype(F32, copy=False)


def coshf(x: np.ndarray) -> np.ndarray:
    """glibc coshf (e_coshf.c), element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one, half = F32(1.0), F32(0.5)
    with np.errstate(all="ignore"):
        ix = _bits(x) & 0x7FFFFFFF
        a = np.abs(x)
        t = expm1f(a)
        w = one + t
        small = where(ix < 0x24000000, w, one + (t * t) / (w + w))
        e = expf(a)
        mid = half * e + half / e
        big = half * e
        w2 = expf(half * a)
        huge = (half * w2) * w2
        out = where(ix >= 0x7F800000, x * x, F32(1.0e30) * F32(1.0e30))
        out = where(ix <= 0x42B2D4FC, huge, out)
        out = where(ix < 0x42B17180, big, out)
        out = where(ix < 0x41B00000, mid, out)
        out = where(ix < 0x3EB17218, small, out)
    return out.astype(F32, copy=False)


# ---- erff (s_erff.c) ---------------------------------------------------------------------------

def _f32s(*values: float) -> list[np.float32]:
    return [F32(v) for v in values]


_ERX = F32(8.4506291151e-01)
_EFX = F32(1.2837916613e-01)
_PP = _f32s(1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02, -5.7702702470e-03,
            -2.3763017452e-05)
_QQ = _f32s(1.0, 3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03, 1.3249473704e-04,
            -3.9602282413e-06)
_PA = _f32s(-2.3621185683e-03, 4.1485610604e-01, -3.7220788002e-01, 3.1834661961e-01,
            -1.1089469492e-01, 3.5478305072e-02, -2.1663755178e-03)
_QA = _f32s(1.0, 1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02, 1.2617121637e-01,
            1.3637083583e-02, 1.1984500103e-02)
_RA = _f32s(-9.8649440333e-03, -6.9385856390e-01, -1.0558626175e+01, -6.2375331879e+01,
            -1.6239666748e+02, -1.8460508728e+02, -8.1287437439e+01, -9.8143291473e+00)
_SA = _f32s(1.0, 1.9651271820e+01, 1.3765776062e+02, 4.3456588745e+02, 6.4538726807e+02,
            4.2900814819e+02, 1.0863500214e+02, 6.5702495575e+00, -6.0424413532e-02)
_RB = _f32s(-9.8649431020e-03, -7.9928326607e-01, -1.7757955551e+01, -1.6063638306e+02,
            -6.3756646729e+02, -1.0250950928e+03, -4.8351919556e+02)
_SB = _f32s(1.0, 3.0338060379e+01, 3.2579251099e+02, 1.5367296143e+03, 3.1998581543e+03,
            2.5530502930e+03, 4.7452853394e+02, -2.2440952301e+01)


def _horner(coeffs: list[np.float32], z: np.ndarray) -> np.ndarray:
    """c0 + z*(c1 + z*(c2 + ...)), innermost first, in float32."""
    acc = np.full_like(z, coeffs[-1])
    for c in coeffs[-2::-1]:
        acc = c + z * acc
    return acc


def erff(x: np.ndarray) -> np.ndarray:
    """glibc erff (s_erff.c), element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one = F32(1.0)
    with np.errstate(all="ignore"):
        hx = _bits(x)
        ix = hx & 0x7FFFFFFF
        neg = hx < 0
        # |x| < 0.84375
        z = x * x
        y = _horner(_PP, z) / _horner(_QQ, z)
        small = x + x * y
        tiny = where(ix < 0x04000000, F32(0.0625) * (F32(16.0) * x + (F32(16.0) * _EFX) * x),
                        x + _EFX * x)
        # 0.84375 <= |x| < 1.25
        s = np.abs(x) - one
        pq = _horner(_PA, s) / _horner(_QA, s)
        mid = where(neg, -_ERX - pq, _ERX + pq)
        # 1.25 <= |x| < 6
        a = np.abs(x)
        s = one / (a * a)
        near = ix < 0x4036DB6E
        rs = where(near, _horner(_RA, s) / _horner(_SA, s), _horner(_RB, s) / _horner(_SB, s))
        zz = _float(_bits(a) & np.int32(-0x1000))  # ix & 0xfffff000
        r = expf(-zz * zz - F32(0.5625)) * expf((zz - a) * (zz + a) + rs)
        far = where(neg, r / a - one, one - r / a)
        out = where(neg, F32(1e-30) - one, one - F32(1e-30))
        out = where(ix < 0x40C00000, far, out)
        out = where(ix < 0x3FA00000, mid, out)
        out = where(ix < 0x3F580000, where(ix < 0x31800000, tiny, small), out)
        out = where(ix >= 0x7F800000, where(neg, F32(-1.0), one) + one / x, out)
    return out.astype(F32, copy=False)


# ---- atanf, atan2f (s_atanf.c, e_atan2f.c) ----------------------------------------------------

_ATANHI = _f32s(4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00)
_ATANLO = _f32s(5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08)
_AT = _f32s(3.3333334327e-01, -2.0000000298e-01, 1.4285714924e-01, -1.1111110449e-01,
            9.0908870101e-02, -7.6918758452e-02, 6.6610731184e-02, -5.8335702866e-02,
            4.9768779427e-02, -3.6531571299e-02, 1.6285819933e-02)


def atanf(x: np.ndarray) -> np.ndarray:
    """glibc atanf, element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    one = F32(1.0)
    with np.errstate(all="ignore"):
        hx = _bits(x)
        ix = hx & 0x7FFFFFFF
        a = np.abs(x)
        ident = where(ix < 0x3F300000, 0, 1)
        ident = where(ix < 0x3F980000, ident, where(ix < 0x401C0000, 2, 3))
        ident = where(ix < 0x3EE00000, -1, ident)
        red = where(ident == 0, (F32(2.0) * a - one) / (F32(2.0) + a),
                       where(ident == 1, (a - one) / (a + one),
                                where(ident == 2, (a - F32(1.5)) / (one + F32(1.5) * a),
                                         -one / a)))
        t = where(ident < 0, x, red)
        z = t * t
        w = z * z
        s1 = z * _horner(_AT[0::2], w)
        s2 = w * _horner(_AT[1::2], w)
        k = np.maximum(ident, 0)
        hi = np.array(_ATANHI, F32)[k]
        lo = np.array(_ATANLO, F32)[k]
        zz = hi - ((t * (s1 + s2) - lo) - t)
        out = where(ident < 0, t - t * (s1 + s2), where(hx < 0, -zz, zz))
        out = where((ident < 0) & (ix < 0x31000000), x, out)
        big = where(hx > 0, _ATANHI[3] + _ATANLO[3], -_ATANHI[3] - _ATANLO[3])
        # glibc 2.36 returns +-pi/2 from |x| >= 2^25 on (fdlibm: 2^34)
        out = where(ix >= 0x4C000000, where(ix > 0x7F800000, x + x, big), out)
    return out.astype(F32, copy=False)


_PI_F, _PI_LO_F = F32(3.1415927410e+00), F32(-8.7422776573e-08)
_PI_O_2_F, _PI_O_4_F = F32(1.5707963705e+00), F32(7.8539818525e-01)


def atan2f(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """glibc atan2f, element-wise over broadcast y and x."""
    y, x = np.broadcast_arrays(np.asarray(y, F32), np.asarray(x, F32))
    y, x = np.ascontiguousarray(y).reshape(-1), np.ascontiguousarray(x).reshape(-1)
    tiny = F32(1.0e-30)
    with np.errstate(all="ignore"):
        hx, hy = _bits(x), _bits(y)
        ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
        m = ((hy >> 31) & 1) | ((hx >> 30) & 2)
        k = (iy - ix) >> 23
        z = where(k > 60, _PI_O_2_F + F32(0.5) * _PI_LO_F,
                     where((hx < 0) & (k < -60), F32(0.0), atanf(np.abs(y / x))))
        general = np.choose(m, [z, -z, _PI_F - (z - _PI_LO_F), (z - _PI_LO_F) - _PI_F])
        out = general
        out = where(iy == 0x7F800000, where(hy < 0, -_PI_O_2_F - tiny, _PI_O_2_F + tiny),
                       out)
        inf_inf = np.choose(m, [_PI_O_4_F + tiny, -_PI_O_4_F - tiny,
                                F32(3.0) * _PI_O_4_F + tiny, F32(-3.0) * _PI_O_4_F - tiny])
        inf_fin = np.choose(m, [F32(0.0), F32(-0.0), _PI_F + tiny, -_PI_F - tiny])
        out = where(ix == 0x7F800000, where(iy == 0x7F800000, inf_inf, inf_fin), out)
        out = where(ix == 0, where(hy < 0, -_PI_O_2_F - tiny, _PI_O_2_F + tiny), out)
        y_zero = np.choose(m, [y, y, _PI_F + tiny, -_PI_F - tiny])
        out = where(iy == 0, y_zero, out)
        out = where(hx == 0x3F800000, atanf(y), out)
        out = where((ix > 0x7F800000) | (iy > 0x7F800000), x + y, out)
    return out.astype(F32, copy=False)
