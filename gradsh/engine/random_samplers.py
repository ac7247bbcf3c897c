"""PyTorch's serial CPU samplers for the gamma, Poisson, binomial and Dirichlet distributions,
and the reparameterised gradients of the gamma and Dirichlet samples.

ATen draws these element by element (cpu_serial_kernel, in C order) from the default
generator's uniform and normal doubles (aten/src/ATen/native/Distributions.cpp and .h): Marsaglia
and Tsang's rejection sampler for the gamma, Hoermann's transformed rejection (or the product of
uniforms below a rate of 10) for the Poisson, BTRS (or geometric inversion) for the binomial.
Each function here repeats that arithmetic in the same types: `scalar_t` (the tensor's dtype)
where ATen computes in it, double elsewhere; so a seeded program draws PyTorch's numbers and
leaves the generator where PyTorch leaves it. Distributions.cpp is built without FMA
contraction (it is not one of the per-CPU kernels), so plain Python doubles are its arithmetic.

NOTE: std::lgamma (in the Poisson rejection test) is glibc's in PyTorch and CPython's own here;
they differ in the last bits, which could flip an acceptance only for a draw landing within
~1e-15 of the bound.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

F32 = np.float32
_FLOAT_TINY = float(np.finfo(F32).tiny)
_DOUBLE_TINY = float(np.finfo(np.float64).tiny)
_THIRD_F = float(F32(1.0) / F32(3.0))  # 1.0f / 3.0f, a float constant in either sampler
_C0331 = float(F32(0.0331))
_MANTISSA53 = 2**53 - 1


class _Draws:
    """The generator's streams as sample_gamma's BaseSamplers read them, one value at a time:
    uniform_real_distribution<double> (a 64-bit draw's low 53 bits) and
    normal_distribution<double> (Box-Muller on two uniforms, the second value cached on the
    generator). The raw words are fetched in bulk; `close()` leaves the generator exactly where
    the draws actually used end, with the cache as the last normal left it."""

    _CHUNK = 4096

    def __init__(self, generator: Any) -> None:
        self.generator = generator
        self.start = generator.raw_state()
        self.cached = self.start.next_double_normal
        self.words: list[int] = []
        self.index = 0
        self.used = 0

    def _word(self) -> int:
        if self.index == len(self.words):
            self.words = self.generator.take_words(self._CHUNK).tolist()
            self.index = 0
        word = self.words[self.index]
        self.index += 1
        self.used += 1
        return word

    def uniform(self) -> float:
        high = self._word()
        return (((high << 32) | self._word()) & _MANTISSA53) * 2.0**-53

    def normal(self) -> float:
        if self.cached is not None:
            value, self.cached = self.cached, None
        else:
            u1 = self.uniform()
            u2 = self.uniform()
            radius = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            self.cached = radius * math.sin(theta)
            value = radius * math.cos(theta)
        return value + 0.0  # fma(value, 1, 0): the transformation to N(0, 1) (-0 becomes +0)

    def close(self) -> None:
        self.generator.set_raw_state(dataclasses.replace(self.start,
                                                     next_double_normal=self.cached))
        if self.used:
            self.generator.take_words(self.used)


@contextlib.contextmanager
def _draws(generator: Any) -> Iterator[_Draws]:
    """Draws for one sampler call; the generator is brought up to date however it ends (an
    error after some draws leaves them consumed, as in PyTorch)."""
    draws = _Draws(generator)
    try:
        yield draws
    finally:
        draws.close()


def _sample_gamma(alpha: float, draws: _Draws, single: bool) -> float:
    """sample_gamma<scalar_t, double>: alpha is a scalar_t (float when `single`)."""
    if math.isnan(alpha) or alpha < 0:
        return math.nan  # ATen's loop never ends here; gradsh answers NaN instead of hanging
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        exponent = float(F32(1.0) / F32(alpha)) if single else 1.0 / alpha
        scale *= (1 - draws.uniform()) ** exponent
        alpha = float(F32(alpha) + F32(1.0)) if single else alpha + 1.0
    d = float(F32(alpha) - F32(_THIRD_F)) if single else alpha - _THIRD_F
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - draws.uniform()
        xx = x * x
        if u < 1.0 - _C0331 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma(alpha: np.ndarray, generator: Any) -> np.ndarray:
    """torch._standard_gamma: one Gamma(alpha, 1) draw per element, never below the dtype's
    smallest normal number."""
    single = alpha.dtype != np.float64
    tiny = _FLOAT_TINY if single else _DOUBLE_TINY
    out = np.empty(alpha.size, alpha.dtype)
    with _draws(generator) as draws:
        for i, a in enumerate(alpha.ravel().tolist()):
            value = _sample_gamma(a, draws, single)
            value = float(F32(value)) if single else value
            out[i] = value if value != value else max(tiny, value)
    return out.reshape(alpha.shape)


def dirichlet_gammas(alpha: np.ndarray, generator: Any) -> np.ndarray:
    """The first half of _s_dirichlet_cpu: double gamma draws (alpha cast to double), each at
    least DBL_MIN. The caller normalises them along the last dimension."""
    with _draws(generator) as draws:
        values = [max(_DOUBLE_TINY, _sample_gamma(a, draws, False))
                  for a in alpha.astype(np.float64).ravel().tolist()]
    return np.array(values, np.float64).reshape(alpha.shape)


def dirichlet_normalise(gammas: np.ndarray, totals: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """gamma / sum cast to the dtype and clamped into [smallest normal, the float below 1]."""
    with np.errstate(all="ignore"):
        ratio = (gammas / totals).astype(dtype)
    below_one = np.nextafter(dtype.type(1), dtype.type(0))
    return np.minimum(below_one, np.maximum(np.finfo(dtype).tiny, ratio))


# ----------------------------------------------------------------------------- Poisson


def _sample_poisson(lam: float, draws: _Draws) -> int:
    """sample_poisson (Distributions.cpp) for a double rate."""
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = draws.uniform() - 0.5
            v = draws.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            left = (math.log(v) + math.log(invalpha)) - math.log(a / (us * us) + b)
            if left <= -lam + k * loglam - math.lgamma(k + 1.0):
                return k
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    count, product = 0, 1.0
    while True:
        product *= draws.uniform()
        if product > enlam:
            count += 1
        else:
            return count


def poisson(rates: np.ndarray, generator: Any) -> np.ndarray:
    """torch.poisson: one draw per element (ValueError for a negative or NaN rate, before any
    draw, as PyTorch checks each rate when it reaches it: the draws before stay consumed)."""
    out = np.empty(rates.size, rates.dtype)
    with _draws(generator) as draws:
        for i, lam in enumerate(rates.astype(np.float64).ravel().tolist()):
            if not lam >= 0:
                raise ValueError("invalid Poisson rate, expected rate to be non-negative")
            out[i] = _sample_poisson(lam, draws)
    return out.reshape(rates.shape)


# ----------------------------------------------------------------------------- binomial

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count: float, prob: float, draws: _Draws, t: Callable[[float], float],
                        log1p: Callable[[float], float]) -> float:
    geom_sum = 0.0
    num_geom = t(0.0)
    logprob = log1p(-prob)
    while True:
        geom = math.ceil(math.log(draws.uniform()) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom = t(num_geom + 1)


def _btrs(count: float, prob: float, draws: _Draws, t: Callable[[float], float],
          sqrt: Callable[[float], float]) -> float:
    """Hoermann's BTRS; `t` rounds to scalar_t, where ATen computes in it."""
    stddev = sqrt(t(t(count * prob) * t(1 - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = t(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = t(prob / t(1 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(t(t(count + 1) * prob))
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = t(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + t(count + 1) * math.log((count - m + 1) / t(t(count - k) + 1))
                 + (k + 0.5) * math.log(r * t(t(count - k) + 1) / t(k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(t(count - k)))
        if v <= upper:
            return k


def _sample_binomial(count: float, prob: float, draws: _Draws, single: bool) -> float:
    if single:
        from gradsh.engine.vecmath import fdlibm

        def t(v: float) -> float:
            return float(F32(v))

        def log1p(v: float) -> float:
            return float(fdlibm.log1pf(np.array([v], F32))[0])

        def sqrt(v: float) -> float:
            return float(np.sqrt(F32(v)))
    else:
        t, log1p, sqrt = float, math.log1p, math.sqrt
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if t(count * prob) >= 10.0:
            return _btrs(count, prob, draws, t, sqrt)
        return _binomial_inversion(count, prob, draws, t, log1p)
    if prob > 0.5:
        q = t(1.0 - prob)
        if t(count * q) >= 10.0:
            return t(count - _btrs(count, q, draws, t, sqrt))
        return t(count - _binomial_inversion(count, q, draws, t, log1p))
    return math.nan


def binomial(count: np.ndarray, prob: np.ndarray, generator: Any) -> np.ndarray:
    """torch.binomial(count, prob): one draw per element of the (same-shaped) arguments."""
    single = count.dtype != np.float64
    with _draws(generator) as draws:
        values = [_sample_binomial(n, p, draws, single)
                  for n, p in zip(count.ravel().tolist(), prob.ravel().tolist())]
    return np.array(values, np.float64).astype(count.dtype).reshape(count.shape)


# ----------------------------------------------------------------------------- gradients


def _digamma_one(x: float) -> float:
    """digamma_one<double, double> of Distributions.h (its own variant of Cephes' digamma)."""
    if x == 0:
        return math.inf
    additional = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        additional = -math.pi / math.tan(math.pi * x)
        x = 1 - x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764 + additional
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = 0.0
        for coefficient in (8.33333333333333333333e-2, -2.10927960927960927961e-2,
                            7.57575757575757575758e-3, -4.16666666666666666667e-3,
                            3.96825396825396825397e-3, -8.33333333333333333333e-3,
                            8.33333333333333333333e-2):
            poly = poly * z + coefficient
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y + additional


_GAMMA_COEF_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089,
     0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113,
     -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
     0.00085092367, -1.5247877e-07),
)


def _gamma_grad_one(alpha: float, x: float) -> float:
    """standard_gamma_grad_one<scalar_t, double>: -(d/dalpha cdf(x; alpha)) / pdf(x; alpha)."""
    if x < 0.8:
        numer, denom = 1.0, alpha
        series1 = numer / denom
        series2 = numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        try:
            pow_x_alpha = x ** alpha
            gamma_pdf = x ** (alpha - 1) * math.exp(-x)
            gamma_cdf = pow_x_alpha * series1
            gamma_cdf_alpha = (math.log(x) - _digamma_one(alpha)) * gamma_cdf - \
                pow_x_alpha * series2
            result = -gamma_cdf_alpha / gamma_pdf
        except (ValueError, ZeroDivisionError, OverflowError):
            return 0.0  # where C gets NaN, ATen returns 0
        return 0.0 if result != result else result
    if alpha > 8.0:
        if 0.9 * alpha <= x <= 1.1 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + \
                alpha * (107 + 3600 * x)
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = (x - alpha - alpha * math.log(x / alpha)) ** -1.5
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - \
            math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return -stirling * numer / denom
    u = math.log(x / alpha)
    v = math.log(alpha)
    coef_v = [_GAMMA_COEF_UV[0][i] + u * (_GAMMA_COEF_UV[1][i] + u * _GAMMA_COEF_UV[2][i])
              for i in range(8)]
    p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]))
    q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]))
    return math.exp(p / q)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch._standard_gamma_grad(alpha, x) for same-shaped arrays, in their dtype."""
    values = [_gamma_grad_one(a, v) for a, v in zip(alpha.ravel().tolist(), x.ravel().tolist())]
    with np.errstate(all="ignore"):
        return np.array(values, np.float64).astype(alpha.dtype).reshape(alpha.shape)


def _beta_grad_alpha_small(x: float, alpha: float, beta: float) -> float:
    factor = _digamma_one(alpha) - _digamma_one(alpha + beta) - math.log(x)
    numer = 1.0
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * (1 - x) ** -beta * series
    return 0.0 if result != result else result


def _beta_grad_beta_small(x: float, alpha: float, beta: float) -> float:
    factor = _digamma_one(alpha + beta) - _digamma_one(beta)
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, factor / alpha
    for i in range(1, 9):
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -(1 - x) ** (1 - beta) * series
    return 0.0 if result != result else result


def _beta_grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * \
        (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) / \
        (1 + 1 / (12 * total) + 1 / (288 * total * total))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * total ** 1.5 * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))
    term4 = term4_base ** -1.5
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


def _dirichlet_grad_one(x: float, alpha: float, total: float) -> float:
    """dirichlet_grad_one: the scaled reparameterised gradient of a Beta(alpha, total - alpha)
    draw x (in double throughout; ATen does parts of it in float for float32)."""
    beta = total - alpha
    boundary = total * x * (1 - x)
    try:
        if x <= 0.5 and boundary < 2.5:
            return _beta_grad_alpha_small(x, alpha, beta)
        if x >= 0.5 and boundary < 0.75:
            return -_beta_grad_beta_small(1 - x, beta, alpha)
        if alpha > 6 and beta > 6:
            return _beta_grad_alpha_mid(x, alpha, beta)
        u = math.log(x)
        a = math.log(alpha) - u
        b = math.log(total) - a
        pow_u = (1.0, u, u * u)
        pow_a = (1.0, a, a * a)
        p = q = 0.0
        for i in range(3):
            for j in range(3):
                ua = pow_u[i] * pow_a[j]
                cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
                p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
                q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
        approx = x * (_digamma_one(total) - _digamma_one(alpha)) / beta
        return p / q * approx
    except (ValueError, ZeroDivisionError, OverflowError):
        return math.nan


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """torch._dirichlet_grad(x, alpha, total) for same-shaped arrays, in x's dtype."""
    values = [_dirichlet_grad_one(*v) for v in zip(x.ravel().tolist(), alpha.ravel().tolist(),
                                                   total.ravel().tolist())]
    with np.errstate(all="ignore"):
        return np.array(values, np.float64).astype(x.dtype).reshape(x.shape)
