"""SLEEF's float32 routines as ATen's AVX-512 `Vectorized<float>` calls them, bit for bit.

Each function follows the algorithm of SLEEF's `sleefsimdsp.c` (the AVX-512 build, where every
multiply-add is a fused one): the same constants, the same operation order, every float32
rounding reproduced with `fp.fma32` and float32 NumPy arithmetic.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32, fma32, pow2i32, rint_i32

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


def _exp_reduce(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """q = rint(d / ln 2) and s = d - q ln 2 in two fused steps (Cody-Waite)."""
    q = rint_i32(d * R_LN2F)
    qf = q.astype(F32)
    s = fma32(qf, -L2UF, d)
    s = fma32(qf, -L2LF, s)
    return q, s


def expf_u10(x: np.ndarray) -> np.ndarray:
    """Sleef_expf16_u10 (xexpf)."""
    d = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        q, s = _exp_reduce(d)
        u = np.full_like(d, _EXP_POLY[0])
        for c in _EXP_POLY[1:]:
            u = fma32(u, s, c)
        u = F32(1.0) + fma32(s * s, u, s)
        u = ldexp2(u, q)
        u = np.where(d < F32(-104.0), F32(0.0), u)
        u = np.where(F32(100.0) < d, F32(np.inf), u)
    return u.astype(F32, copy=False)
