"""glibc 2.36's float64-internal float32 functions (expf, exp2f, powf; x86-64 FMA builds), which
ATen's scalar paths call (the fdlibm-derived ones are in `fdlibm`).

ATen hands a loop's tail, strided inputs and 0-d tensors to `std::exp` and friends, i.e. glibc's
`expf` (selected at load time as its FMA build on CPUs with FMA). These routines work in float64
and round once at the end; the float64 steps here run unfused, which differs from the fused build
by a few float64 ulps, so every result whose float64 value lies that close to a float32 rounding
boundary is recomputed exactly with the fused operations (rare: about 1 in 10**6 elements).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal, localcontext

import numpy as np

from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.fp import (
    F32,
    F64,
    I64,
    exact,
    fma64,
    fraction_to_f64,
    near_f32_boundary,
    where,
)

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


def compiled(which: int, x: object, emulated: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The compiled kernels' glibc routine `which` (0 expf, 1 logf, 2 log1pf: _native_glibc32.h)
    on x through native.elementwise (NaN elements from `emulated`), shaped as x."""
    routine = functools.partial(native.kernels.glibc32, which)  # type: ignore[union-attr]
    return native.elementwise(routine, x, emulated).reshape(np.shape(x))


def expf(x: np.ndarray) -> np.ndarray:
    """glibc expf, element-wise; through the compiled kernels where they were built."""
    if native.kernels is not None:
        out = compiled(0, x, _expf)
        return out if out.ndim else out[()]  # (a number for a number, as the emulation's)
    return _expf(x)


def _expf(x: np.ndarray) -> np.ndarray:
    """glibc expf, element-wise, emulated."""
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
            res = where(v > _OVER, F32(np.inf), res)
            res = where(v < _UNDER, F32(0.0), res)
            res = where(np.isnan(v), v + v, res)
        out.flat[idx] = res
    return out


# ---- exp2f and powf (float64 inside, like expf) ------------------------------------------------

_SHIFT_N = F64(float.fromhex("0x1.8p+52") / _N)
_C_UNSCALED = [F64(float.fromhex(h)) for h in (
    "0x1.c6af84b912394p-5", "0x1.ebfce50fac4f3p-3", "0x1.62e42ff0c52d6p-1")]
# glibc's __powf_log2_data (Arm Optimized Routines, MIT): {1/c, log2(c)} for 16 subintervals
# of [0x3f330000, 2 * 0x3f330000), and the log2(1+r) polynomial.
_POW_INVC = np.array([float.fromhex(h) for h in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0", "0x1.3c995b0b80385p+0",
    "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0", "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0",
    "0x1.0953f419900a7p+0", "0x1p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1",
    "0x1.767dcf5534862p-1")], F64)
_POW_LOGC = np.array([float.fromhex(h) for h in (
    "-0x1.efec65b963019p-2", "-0x1.b0b6832d4fca4p-2", "-0x1.7418b0a1fb77bp-2",
    "-0x1.39de91a6dcf7bp-2", "-0x1.01d9bf3f2b631p-2", "-0x1.97c1d1b3b7afp-3",
    "-0x1.2f9e393af3c9fp-3", "-0x1.960cbbf788d5cp-4", "-0x1.a6f9db6475fcep-5", "0x0p+0",
    "0x1.338ca9f24f53dp-4", "0x1.476a9543891bap-3", "0x1.e840b4ac4e4d2p-3",
    "0x1.40645f0c6651cp-2", "0x1.88e9c2c1b9ff8p-2", "0x1.ce0a44eb17bccp-2")], F64)
_POW_A = [F64(float.fromhex(h)) for h in (
    "0x1.27616c9496e0bp-2", "-0x1.71969a075c67ap-2", "0x1.ec70a6ca7baddp-2",
    "-0x1.7154748bef6c8p-1", "0x1.71547652ab82bp0")]
_SIGN_BIAS = 1 << (5 + 11)


def _exp2_inline(xd: np.ndarray, sign_bias: np.ndarray) -> np.ndarray:
    """2^xd (times -1 where sign_bias is set) in float64, unfused."""
    kd = xd + _SHIFT_N
    ki = kd.view(I64)
    kd = kd - _SHIFT_N
    r = xd - kd
    t = _TAB[ki % _N] + ((ki + sign_bias) << 47)
    s = t.view(F64)
    y = (_C_UNSCALED[0] * r + _C_UNSCALED[1]) * (r * r) + (_C_UNSCALED[2] * r + 1.0)
    return y * s


def _exp2_inline_exact(xd: float, sign_bias: int) -> float:
    """_exp2_inline with the fused operations of glibc's FMA build, exactly."""
    kd = xd + float(_SHIFT_N)
    ki = int(np.float64(kd).view(I64))
    kd -= float(_SHIFT_N)
    r = xd - kd
    t = (int(_TAB[ki % _N]) + ((ki + sign_bias) << 47)) & ((1 << 64) - 1)
    s = float(np.array([t], dtype=np.uint64).view(F64)[0])
    z = fma64(float(_C_UNSCALED[0]), r, float(_C_UNSCALED[1]))
    y = fma64(float(_C_UNSCALED[2]), r, 1.0)
    y = fma64(z, r * r, y)
    return fraction_to_f64(exact(y) * exact(s))


def exp2f(x: np.ndarray) -> np.ndarray:
    """glibc exp2f, element-wise."""
    x = np.asarray(x, F32).reshape(-1)
    xd = x.astype(F64)
    with np.errstate(all="ignore"):
        y = _exp2_inline(where(np.abs(xd) < 200.0, xd, 0.0), np.zeros(x.shape, I64))
        out = y.astype(F32)
        special = ~(np.abs(x) < F32(128.0))
        ambiguous = near_f32_boundary(y, _MARGIN) & ~special
    for i in np.flatnonzero(ambiguous):
        out[i] = F32(_exp2_inline_exact(float(xd[i]), 0))
    if special.any():
        v = x[special]
        with np.errstate(all="ignore"):
            res = where(v > 0, F32(np.inf), where(v <= F32(-150.0), F32(0.0), out[special]))
            res = where(v == F32(-np.inf), F32(0.0), res)
            out[special] = where(np.isnan(v), v + v, res)
    return out


def _log2_inline(ix: np.ndarray) -> np.ndarray:
    """log2 of the positive normal float32 whose bits are ix, in float64, unfused."""
    tmp = ix - np.int64(0x3F330000)
    i = (tmp >> 19) % 16
    top = tmp & np.int64(-0x800000)  # 0xff800000 as a signed mask on the sign-extended value
    iz = (ix - top).astype(np.uint32).view(np.int32).view(F32).astype(F64)
    k = (top >> 23).astype(F64)
    r = iz * _POW_INVC[i] - 1.0
    y0 = _POW_LOGC[i] + k
    r2 = r * r
    y = _POW_A[0] * r + _POW_A[1]
    p = _POW_A[2] * r + _POW_A[3]
    r4 = r2 * r2
    q = _POW_A[4] * r + y0
    q = p * r2 + q
    return y * r4 + q


def _log2_inline_exact(ix: int) -> float:
    tmp = (ix - 0x3F330000) & 0xFFFFFFFF
    i = (tmp >> 19) % 16
    top = tmp & 0xFF800000
    iz = (ix - top) & 0xFFFFFFFF
    k = (top - (1 << 32) if top & 0x80000000 else top) >> 23
    z = float(np.array([iz], np.uint32).view(F32)[0])
    a = [float(c) for c in _POW_A]
    r = fma64(z, float(_POW_INVC[i]), -1.0)
    y0 = float(_POW_LOGC[i]) + k
    r2 = r * r
    y = fma64(a[0], r, a[1])
    p = fma64(a[2], r, a[3])
    r4 = r2 * r2
    q = fma64(a[4], r, y0)
    q = fma64(p, r2, q)
    return fma64(y, r4, q)


def _checkint(iy: np.ndarray) -> np.ndarray:
    """0: not an integer, 1: odd integer, 2: even integer (y's bits iy, as uint32 in int64)."""
    e = (iy >> 23) & 0xFF
    shift = np.clip(0x7F + 23 - e, 0, 31)
    frac = iy & ((np.int64(1) << shift) - 1)
    odd = (iy & (np.int64(1) << shift)) != 0
    out = where(frac != 0, 0, where(odd, 1, 2))
    return where(e < 0x7F, 0, where(e > 0x7F + 23, 2, out))


def powf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """glibc powf, element-wise over broadcast x and y."""
    x, y = np.broadcast_arrays(np.asarray(x, F32), np.asarray(y, F32))
    x, y = x.reshape(-1), y.reshape(-1)
    ix = x.view(np.uint32).astype(np.int64)
    iy = y.view(np.uint32).astype(np.int64)
    one = F32(1.0)
    with np.errstate(all="ignore"):
        yint = _checkint(iy)
        negative = (ix & 0x80000000) != 0
        sign_bias = where(negative & (yint == 1), _SIGN_BIAS, 0).astype(I64)
        ax = ix & 0x7FFFFFFF
        sub = ax < 0x00800000
        ax_norm = where(sub, (x * F32(2.0**23)).view(np.uint32).astype(np.int64) & 0x7FFFFFFF,
                           ax)
        ax_norm = where(sub, ax_norm - (23 << 23), ax_norm)
        ax_norm = where((ax == 0) | (ax >= 0x7F800000), 0x3F800000, ax_norm)
        logx = _log2_inline(ax_norm)
        ylogx = y.astype(F64) * logx
        big = (ylogx.view(I64) >> 47 & 0xFFFF) >= (np.float64(126.0).view(I64) >> 47)
        res64 = _exp2_inline(where(big, 0.0, ylogx), sign_bias)
        out = res64.astype(F32)
        ambiguous = near_f32_boundary(res64, _MARGIN) & ~big
        neg_res = where(sign_bias != 0, F32(-1.0), one)
        out = where(big & (ylogx > float.fromhex("0x1.fffffffd1d571p+6")), neg_res * F32(np.inf),
                       out)
        out = where(big & (ylogx <= -150.0), neg_res * F32(0.0), out)
        out = where(big & (ylogx <= float.fromhex("0x1.fffffffd1d571p+6"))
                       & (ylogx > -150.0), _exp2_big(ylogx, sign_bias), out)
        # negative finite x with a non-integer y
        out = where(negative & (yint == 0), F32(np.nan), out)
        # x is 0, inf or nan
        zin_x = ((2 * ix - 1) & 0xFFFFFFFF) >= 2 * 0x7F800000 - 1
        x2 = x * x
        x2 = where(negative & (yint == 1), -x2, x2)
        out = where(zin_x, where((iy & 0x80000000) != 0, one / x2, x2), out)
        # y is 0, inf or nan
        zin_y = ((2 * iy - 1) & 0xFFFFFFFF) >= 2 * 0x7F800000 - 1
        yres = where(((2 * ax) < 2 * 0x3F800000) == ((iy & 0x80000000) == 0), F32(0.0), y * y)
        yres = where(2 * ax == 2 * 0x3F800000, one, yres)
        yres = where((2 * ax > 2 * 0x7F800000) | ((2 * iy & 0xFFFFFFFF) > 2 * 0x7F800000),
                        x + y, yres)
        yres = where(ix == 0x3F800000, one, yres)
        yres = where((2 * iy & 0xFFFFFFFF) == 0, one, yres)
        out = where(zin_y, yres, out)
        exact_cases = ambiguous & ~zin_x & ~zin_y & ~(negative & (yint == 0))
    for i in np.flatnonzero(exact_cases):
        value = _exp2_inline_exact(float(y[i]) * _log2_inline_exact(int(ax_norm[i])),
                                   int(sign_bias[i]))
        out[i] = F32(value)
    return out


def _exp2_big(ylogx: np.ndarray, sign_bias: np.ndarray) -> np.ndarray:
    """The in-range results of large |y log2 x|, which the fast path skipped."""
    with np.errstate(all="ignore"):
        inside = (ylogx > -150.0) & (ylogx < 130.0)
        return _exp2_inline(where(inside, ylogx, 0.0), sign_bias).astype(F32)


# ---- logf (float64 inside, like expf) ----------------------------------------------------------

# glibc 2.36's __logf_data (Arm Optimized Routines, MIT): {1/c, log(c)} for the same 16
# subintervals as powf's table, ln2, and the log1p(r) polynomial (r^4, r^3, r^2 coefficients).
_LOG_LOGC = np.array([float.fromhex(h) for h in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2",
    "-0x1.b31d8a68224e9p-3", "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3",
    "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4", "-0x1.252f438e10c1ep-5", "0x0p+0",
    "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4", "0x1.526e57720db08p-3",
    "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2")], F64)
_LOG_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOG_A = [float.fromhex(h) for h in (
    "-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]


def _logf_reduce(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x = 2^k z with z in [0x3f330000, 2 * 0x3f330000): (z, k, the table index) for positive
    finite x (subnormals scaled first)."""
    ix = x.view(np.uint32).astype(I64)
    sub = ix < 0x00800000
    ix = where(sub, (x * F32(2.0**23)).view(np.uint32).astype(I64) - (23 << 23), ix)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = tmp >> 23  # arithmetic shift, as glibc's int32 cast
    iz = ix - (tmp & ~I64(0x7FFFFF))
    z = iz.astype(np.uint32).view(F32).astype(F64)
    return z, k.astype(F64), i


def _logf_exact(z: float, k: float, i: int) -> float:
    """One glibc logf in exact arithmetic, with the contractions of its FMA build."""
    r = fma64(z, float(_POW_INVC[i]), -1.0)
    y0 = fma64(k, _LOG_LN2, float(_LOG_LOGC[i]))
    r2 = r * r
    y = fma64(_LOG_A[1], r, _LOG_A[2])
    y = fma64(_LOG_A[0], r2, y)
    return fma64(y, r2, y0 + r)


def logf(x: np.ndarray) -> np.ndarray:
    """glibc logf (0.82 ulp, not correctly rounded), element-wise; through the compiled kernels
    where they were built."""
    if native.kernels is not None:
        return compiled(1, x, _logf)
    return _logf(x)


def _logf(x: np.ndarray) -> np.ndarray:
    """glibc logf, element-wise, emulated."""
    x = np.asarray(x, F32)
    shape = x.shape
    x = x.reshape(-1)
    with np.errstate(all="ignore"):
        special = ~((x > 0) & (x < np.inf))
        safe = where(special, F32(1.0), x)
        z, k, i = _logf_reduce(safe)
        invc, logc = _POW_INVC[i], _LOG_LOGC[i]
        r = z * invc - 1.0
        y0 = logc + k * _LOG_LN2
        r2 = r * r
        y = (_LOG_A[0] * r2 + (_LOG_A[1] * r + _LOG_A[2])) * r2 + (y0 + r)
        out = y.astype(F32)
        ambiguous = near_f32_boundary(y, _MARGIN) & ~special
    for j in np.flatnonzero(ambiguous):
        out[j] = F32(_logf_exact(float(z[j]), float(k[j]), int(i[j])))
    if special.any():
        v = x[special]
        with np.errstate(all="ignore"):
            res = where(v == 0, F32(-np.inf), F32(np.nan))
            res = where(v == np.inf, v, res)
            res = where(np.isnan(v), v + v, res)
        out[special] = res
    out[x == 1] = 0
    return out.reshape(shape)
