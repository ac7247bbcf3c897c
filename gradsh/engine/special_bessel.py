"""torch.special's Bessel family (bessel_j0/j1/y0/y1, modified_bessel_i0/i1/k0/k1,
scaled_modified_bessel_k0/k1, spherical_bessel_j0): ATen's Cephes-derived scalar kernels
(aten/src/ATen/native/Math.h), in the input's dtype (float32 tables and arithmetic for a float32
tensor), with the multiply-adds GCC contracts into fused ones (the kernels are built with -mfma)
and the C library's sin, cos, exp and log, so that the bits are PyTorch's on the CPU.

A few float32 expressions go through double where ATen's do: `std::log(0.5 * x)` in k0 and
k1 multiplies by the double literal 0.5."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gradsh.engine.special_math import (_I0E_A, _I0E_B, _I1E_A, _I1E_B, _chbevl, _fma,
                                        _in_dtype)
from gradsh.engine.vecmath import clib

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"]

Array = np.ndarray


def _libm(name: str, x: Array) -> Array:
    """The C library's `name` (sinf for float32 ...) over x."""
    fn = clib.function(name, x.dtype)
    if fn is not None:
        return fn(x)
    return getattr(np, name)(x.astype(np.float64)).astype(x.dtype)


def _horner(z: Array, table: tuple[float, ...]) -> Array:
    """`p = 0; for c in table: p = p * z + c` with each step one fused multiply-add."""
    t = z.dtype.type
    p = np.full_like(z, t(table[0]))
    for c in table[1:]:
        p = _fma(p, z, t(c))
    return p


def _where(pieces: list[tuple[Array, Callable[[Array], Array]]], x: Array) -> Array:
    """Each function over the elements its mask selects (the others get NaN inputs never
    read), put together."""
    out = np.zeros_like(x)
    for mask, fn in pieces:
        if mask.any():
            out[mask] = fn(x[mask])
    return out


_J0_PP = (7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00,
          5.44725003058768775090e+00, 8.74716500199817011941e+00, 5.30324038235394892183e+00,
          9.99999999999999997821e-01)
_J0_PQ = (9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00,
          5.47097740330417105182e+00, 8.76190883237069594232e+00, 5.30605288235394617618e+00,
          1.00000000000000000218e+00)
_J0_QP = (-1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
          -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
          -5.14105326766599330220e+01, -6.05014350600728481186e+00)
_J0_QQ = (6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03,
          7.24046774195652478189e+03, 5.93072701187316984827e+03, 2.06209331660327847417e+03,
          2.42005740240291393179e+02)
_J0_RP = (-4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
          9.70862251047306323952e+15)
_J0_RQ = (4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
          1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
          3.18121955943204943306e+16, 1.71086294081043136091e+18)
_J1_PP = (7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00,
          5.11207951146807644818e+00, 8.42404590141772420927e+00, 5.21451598682361504063e+00,
          1.00000000000000000254e+00)
_J1_PQ = (5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00,
          5.07386386128601488557e+00, 8.39985554327604159757e+00, 5.20982848682361821619e+00,
          9.99999999999999997461e-01)
_J1_QP = (5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01,
          3.66779609360150777800e+02, 7.10856304998926107277e+02, 5.97489612400613639965e+02,
          2.11688757100572135698e+02, 2.52070205858023719784e+01)
_J1_QQ = (7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03,
          9.56231892404756170795e+03, 7.99704160447350683650e+03, 2.82619278517639096600e+03,
          3.36093607810698293419e+02)
_J1_RP = (-8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
          3.68295732863852883286e+15)
_J1_RQ = (6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
          2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
          8.95222336184627338078e+16, 5.32278620332680085395e+18)
_Y0_YP = (1.55924367855235737965e+04, -1.46639295903971606143e+07, 5.43526477051876500413e+09,
          -9.82136065717911466409e+11, 8.75906394395366999549e+13, -3.46628303384729719441e+15,
          4.42733268572569800351e+16, -1.84950800436986690637e+16)
_Y0_YQ = (1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
          8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
          2.50596256172653059228e+17)
_Y1_YP = (1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
          -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17)
_Y1_YQ = (5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
          1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
          6.87141087355300489866e+16, 3.97270608116560655612e+18)
_PI_4 = 0.785398163397448309615660845819875721
_3PI_4 = 2.356194490192344928846982537459627163
_SQRT_2_PI = 0.797884560802865355879892119868763737
_TWO_PI = 0.636619772367581343075535053490057448


def _asymptotic(x: Array, order: int, second: bool) -> Array:
    """The large-argument form (x > 5): P cos(x - phase) - Q sin(x - phase) for J, P sin +
    Q cos for Y, times sqrt(2/pi) / sqrt(x)."""
    t = x.dtype.type
    if order == 0:
        z = t(25) / (x * x)
        tables = (_J0_PP, _J0_PQ, _J0_QP, _J0_QQ)
    else:
        z = t(5) / x * (t(5) / x)
        tables = (_J1_PP, _J1_PQ, _J1_QP, _J1_QQ)
    pp, pq, qp, qq = (_horner(z, table) for table in tables)
    shifted = x - t(_PI_4 if order == 0 else _3PI_4)
    sin, cos = _libm("sin", shifted), _libm("cos", shifted)
    a = pp / pq
    b = t(5) / x * (qp / qq)
    if second:
        combined = _fma(a, sin, b * cos)
    else:
        combined = _fma(a, cos, -(b * sin))
    return combined * t(_SQRT_2_PI) / np.sqrt(x)


def _j0_small(x: Array) -> Array:
    t = x.dtype.type
    xx = x * x
    rp, rq = _horner(xx, _J0_RP), _horner(xx, _J0_RQ)
    # (x*x has other uses, the loops', so GCC does not fuse it into the subtractions)
    out = (xx - t(5.78318596294678452118e+00)) * (xx - t(3.04712623436620863991e+01)) * rp / rq
    tiny = x < t(0.00001)
    return np.where(tiny, t(1) - x * x / t(4), out)


def _j1_small(x: Array) -> Array:
    t = x.dtype.type
    xx = x * x
    rp, rq = _horner(xx, _J1_RP), _horner(xx, _J1_RQ)
    return rp / rq * x * (xx - t(1.46819706421238932572e+01)) * (
        xx - t(4.92184563216946036703e+01))


@_in_dtype
def bessel_j0(x: Array) -> Array:
    ax = np.abs(x)
    return _where([(ax <= 5, _j0_small), (ax > 5, lambda v: _asymptotic(v, 0, False)),
                   (np.isnan(ax), lambda v: v)], ax)


@_in_dtype
def bessel_j1(x: Array) -> Array:
    ax = np.where(x < 0, -x, x)  # (-0.0 kept: ATen negates only below zero)
    out = _where([(ax <= 5, _j1_small), (ax > 5, lambda v: _asymptotic(v, 1, False)),
                  (np.isnan(ax), lambda v: v)], ax)
    return np.where(x < 0, -out, out)


def _y0_small(x: Array) -> Array:
    t = x.dtype.type
    xx = x * x
    ratio = _horner(xx, _Y0_YP) / _horner(xx, _Y0_YQ)
    return _fma(t(_TWO_PI) * _libm("log", x), _j0_small(x), ratio)


def _y1_small(x: Array) -> Array:
    t = x.dtype.type
    xx = x * x
    ratio = _horner(xx, _Y1_YP) / _horner(xx, _Y1_YQ)
    inner = _fma(_j1_small(x), _libm("log", x), -(t(1) / x))
    return _fma(x, ratio, t(_TWO_PI) * inner)


def _bessel_y(x: Array, small: Callable[[Array], Array], order: int) -> Array:
    t = x.dtype.type
    return _where([((x > 0) & (x <= 5), small),
                   (x > 5, lambda v: _asymptotic(v, order, True)),
                   (x == 0, lambda v: np.full_like(v, -t(np.inf))),
                   ((x < 0) | np.isnan(x), lambda v: np.full_like(v, t(np.nan)))], x)


@_in_dtype
def bessel_y0(x: Array) -> Array:
    return _bessel_y(x, _y0_small, 0)


@_in_dtype
def bessel_y1(x: Array) -> Array:
    return _bessel_y(x, _y1_small, 1)


# The modified Bessel functions' Chebyshev tables (Cephes i0, i1, k0, k1)
# (the same Cephes tables as i0e/i1e's, special_math.py)
_I0_A, _I0_B, _I1_A, _I1_B = _I0E_A, _I0E_B, _I1E_A, _I1E_B
_K0_A = (1.37446543561352307156e-16, 4.25981614279661018399e-14, 1.03496952576338420167e-11,
         1.90451637722020886025e-09, 2.53479107902614945675e-07, 2.28621210311945178607e-05,
         1.26461541144692592338e-03, 3.59799365153615016266e-02, 3.44289899924628486886e-01,
         -5.35327393233902768720e-01)
_K0_B = (5.30043377268626276149e-18, -1.64758043015242134646e-17, 5.21039150503902756861e-17,
         -1.67823109680541210385e-16, 5.51205597852431940784e-16, -1.84859337734377901440e-15,
         6.34007647740507060557e-15, -2.22751332699166985548e-14, 8.03289077536357521100e-14,
         -2.98009692317273043925e-13, 1.14034058820847496303e-12, -4.51459788337394416547e-12,
         1.85594911495471785253e-11, -7.95748924447710747776e-11, 3.57739728140030116597e-10,
         -1.69753450938905987466e-09, 8.57403401741422608519e-09, -4.66048989768794782956e-08,
         2.76681363944501510342e-07, -1.83175552271911948767e-06, 1.39498137188764993662e-05,
         -1.28495495816278026384e-04, 1.56988388573005337491e-03, -3.14481013119645005427e-02,
         2.44030308206595545468e+00)
_K1_A = (-7.02386347938628759343e-18, -2.42744985051936593393e-15, -6.66690169419932900609e-13,
         -1.41148839263352776110e-10, -2.21338763073472585583e-08, -2.43340614156596823496e-06,
         -1.73028895751305206302e-04, -6.97572385963986435018e-03, -1.22611180822657148235e-01,
         -3.53155960776544875667e-01, 1.52530022733894777053e+00)
_K1_B = (-5.75674448366501715755e-18, 1.79405087314755922667e-17, -5.68946255844285935196e-17,
         1.83809354436663880070e-16, -6.05704724837331885336e-16, 2.03870316562433424052e-15,
         -7.01983709041831346144e-15, 2.47715442448130437068e-14, -8.97670518232499435011e-14,
         3.34841966607842919884e-13, -1.28917396095102890680e-12, 5.13963967348173025100e-12,
         -2.12996783842756842877e-11, 9.21831518760500529508e-11, -4.19035475934189648750e-10,
         2.01504975519703286596e-09, -1.03457624656780970260e-08, 5.74108412545004946722e-08,
         -3.50196060308781257119e-07, 2.40648494783721712015e-06, -1.93619797416608296024e-05,
         1.95215518471351631108e-04, -2.85781685962277938680e-03, 1.03923736576817238437e-01,
         2.72062619048444266945e+00)


def _i_value(x: Array, order: int) -> Array:
    """modified_bessel_i0/i1_forward (sign included)."""
    t = x.dtype.type
    ax = np.abs(x)

    def small(v: Array) -> Array:
        series = _chbevl(v / t(2) - t(2), _I0_A if order == 0 else _I1_A)
        if order == 0:
            return _libm("exp", v) * series
        return series * v * _libm("exp", v)

    def large(v: Array) -> Array:
        series = _chbevl(t(32) / v - t(2), _I0_B if order == 0 else _I1_B)
        return _libm("exp", v) * series / np.sqrt(v)

    out = _where([(ax <= 8, small), (~(ax <= 8), large)], ax)
    return np.where(x < 0, -out, out) if order == 1 else out


@_in_dtype
def modified_bessel_i0(x: Array) -> Array:
    return _i_value(x, 0)


@_in_dtype
def modified_bessel_i1(x: Array) -> Array:
    return _i_value(x, 1)


def _k_value(x: Array, order: int, scaled: bool) -> Array:
    """modified_bessel_k0/k1_forward and their scaled_ forms (times exp(x))."""
    t = x.dtype.type

    def small(v: Array) -> Array:
        series = _chbevl(_fma(v, v, -t(2)), _K0_A if order == 0 else _K1_A)
        bessel_i = _i_value(v, order)
        if scaled or order == 1:  # T(0.5) * x
            log = _libm("log", t(0.5) * v)
        else:  # k0's double literal 0.5: log in double, the rest in double too
            log = _libm("log", np.float64(0.5) * v.astype(np.float64))
        if order == 0:
            out = _fma(-log, bessel_i.astype(log.dtype), series.astype(log.dtype))
        else:
            out = _fma(log, bessel_i, series / v)
        if scaled:
            return out * _libm("exp", v)
        return np.asarray(out).astype(v.dtype)

    def large(v: Array) -> Array:
        series = _chbevl(t(8) / v - t(2), _K0_B if order == 0 else _K1_B)
        if scaled:
            return series / np.sqrt(v)
        return _libm("exp", -v) * series / np.sqrt(v)

    return _where([((x > 0) & (x <= 2), small), (x > 2, large),
                   (x == 0, lambda v: np.full_like(v, t(np.inf))),
                   ((x < 0) | np.isnan(x), lambda v: np.full_like(v, t(np.nan)))], x)


@_in_dtype
def modified_bessel_k0(x: Array) -> Array:
    return _k_value(x, 0, False)


@_in_dtype
def modified_bessel_k1(x: Array) -> Array:
    return _k_value(x, 1, False)


@_in_dtype
def scaled_modified_bessel_k0(x: Array) -> Array:
    return _k_value(x, 0, True)


@_in_dtype
def scaled_modified_bessel_k1(x: Array) -> Array:
    return _k_value(x, 1, True)


@_in_dtype
def spherical_bessel_j0(x: Array) -> Array:
    """sin(x) / x, its Taylor series below 0.5 (Horner in x*x, each step fused)."""
    t = x.dtype.type
    xx = x * x
    series = t(1) / t(6227020800.0)
    for c in (t(-1) / t(39916800.0), t(1) / t(362880.0), t(-1) / t(5040.0), t(1) / t(120.0),
              t(-1) / t(6.0)):
        series = _fma(xx, series, c)
    series = _fma(xx, series, t(1))
    with np.errstate(all="ignore"):
        out = np.where(np.abs(x) < t(0.5), series, _libm("sin", x) / x)
    return np.where(np.isinf(x), t(0), out)

