"""The special functions' values on NumPy arrays (lgamma, digamma, polygamma, zeta, erfinv, the
Bessel functions i0/i1, ndtri, erfcx, log_ndtr, the incomplete gamma), by ATen's algorithms.

Which code PyTorch 2.13 runs decides how each is computed here:

- digamma and trigamma (polygamma(1, x)), i0, i0e, i1, i1e: ATen's own code in the tensor's
  dtype (aten/src/ATen/native/Math.h: `calc_digamma(float)` works in float). float32 repeats it
  operation by operation in float32 (fused multiply-adds where GCC contracts them), with the
  correctly rounded log, sin and exp for glibc's logf, sinf and expf: bit for bit in the sweeps
  of tests/test_special.py. float64 repeats the double code with the platform libm.
- erfinv: MKL's VML (vsErfInv / vdErfInv), called where the `mkl` package is loaded
  (vecmath/mkl.py); elsewhere the float64 value rounded once, which agrees with MKL on 95+% of
  float32 inputs and is never more than an ulp away. lgamma: SLEEF's lgamma u10, which PyTorch
  maps over every element, bit for bit in float32 (vecmath/sleef_extra.py); float64 the
  float64 value of CPython's lgamma.
- ndtri: calc_ndtri in the dtype with GCC's fused multiply-adds and the C library's double
  log and sqrt (`::log`, `::sqrt`), bit for bit. zeta and polygamma(n >= 2): ATen's series in
  double, bit for bit in the sweeps.
- erfcx, log_ndtr, the incomplete gamma: float64 (a continued fraction for erfcx and the
  incomplete gamma), rounded to the dtype: within an ulp of PyTorch, not bit for bit.

Every function takes and returns arrays of one floating dtype (float16 computes in float32, as
ATen's opmath does).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.vecmath import mkl

F32 = np.float32
F64 = np.float64
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
              -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
              8.33333333333333333333e-2)


def _kernels():  # type: ignore[no-untyped-def]
    from gradsh.engine.vecmath import kernels

    return kernels


def _mapped(fn: Callable[..., float], *arrays: np.ndarray) -> np.ndarray:
    """A scalar Python function of doubles over arrays (the platform libm through `math`)."""
    args = np.broadcast_arrays(*(np.asarray(a, F64) for a in arrays))
    flat = [a.ravel().tolist() for a in args]
    out = np.fromiter(map(fn, *flat), F64, args[0].size)
    return out.reshape(args[0].shape)


def _c(fn: Callable[[float], float]) -> Callable[[float], float]:
    """A `math` function answering as C's does where Python raises: NaN outside the domain,
    infinity on overflow, -inf for log(0)."""

    def call(v: float) -> float:
        try:
            return fn(v)
        except ValueError:
            return -math.inf if v == 0 else math.nan
        except OverflowError:
            return math.inf

    return call


_c_log, _c_sin, _c_tan, _c_exp, _c_erf = (_c(f) for f in (math.log, math.sin, math.tan,
                                                         math.exp, math.erf))


def c_log1p(v: float) -> float:
    """C's log1p: -inf at -1 and NaN below it, where Python's math.log1p raises."""
    try:
        return math.log1p(v)
    except ValueError:
        return -math.inf if v == -1.0 else math.nan


def _compute_dtype(x: np.ndarray) -> np.dtype:
    return np.dtype(F32) if x.dtype in REDUCED_FLOAT_NP else x.dtype


def _in_dtype(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """Run fn on float32 or float64 values and give the result in x's own dtype."""

    def run(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        work = x.astype(_compute_dtype(x), copy=False)
        with np.errstate(all="ignore"):
            return np.asarray(fn(work)).astype(x.dtype, copy=False)

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _via_double(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """fn computed in float64 and rounded once to x's dtype."""

    def run(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        with np.errstate(all="ignore"):
            return np.asarray(fn(x.astype(F64))).astype(x.dtype, copy=False)

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


# ----------------------------------------------------------------------------- gamma family


def _lgamma_scalar(v: float) -> float:
    try:
        return math.lgamma(v)
    except ValueError:  # a pole (0 and the negative integers)
        return math.inf


@_via_double
def _lgamma_double(x: np.ndarray) -> np.ndarray:
    return _mapped(_lgamma_scalar, x)


def lgamma(x: np.ndarray) -> np.ndarray:
    """log |Gamma(x)|; inf at the poles. PyTorch maps SLEEF's lgamma u10 over every element
    (Sleef_lgammaf16_u10, Sleef_lgammad8_u10: checked against libtorch_cpu's exports): float32
    (and float16 / bfloat16, through float32) is SLEEF's bit for bit (vecmath/sleef_extra.py);
    float64 SLEEF's too where the compiled routines are (vecmath/sleef_double.py), else the
    correctly rounded value of CPython's lgamma (within an ulp of SLEEF's)."""
    x = np.asarray(x)
    if _compute_dtype(x) == F32:
        from gradsh.engine.vecmath.sleef_extra import lgammaf_u10

        return lgammaf_u10(x.astype(F32, copy=False)).astype(x.dtype, copy=False)
    if x.dtype == F64:
        from gradsh.engine.vecmath import sleef_double

        if sleef_double.available():
            with np.errstate(all="ignore"):
                return sleef_double.sleef("lgamma", x).reshape(x.shape)
    return _lgamma_double(x)


def _libm_lgamma(value: float, single: bool) -> float:
    """The C library's lgamma (lgammaf with `single`), which ATen's scalar code calls
    (CPython's math.lgamma is its own, other in the last bits); math.lgamma without it."""
    from gradsh.engine.vecmath import clib

    dtype = np.dtype(F32 if single else F64)
    routine = clib.function("lgamma", dtype)
    if routine is None:
        return float(F32(math.lgamma(value))) if single else math.lgamma(value)
    return float(routine(np.array([value], dtype))[0])


def _log(x: np.ndarray) -> np.ndarray:
    """log in x's dtype as ATen's scalar code calls it (std::log): the C library's logf / log
    (vecmath/clib.py); without one the correctly rounded float32 log (glibc's logf rounds the
    same but for rare halfway cases), CPython's for float64."""
    from gradsh.engine.vecmath import clib

    routine = clib.function("log", x.dtype)
    if routine is not None:
        return routine(x)
    if x.dtype == F32:
        return _kernels().log(x)
    return _mapped(_c_log, x)


def _fma(a: np.ndarray, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """a * b + c rounded once, in a's dtype: GCC contracts these multiply-adds in ATen's
    kernels (built with -mfma for the AVX2 and AVX-512 CPUs)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    if a.dtype == F32:
        from gradsh.engine.vecmath.fp import fma32

        return fma32(*(np.broadcast_to(np.asarray(v, F32), shape) for v in (a, b, c)))
    from gradsh.engine.random import _fma64

    return _fma64(*(np.broadcast_to(np.asarray(v, F64), shape) for v in (a, b, c)))


@_in_dtype
def digamma(x: np.ndarray) -> np.ndarray:
    """calc_digamma: reflection below 0, recurrence up to 10, then the asymptotic series."""
    t = x.dtype.type
    out = np.empty_like(x)
    zero = x == 0
    out[zero] = np.copysign(np.inf, -x[zero])
    integer = x == np.trunc(x)
    out[(x < 0) & integer] = np.nan
    reflect = (x < 0) & ~integer
    if reflect.any():
        r = x[reflect].astype(F64) - np.trunc(x[reflect].astype(F64))  # modf's fraction
        shift = math.pi / _mapped(_c_tan, math.pi * r)
        out[reflect] = digamma(t(1) - x[reflect]) - shift.astype(x.dtype)
    rest = ~zero & ~((x < 0) & integer) & ~reflect
    out[rest] = _digamma_positive(x[rest])
    return out


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    t = x.dtype.type
    result = np.zeros_like(x)
    x = x.copy()
    low = x < 10
    while low.any():  # at most ten steps for x >= 0
        result[low] -= t(1) / x[low]
        x[low] += t(1)
        low = x < 10
    z = t(1) / (x * x)
    poly = np.zeros_like(x)
    for coefficient in _DIGAMMA_A:
        poly = _fma(poly, z, t(coefficient))
    y = np.where(x < t(1e17), z * poly, t(0))
    value = ((result + _log(x)) - t(0.5) / x) - y
    return np.where(x == 10, result + t(_PSI_10), value)


@_in_dtype
def trigamma(x: np.ndarray) -> np.ndarray:
    """calc_trigamma: reflection below 1/2, six recurrence steps, then the asymptotic series."""
    t = x.dtype.type
    sign = np.ones_like(x)
    result = np.zeros_like(x)
    low = x < t(0.5)
    if low.any():
        sign[low] = -1
        from gradsh.engine.vecmath import clib

        sine = clib.function("sin", x.dtype)  # ATen's std::sin: the C library's sinf / sin
        if sine is not None:
            s = sine(t(math.pi) * x[low])
        elif x.dtype == F32:
            s = _kernels().sin(F32(math.pi) * x[low])
        else:
            s = _mapped(_c_sin, math.pi * x[low])
        result[low] -= t(math.pi) * t(math.pi) / (s * s)
        x = np.where(low, t(1) - x, x)
    for _ in range(6):
        result += t(1) / (x * x)
        x = x + t(1)
    ixx = t(1) / (x * x)
    # the series' multiply-adds are fused as GCC contracts them in ATen's kernel
    inner = _fma(-ixx, _fma(-ixx, t(1) / t(42), t(1) / t(30)), t(1) / t(6))
    result += _fma(ixx, inner, t(1) + t(1) / (t(2) * x)) / x
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042e-16


def _pow(a: float, b: float) -> float:
    """C's pow for the finite a, b zeta meets (Python raises where C overflows)."""
    try:
        return a ** b
    except (OverflowError, ZeroDivisionError):
        return math.inf


def _zeta_scalar(x: float, q: float, first: float | None = None) -> float:
    """Cephes' Hurwitz zeta(x, q), as ATen computes it in double; `first`, when given, is the
    first term q ** -x as computed by the caller."""
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(x) or math.isnan(q):
        return math.nan
    if q <= 0:
        if math.isinf(q) or q == math.floor(q):
            return math.inf
        if not math.isinf(x) and x != math.floor(x):
            return math.nan
    s = _pow(q, -x) if first is None else first
    a, b, i = q, 0.0, 0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = _pow(a, -x)
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        term = a * b / coefficient
        s = s + term
        if s != 0 and abs(term / s) < _MACHEP:  # C's t / 0 is inf: not below MACHEP
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """torch.special.zeta(x, q) in the broadcast dtype of the (float) arrays; float32 takes its
    first term from the float overload of pow, as ATen's zeta<float> does."""
    dtype = np.result_type(x, q)
    with np.errstate(all="ignore"):
        if dtype == F32:
            from gradsh.engine.vecmath import libm

            x32, q32 = np.broadcast_arrays(np.asarray(x, F32), np.asarray(q, F32))
            firsts = libm.powf(q32, -x32).reshape(x32.shape)
            return _mapped(_zeta_scalar, x32, q32, firsts).astype(dtype)
        return _mapped(_zeta_scalar, x, q).astype(dtype)


def polygamma(n: int, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma (n = 0 is digamma itself)."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    x = np.asarray(x)
    work = x.astype(_compute_dtype(x), copy=False)
    sign = 1.0 if n % 2 else -1.0
    with np.errstate(all="ignore"):
        if work.dtype == F32:
            # calc_polygamma<float>: the factor n! as expf(lgammaf(n + 1)) in float, zeta's
            # first term pow(q, -x) in float too (the overload of two floats)
            from gradsh.engine.vecmath import libm

            log_factorial = np.array([_libm_lgamma(n + 1.0, single=True)], F32)
            factor = F32(sign) * libm.expf(log_factorial)[0]
            firsts = libm.powf(work, np.full(work.shape, -(n + 1.0), F32))
            values = _mapped(lambda q, f: _zeta_scalar(n + 1.0, q, f), work, firsts)
            return (factor * values.astype(F32)).astype(x.dtype)
        factor = sign * math.exp(_libm_lgamma(n + 1.0, single=False))  # glibc's exp, lgamma
        return (factor * _mapped(lambda q: _zeta_scalar(n + 1.0, q), work)).astype(x.dtype)


# ----------------------------------------------------------------------------- error function


def _erfinv_double(y: np.ndarray) -> np.ndarray:
    """calc_erfinv in double: a rational first guess refined by two Newton steps."""
    a = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
    b = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
    c = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
    d = (3.543889200, 1.637067800)
    y_abs = np.abs(y)
    central = y_abs <= 0.7
    z = y * y
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
    x_central = y * num / dem
    zt = np.sqrt(-np.log((1.0 - np.minimum(y_abs, 1.0)) / 2.0))
    num = ((c[3] * zt + c[2]) * zt + c[1]) * zt + c[0]
    dem = (d[1] * zt + d[0]) * zt + 1.0
    x = np.where(central, x_central, np.copysign(num, y) / dem)
    for _ in range(2):
        x = x - (_mapped(_c_erf, x) - y) / ((2.0 / math.sqrt(math.pi)) * np.exp(-x * x))
    x = np.where(y_abs > 1, np.nan, x)
    return np.where(y_abs == 1, np.copysign(np.inf, y), x)


_erfinv_emulated = _via_double(_erfinv_double)


def erfinv(x: np.ndarray) -> np.ndarray:
    """The inverse of erf on [-1, 1] (NaN outside, +-inf at +-1): MKL's vsErfInv/vdErfInv
    where it is loaded (vecmath/mkl.py), else calc_erfinv in double, rounded once."""
    x = np.asarray(x)
    routine = mkl.function("erfinv", x.dtype) if x.dtype.char in "fd" else None
    return routine(x) if routine is not None else _erfinv_emulated(x)


def _erfcx_scalar(v: float) -> float:
    """exp(v * v) * erfc(v): directly below 25 (exp(v * v) costs at most ~1e-13 there), from
    the continued fraction of erfc above (no overflow of exp(v * v), no underflow of erfc)."""
    if math.isnan(v):
        return v
    if v < 25.0:
        try:
            return math.exp(v * v) * math.erfc(v)
        except OverflowError:
            return math.inf
    if math.isinf(v):
        return 0.0
    # Lentz's method for v + (1/2) / (v + 1 / (v + (3/2) / (v + ...)))
    tiny = 1e-300
    f, c, d = v, v, 0.0
    for k in range(1, 100):
        a = k / 2.0
        d = 1.0 / ((v + a * d) or tiny)
        c = v + a / (c or tiny)
        delta = c * d
        f *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return 1.0 / (math.sqrt(math.pi) * f)


@_via_double
def erfcx(x: np.ndarray) -> np.ndarray:
    """The scaled complementary error function exp(x**2) * erfc(x)."""
    return _mapped(_erfcx_scalar, x)


@_via_double
def log_ndtr(x: np.ndarray) -> np.ndarray:
    """log of the standard normal CDF (calc_log_ndtr: through erfcx below -1)."""
    t = x * (1.0 / math.sqrt(2.0))
    low = np.log(_mapped(_erfcx_scalar, -t) / 2) - t * t
    high = np.log1p(-_mapped(math.erfc, t) / 2)
    return np.where(x < -1.0, low, high)


_NDTRI_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0)
_NDTRI_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2,
             -8.57456785154685413611e-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_NDTRI_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9)


def _polevl(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """Cephes' polevl in x's dtype, each step one fused multiply-add."""
    t = x.dtype.type
    result = np.zeros_like(x)
    for coefficient in coefficients:
        result = _fma(result, x, t(coefficient))
    return result


@_in_dtype
def ndtri(p: np.ndarray) -> np.ndarray:
    """The inverse of the standard normal CDF (Cephes' ndtri, as calc_ndtri in p's dtype)."""
    t = p.dtype.type
    exp_m2 = t(0.13533528323661269189)
    upper = p > t(1) - exp_m2
    y = np.where(upper, t(1) - p, p)
    mid = y > exp_m2
    ym = y - t(0.5)
    y2 = ym * ym
    central = _fma(ym, y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0), ym)  # (fused)
    central = central * t(2.50662827463100050242)
    # ::sqrt and ::log are the C library's double functions, whatever T: float32 rounds after
    wide = np.where(mid, t(0.5), y).astype(F64)
    x = np.sqrt(-2.0 * _log(wide)).astype(p.dtype)
    wide = x.astype(F64)
    x0 = (wide - _log(wide) / wide).astype(p.dtype)
    z = t(1) / x
    x1 = np.where(x < t(8), z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                  z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
    tail = np.where(upper, x0 - x1, -(x0 - x1))
    out = np.where(mid, central, tail)
    out = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, out))
    return np.where((p < 0) | (p > 1), np.nan, out)


# ----------------------------------------------------------------------------- Bessel i0, i1

_I0E_A = (-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
          1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
          -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
          9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
          -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
          1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
          -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
          1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
          -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
          1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1)
_I0E_B = (-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
          3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
          1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
          -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
          7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
          -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
          3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
          2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
          8.04490411014108831608e-1)
_I1E_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
          -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
          3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
          -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
          9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
          -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
          4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
          -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
          2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
          -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1E_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
          -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
          -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
          4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
          -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
          3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
          -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
          -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
          7.78576235018280120474e-1)


def _tables(x: np.ndarray, a: tuple[float, ...], b: tuple[float, ...],
            float_a: int, float_b: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """ATen's float versions of the i1e tables keep only their last terms."""
    if x.dtype == F32:
        return a[len(a) - float_a:], b[len(b) - float_b:]
    return a, b


def _chbevl(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """Cephes' Chebyshev series, in x's dtype."""
    t = x.dtype.type
    b0 = np.full_like(x, t(coefficients[0]))
    b1 = np.zeros_like(x)
    b2 = b1
    for coefficient in coefficients[1:]:
        b2 = b1
        b1 = b0
        b0 = _fma(x, b1, -b2) + t(coefficient)  # x * b1 - b2 contracts to one fused op
    return t(0.5) * (b0 - b2)


def _exp(x: np.ndarray) -> np.ndarray:
    if x.dtype == F32:
        from gradsh.engine.vecmath import libm

        return libm.expf(x)
    return _mapped(_c_exp, x)


def _bessel(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    t = x.dtype.type
    ax = np.abs(x)
    if order == 0:
        a, b = _I0E_A, _I0E_B
    else:
        a, b = _tables(x, _I1E_A, _I1E_B, 17, 7)
    small = ax <= t(8)
    inner = _chbevl(ax / t(2) - t(2), a)
    outer = _chbevl(t(32) / np.where(small, t(8), ax) - t(2), b)
    root = np.sqrt(ax)
    if order == 0:
        low = inner if scaled else _exp(ax) * inner
        high = outer / root if scaled else _exp(ax) * outer / root
    else:
        low = inner * ax if scaled else _exp(ax) * ax * inner
        high = outer / root if scaled else (_exp(ax) * outer) / root
    out = np.where(small, low, high)
    return np.where(x < 0, -out, out) if order == 1 else out


i0 = _in_dtype(lambda x: _bessel(x, 0, False))
i0e = _in_dtype(lambda x: _bessel(x, 0, True))
i1 = _in_dtype(lambda x: _bessel(x, 1, False))
i1e = _in_dtype(lambda x: _bessel(x, 1, True))


# ----------------------------------------------------------------------------- incomplete gamma


def _igamma_series(a: float, x: float) -> float:
    """P(a, x) by its power series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(2000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _MACHEP:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _igammac_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (x >= a + 1), Lentz's method."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 2000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _MACHEP:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _igamma_scalar(a: float, x: float, upper: bool) -> float:
    if math.isnan(a) or math.isnan(x) or x < 0 or a < 0:
        return math.nan
    if a == 0:
        return math.nan if x <= 0 else (0.0 if upper else 1.0)
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else (1.0 if upper else 0.0)
    if math.isinf(x):
        return 0.0 if upper else 1.0
    if x < a + 1.0:
        p = _igamma_series(a, x)
        return 1.0 - p if upper else p
    q = _igammac_fraction(a, x)
    return q if upper else 1.0 - q


def igamma(a: np.ndarray, x: np.ndarray, upper: bool = False) -> np.ndarray:
    """The regularized lower (or, with upper, upper) incomplete gamma function."""
    dtype = np.result_type(a, x)
    with np.errstate(all="ignore"):
        return _mapped(lambda p, q: _igamma_scalar(p, q, upper), a, x).astype(dtype)
