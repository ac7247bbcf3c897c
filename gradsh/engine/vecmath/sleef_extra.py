"""SLEEF's float32 lgamma and atanh (Sleef_lgammaf16_u10, Sleef_atanhf16_u10), bit for bit.

PyTorch maps lgamma over every element of a float32 tensor (`Vectorized<float>::lgamma`
through `vec::map`: a partial vector for the tail, so the position does not matter) and runs
atanh's vector blocks through SLEEF (its scalar tail through the C library, vecmath/clib.py):
both checked against the routines libtorch_cpu exports. Like vecmath/sleef.py this follows the
AVX-512 build, every multiply-add fused, with its double-float helpers.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32, I32, fma32, pow2i32, rint_i32, where
from gradsh.engine.vecmath.sleef import (
    DF,
    _getexp,
    df_add2_df_df,
    df_add2_df_f,
    df_add2_ff,
    df_add_df_df,
    df_div,
    df_mul_df_df,
    df_mul_df_f,
    df_mul_ff,
    df_scale,
    df_squ,
)

__all__ = ["lgammaf_u10", "atanhf_u10"]


def _pair(value: float) -> DF:
    """vcast_vf2_d: a double constant as (float, float of the remainder)."""
    high = F32(value)
    return high, F32(value - float(high))


def _select(mask: np.ndarray, a: DF, b: DF) -> DF:
    return where(mask, a[0], b[0]), where(mask, a[1], b[1])


def _add2_f_df(x: np.ndarray, y: DF) -> DF:
    """dfadd2_vf2_vf_vf2: x + (y.x, y.y)."""
    s = x + y[0]
    v = s - x
    return s, ((x - (s - v)) + (y[0] - v)) + y[1]


def _normalize(d: DF) -> DF:
    s = d[0] + d[1]
    return s, (d[0] - s) + d[1]


def _neg(d: DF) -> DF:
    return -d[0], -d[1]


def _logk2f(d: DF) -> DF:
    """log of a double-float (the AVX-512 exponent from getexp)."""
    e = rint_i32(_getexp(d[0] * F32(1.0 / 0.75)))
    m = df_scale(d, pow2i32(-e))
    x = df_div(df_add2_df_f(m, F32(-1.0)), df_add2_df_f(m, F32(1.0)))
    x2 = df_squ(x)
    t = F32(0.2392828464508056640625)
    t = fma32(t, x2[0], F32(0.28518211841583251953125))
    t = fma32(t, x2[0], F32(0.400005877017974853515625))
    t = fma32(t, x2[0], F32(0.666666686534881591796875))
    s = df_mul_df_f((F32(0.69314718246459960938), F32(-1.904654323148236017e-09)),
                    e.astype(F32))
    s = df_add_df_df(s, df_scale(x, F32(2.0)))
    return df_add_df_df(s, df_mul_df_f(df_mul_df_df(x2, x), t))


def _sinpifk(d: np.ndarray) -> DF:
    """sin(pi d) in double-float."""
    u = d * F32(4.0)
    q = np.trunc(u).astype(I32)
    q = (q + ((q.view(np.uint32) >> 31).astype(I32) ^ I32(1))) & I32(~1)
    o = (q & 2) == 2
    s = u - q.astype(F32)
    t = s
    s = s * s
    s2 = df_mul_ff(t, t)
    u = where(o, F32(-0.2430611801e-7), F32(+0.3093842054e-6))
    u = fma32(u, s, where(o, F32(+0.3590577080e-5), F32(-0.3657307388e-4)))
    u = fma32(u, s, where(o, F32(-0.3259917721e-3), F32(+0.2490393585e-2)))
    x = _add2_f_df(u * s, _select(o, (F32(0.015854343771934509277), F32(4.4940051354032242811e-10)),
                                  (F32(-0.080745510756969451904),
                                   F32(-1.3373665339076936258e-09))))
    x = df_add2_df_df(df_mul_df_df(s2, x),
                      _select(o, (F32(-0.30842512845993041992), F32(-9.0728339030733922277e-09)),
                              (F32(0.78539818525314331055), F32(-2.1857338617566484855e-08))))
    x = df_mul_df_df(x, _select(o, s2, (t, np.zeros_like(t))))
    x = _select(o, df_add2_df_f(x, F32(1.0)), x)
    flip = (q & 4) == 4
    sign = np.where(flip, I32(-2**31), I32(0))
    return (x[0].view(I32) ^ sign).view(F32), (x[1].view(I32) ^ sign).view(F32)


_U = [  # (o2, o0, else) coefficients of u, highest first
    (+0.000839498720672087279971000786, +0.9435157776e+0, +0.1102489550e-3),
    (-5.17179090826059219329394422e-05, +0.8670063615e+0, +0.8160019934e-4),
    (-0.000592166437353693882857342347, +0.4826702476e+0, +0.1528468856e-3),
    (+6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (+0.000784039221720066627493314301, +0.1013825238e+0, +0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e+0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, +0.1697509140e+0, +0.2891599433e-2),
    (+0.003472222222222222222175164840, -0.2072454542e+0, -0.7385451812e-2),
    (+0.083333333333333333335592087900, +0.2705872357e+0, +0.2058077045e-1),
]
_U_TABLE = [np.array(row, F32) for row in _U]
_Z = [  # (o0, else) coefficients of z
    (-0.400686534596170958447352690395e+0, -0.673523028297382446749257758235e-1),
    (+0.822466960142643054450325495997e+0, +0.322467033928981157743538726901e+0),
    (-0.577215665946766039837398973297e+0, +0.422784335087484338986941629852e+0),
]


def _gammafk(a: np.ndarray) -> tuple[DF, DF]:
    """(log part, ratio part) of Gamma(a), as SLEEF's gammafk."""
    zero = np.zeros_like(a)
    one = np.ones_like(a)
    otiny = np.abs(a) < F32(1e-30)
    oref = a < F32(0.5)
    x = _select(otiny, (zero, zero), _select(oref, df_add2_ff(F32(1.0), -a), (a, zero)))
    o0 = (F32(0.5) <= x[0]) & (x[0] <= F32(1.2))
    o2 = F32(2.3) <= x[0]
    y = _normalize(df_mul_df_df(df_add2_df_f(x, F32(1.0)), x))
    y = _normalize(df_mul_df_df(df_add2_df_f(x, F32(2.0)), y))
    o = o2 & (x[0] <= F32(7.0))
    clln = _select(o, y, (one, zero))
    x = _select(o, df_add2_df_f(x, F32(3.0)), x)
    t = where(o2, F32(1.0) / x[0],
              _normalize(df_add2_df_f(x, where(o0, F32(-1.0), F32(-2.0))))[0])
    branch = np.where(o2, 0, np.where(o0, 1, 2))  # which of the three fits
    u = _U_TABLE[0].take(branch)
    for row in _U_TABLE[1:]:
        u = fma32(u, t, row.take(branch))
    y = df_mul_df_df(df_add2_df_f(x, F32(-0.5)), _logk2f(x))
    y = df_add2_df_df(y, _neg(x))
    y = df_add2_df_df(y, _pair(0.91893853320467278056))  # 0.5 log(2 pi)
    z = df_add2_df_f(df_mul_ff(u, t), where(o0, F32(_Z[0][0]), F32(_Z[0][1])))
    z = df_add2_df_f(df_mul_df_f(z, t), where(o0, F32(_Z[1][0]), F32(_Z[1][1])))
    z = df_add2_df_f(df_mul_df_f(z, t), where(o0, F32(_Z[2][0]), F32(_Z[2][1])))
    z = df_mul_df_f(z, t)
    clc = _select(o2, y, z)
    clld = _select(o2, df_add2_df_f(df_mul_ff(u, t), F32(1.0)), (one, zero))
    y = clln
    clc = _select(otiny, _pair(41.58883083359671856503),  # log(2^60)
                  _select(oref, df_add2_df_df(_pair(1.1447298858494001639), _neg(clc)), clc))
    clln = _select(otiny, (one, zero), _select(oref, clln, clld))
    if oref.any():
        scaled = np.trunc(a * F32(1.0 / (1 << 12)))
        scaled = where(np.abs(scaled) < F32(2.0**31), scaled, F32(-2.0**31))  # cvttps2dq
        t = a - F32(1 << 12) * scaled
        x = df_mul_df_df(clld, _sinpifk(t))
    clld = _select(otiny, (a * F32(float(1 << 30) * float(1 << 30)), zero),
                   _select(oref, x, y))
    return clc, df_div(clln, clld)


def lgammaf_u10(a: np.ndarray) -> np.ndarray:
    """Sleef_lgammaf16_u10: log|Gamma(a)|, +inf at the poles and at +-inf."""
    a = np.asarray(a, F32)
    with np.errstate(all="ignore"):
        clc, ratio = _gammafk(a)
        magnitude = (np.abs(ratio[0]),
                     (ratio[1].view(I32) ^ (ratio[0].view(I32) & I32(-2**31))).view(F32))
        y = df_add2_df_df(clc, _logk2f(magnitude))
        r = y[0] + y[1]
        integer = a == np.trunc(a)
        inf = np.isinf(a) | ((a <= F32(0.0)) & integer) | (np.isfinite(a) & np.isnan(r))
        return where(inf, F32(np.inf), r).astype(F32, copy=False).reshape(a.shape)


def atanhf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_atanhf16_u10 (xatanhf): log((1 + |x|) / (1 - |x|)) / 2 in double-float, the sign
    of x; nan (all bits set, then x's sign) beyond 1, inf at 1."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _logk2f(df_div(df_add2_ff(F32(1.0), y), df_add2_ff(F32(1.0), -y)))
        y = where(y == F32(1.0), F32(np.inf), (d[0] + d[1]) * F32(0.5))
        all_ones = np.full(x.shape, -1, I32).view(F32)
        y = where((np.abs(x) > F32(1.0)) | np.isinf(x) | np.isnan(y), all_ones, y)
        y = (y.view(I32) ^ (x.view(I32) & I32(-2**31))).view(F32)  # vmulsign
        return where(np.isnan(x), all_ones, y).astype(F32, copy=False).reshape(x.shape)
