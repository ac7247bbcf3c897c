"""glibc 2.36's scalar float32 functions (x86-64, FMA variants), which ATen's scalar paths call.

ATen hands a loop's tail, strided inputs and 0-d tensors to `std::exp` and friends, i.e. glibc's
`expf` (selected at load time as its FMA build on CPUs with FMA). These routines work in float64
and round once at the end; the float64 steps here run unfused, which differs from the fused build
by a few float64 ulps, so every result whose float64 value lies that close to a float32 rounding
boundary is recomputed exactly with the fused operations (rare: about 1 in 10**6 elements).
"""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np

from gradsh.engine.vecmath.fp import F32, F64, I64, exact, fma64, fraction_to_f64, near_f32_boundary

_N = 32


def _exp2_table() -> np.ndarray:
    """glibc's __exp2f_data.tab: bits of 2^(i/32) rounded to float64, minus i << 47."""
    out = []
    with localcontext() as ctx:
        ctx.prec = 60
        for i in range(_N):
            value = float(Decimal(2) ** (Decimal(i) / _N))  # Decimal -> float rounds correctly
            out.append(int(np.float64(value).view(I64)) - (i << 47))
    return np.array(out, dtype=I64)


_TAB = _exp2_table()
_INVLN2N = F64(float.fromhex("0x1.71547652b82fep+0") * _N)
_SHIFT = F64(float.fromhex("0x1.8p+52"))
_C0 = F64(float.fromhex("0x1.c6af84b912394p-5") / _N / _N / _N)
_C1 = F64(float.fromhex("0x1.ebfce50fac4f3p-3") / _N / _N)
_C2 = F64(float.fromhex("0x1.62e42ff0c52d6p-1") / _N)
_OVER = F32(float.fromhex("0x1.62e42ep6"))
_UNDER = F32(float.fromhex("-0x1.9fe368p6"))
# How far (in float32 ulps) the unfused float64 value may sit from glibc's fused one.
_MARGIN = 2.0**-20


def _expf_exact(x: float) -> float:
    """One glibc expf in exact arithmetic, with the contractions of its FMA build."""
    xd = float(x)
    kd = fma64(_INVLN2N, xd, _SHIFT)
    ki = int(np.float64(kd).view(I64))
    kd -= _SHIFT
    r = fma64(_INVLN2N, xd, -kd)
    t = (int(_TAB[ki % _N]) + (ki << 47)) & ((1 << 64) - 1)
    s = float(np.array([t], dtype=np.uint64).view(F64)[0])
    z = fma64(_C0, r, _C1)
    r2 = r * r
    y = fma64(_C2, r, 1.0)
    y = fma64(z, r2, y)
    return fraction_to_f64(exact(y) * exact(s))


def expf(x: np.ndarray) -> np.ndarray:
    """glibc expf, element-wise."""
    x = np.asarray(x, F32)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        z = _INVLN2N * xd
        kd = z + _SHIFT
        ki = kd.view(I64)
        kd = kd - _SHIFT
        r = z - kd
        t = _TAB[ki % _N] + (ki << 47)
        s = t.view(F64)
        y = (_C0 * r + _C1) * (r * r) + (_C2 * r + 1.0)
        y = y * s
        out = y.astype(F32)
        special = ~(np.abs(x) < F32(88.0))
        ambiguous = near_f32_boundary(y, _MARGIN) & ~special
    for i in np.flatnonzero(ambiguous):
        out.flat[i] = F32(_expf_exact(xd.flat[i]))
    if special.any():
        idx = np.flatnonzero(special)
        v = x.flat[idx]
        with np.errstate(all="ignore"):
            res = out.flat[idx]
            res = np.where(v > _OVER, F32(np.inf), res)
            res = np.where(v < _UNDER, F32(0.0), res)
            res = np.where(np.isnan(v), v + v, res)
        out.flat[idx] = res
    return out
