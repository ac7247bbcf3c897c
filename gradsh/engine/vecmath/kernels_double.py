"""PyTorch 2.13's float64 CPU kernels for softmax and the element-wise activations, bit for bit.

The float64 twins of vecmath/kernels.py: ATen's same loops over `Vectorized<double>` (8 lanes,
vector blocks of 16 elements), SLEEF's double routines in the vector code and the C library's in
the scalar tails (vecmath/sleef_double.py). Every function needs sleef_double.available(); the
callers (functions/pointwise.py) keep their NumPy formulas without it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gradsh.engine.vecmath import kernels, mkl, native
from gradsh.engine.vecmath.layout import dense_order, dense_segments, loop_mask, mask_for
from gradsh.engine.vecmath.sleef_double import fma, libm, libm2, sleef, sleef2

from gradsh.engine.vecmath.vecreduce import add64, maximum, reduce_last

F64 = np.float64
LANES = 8  # Vectorized<double>::size() on AVX-512
BLOCK = 2 * LANES  # cpu_kernel_vec's vector step
Unary = Callable[[np.ndarray], np.ndarray]
Binary = Callable[[np.ndarray, np.ndarray], np.ndarray]
ONE = F64(1.0)


# ---- softmax over the last dimension (contiguous rows) ----------------------------------------

def _rows(x: np.ndarray) -> np.ndarray:
    x = np.ascontiguousarray(x, F64)
    return x.reshape(-1, x.shape[-1] if x.ndim else 1)


def _softmax_rows(rows: np.ndarray) -> np.ndarray:
    """_vec_softmax_lastdim: exp(x - max) (SLEEF on every element: vec::map loads the tail as
    a partial vector), its 8-lane sum, times 1 / sum."""
    mx = reduce_last(rows, maximum, LANES)[:, None]
    e = sleef("exp", rows - mx)
    total = reduce_last(e, add64, LANES)[:, None]
    return e * (ONE / total)


def _log_softmax_rows(rows: np.ndarray) -> np.ndarray:
    """_vec_log_softmax_lastdim: (x - max) - log(sum(exp(x - max))), log by SLEEF."""
    mx = reduce_last(rows, maximum, LANES)[:, None]
    total = reduce_last(sleef("exp", rows - mx), add64, LANES)
    return (rows - mx) - sleef("log", total)[:, None]


def softmax(x: np.ndarray, dim: int = -1, threads: int = 1) -> np.ndarray:
    """softmax along `dim` (float64): _vec_softmax_lastdim for the last dimension, _vec_softmax
    (vectorised columns by SLEEF, the rest by the C library) for another."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        if x.ndim == 0 or dim % x.ndim == x.ndim - 1:
            return _softmax_rows(_rows(x)).reshape(x.shape)
        return kernels._softmax_inner(x, dim % x.ndim, threads, lanes=LANES, out_dtype=F64,
                                      columns=_softmax_columns)


def _softmax_columns(cols: np.ndarray, vector: bool) -> np.ndarray:
    """One side of _vec_softmax on float64 columns (dim, n): sequential max, exp, sum from 0,
    divide."""
    mx = cols[0].copy()
    for row in cols[1:]:
        mx = maximum(mx, row) if vector else np.where(mx < row, row, mx)
    e = (sleef if vector else libm)("exp", cols - mx)
    total = np.zeros_like(mx)
    for row in e:
        total = total + row
    return e / total


def log_softmax(x: np.ndarray, dim: int = -1) -> np.ndarray:
    """log_softmax along `dim` (float64): _vec_log_softmax_lastdim for the last dimension,
    _vec_logsoftmax for another."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        if x.ndim == 0 or dim % x.ndim == x.ndim - 1:
            return _log_softmax_rows(_rows(x)).reshape(x.shape)
        return _log_softmax_inner(x, dim % x.ndim)


def _log_softmax_inner(x: np.ndarray, dim: int) -> np.ndarray:
    """_vec_logsoftmax: the inner dimension in chunks, the first multiple of 8 of each chunk
    vectorised (SLEEF's exp), the rest the C library's exp; log(sum) by SLEEF."""
    shape = x.shape
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    dim_size = shape[dim]
    cube = np.ascontiguousarray(x).reshape(outer, dim_size, inner)
    vector = _vector_columns(dim_size, inner)
    mx = np.full((outer, inner), -np.inf, F64)
    for d in range(dim_size):
        row = cube[:, d, :]
        mx = np.where(row > mx, row, mx)
    total = np.zeros((outer, inner), F64)
    for d in range(dim_size):
        total = total + _exp_columns(cube[:, d, :] - mx, vector)
    logs = sleef("log", total)
    return ((cube - mx[:, None, :]) - logs[:, None, :]).reshape(shape)


def _vector_columns(size: int, inner: int) -> np.ndarray:
    """Which of `inner` columns the chunked column kernels vectorise: chunks of
    min(128K / size / 8, inner) rounded down to 8 columns, the first multiple of 8 of each."""
    chunk = min(max(128 * 1024 // size // 8, LANES) // LANES * LANES, inner)
    col = np.arange(inner)
    width = np.minimum(chunk, inner - col // chunk * chunk)
    return (col % chunk) < width - width % LANES


def _exp_columns(v: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """exp of (rows, columns) values: SLEEF's in the vector columns, the C library's in the
    others."""
    out = np.empty_like(v)
    out[..., vector] = sleef("exp", v[..., vector])
    out[..., ~vector] = libm("exp", v[..., ~vector])
    return out


# ---- softmax backward -------------------------------------------------------------------------

def _pair_rows(grad: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return _rows(np.broadcast_to(np.asarray(grad, F64), np.shape(y))), _rows(y)


def softmax_backward(grad: np.ndarray, y: np.ndarray, dim: int, threads: int = 1) -> np.ndarray:
    """_softmax_backward_data (float64): y * (grad - sum(grad * y))."""
    y = np.asarray(y, F64)
    d = dim % max(y.ndim, 1)
    with np.errstate(all="ignore"):
        if y.ndim == 0 or d == y.ndim - 1:
            g, yy = _pair_rows(grad, y)
            # map2_reduce_all(x * y, x + y): unfused in float64 at any thread count (measured)
            total = reduce_last(g * yy, add64, LANES)[:, None]
            return (yy * (g - total)).reshape(y.shape)
        g3, y3 = _cubes(grad, y, d)
        total = np.zeros((g3.shape[0], g3.shape[2]), F64)
        for i in range(g3.shape[1]):
            total = fma(g3[:, i], y3[:, i], total)
        return (y3 * (g3 - total[:, None, :])).reshape(y.shape)


def _cubes(grad: np.ndarray, y: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    y = np.ascontiguousarray(y, F64)
    g = np.ascontiguousarray(np.broadcast_to(np.asarray(grad, F64), y.shape))
    outer = int(np.prod(y.shape[:dim], dtype=np.int64))
    return g.reshape(outer, y.shape[dim], -1), y.reshape(outer, y.shape[dim], -1)


def log_softmax_backward(grad: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """_log_softmax_backward_data (float64): grad - exp(y) * sum(grad), one fused step."""
    y = np.asarray(y, F64)
    d = dim % max(y.ndim, 1)
    with np.errstate(all="ignore"):
        if y.ndim == 0 or d == y.ndim - 1:
            g, yy = _pair_rows(grad, y)
            total = reduce_last(g, add64, LANES)[:, None]
            return fma(-sleef("exp", yy), total, g).reshape(y.shape)
        g3, y3 = _cubes(grad, y, d)
        vector = _vector_columns(g3.shape[1], g3.shape[2])
        total = np.zeros((g3.shape[0], g3.shape[2]), F64)
        for i in range(g3.shape[1]):
            total = total + g3[:, i]
        e = _exp_columns(y3, vector)
        return fma(-e, total[:, None, :], g3).reshape(y.shape)


# ---- cpu_kernel_vec ops: SLEEF in full vector blocks, the C library in the rest ---------------

def split(x: np.ndarray, vector: Unary, scalar: Unary, threads: int = 1) -> np.ndarray:
    """Apply `vector` where ATen's float64 loop is vectorised (blocks of 16 elements of each
    thread's range of a dense tensor, or layout.loop_mask's) and `scalar` on the rest."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        if dense_order(x) is not None:
            src, dst, out = _flat_pair(x)
            for begin, end, vectorised in dense_segments(x.size, threads, BLOCK):
                dst[begin:end] = (vector if vectorised else scalar)(src[begin:end])
            return out
        simd = mask_for(x, threads, BLOCK)
        out = np.empty(x.shape, F64)
        for mask, fn in ((simd, vector), (~simd, scalar)):
            if mask.any():
                out[mask] = fn(x[mask])
    return out


def _flat_pair(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x's elements in memory order, a flat float64 output, the output with x's layout)."""
    order = dense_order(x)
    assert order is not None
    src = x.transpose(order).reshape(-1)
    dst = np.empty(x.size, F64)
    out = dst.reshape([x.shape[a] for a in order]).transpose(np.argsort(order))
    return src, dst, out


def sigmoid(x: np.ndarray, threads: int = 1) -> np.ndarray:
    """sigmoid_kernel: 1 / (1 + exp(0 - x)) (SLEEF's exp), 1 / (1 + std::exp(-x)) in the tail."""
    return split(x, lambda v: ONE / (sleef("exp", F64(0.0) - v) + ONE),
                 lambda v: ONE / (ONE + libm("exp", -v)), threads)


def split2(a: np.ndarray, b: np.ndarray, vector: Binary, scalar: Binary,
           threads: int = 1) -> np.ndarray:
    """`split` for kernels of two inputs (grad and input, y and x), broadcast together: the
    vector loop needs both contiguous along the run, or one of them a single broadcast value."""
    return split_n((a, b), vector, scalar, threads)


def split_n(arrays: tuple[np.ndarray, ...], vector: Callable[..., np.ndarray],
            scalar: Callable[..., np.ndarray], threads: int = 1,
            block: int = BLOCK) -> np.ndarray:
    """`split` for kernels of several inputs broadcast together, laid out as the last one;
    `block` 8 for the kernels ATen registers without an AVX-512 build (AVX2's 4 doubles)."""
    arrays = np.broadcast_arrays(*(np.asarray(v, F64) for v in arrays))
    last = arrays[-1]
    with np.errstate(all="ignore"):
        order = dense_order(last)
        if order is not None and all(v.strides == last.strides or not any(v.strides)
                                     for v in arrays):
            *_, dst, out = _flat_pair(last)
            flat = [np.broadcast_to(v.reshape(-1)[:1], (last.size,)) if not any(v.strides)
                    else v.transpose(order).reshape(-1) for v in arrays]
            for begin, end, vectorised in dense_segments(last.size, threads, block):
                fn = vector if vectorised else scalar
                dst[begin:end] = fn(*(v[begin:end] for v in flat))
            return out
        simd = loop_mask(last.shape, [kernels.strides(v) for v in arrays], threads, block=block)
        out = np.empty(last.shape, F64)
        for mask, fn in ((simd, vector), (~simd, scalar)):
            if mask.any():
                out[mask] = fn(*(v[mask] for v in arrays))
    return out


def _everywhere(name: str) -> Unary:
    """An op ATen maps over every element with Vectorized<double> (at::vml's vec::map: the
    tail as a partial vector), so SLEEF's routine everywhere."""
    def run(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, F64)
        with np.errstate(all="ignore"):
            return sleef(name, x).reshape(x.shape)
    run.__doc__ = f"{name}: Sleef_{name}d8_u10 on every element."
    return run


def _vector_or_scalar(name: str) -> Callable[..., np.ndarray]:
    """A cpu_kernel_vec op: SLEEF's routine in vector blocks, the C library's in the rest."""
    def run(x: np.ndarray, threads: int = 1) -> np.ndarray:
        return split(x, lambda v: sleef(name, v), lambda v: libm(name, v), threads)
    run.__doc__ = f"{name}_kernel: Sleef_{name}d8_u10 in vector blocks, std::{name} in the rest."
    return run


log1p = _everywhere("log1p")
expm1 = _everywhere("expm1")
lgamma = _everywhere("lgamma")
sinh = _vector_or_scalar("sinh")
cosh = _vector_or_scalar("cosh")
exp2 = _vector_or_scalar("exp2")


def sigmoid_backward(grad: np.ndarray, y: np.ndarray, threads: int = 1) -> np.ndarray:
    """sigmoid_backward: (grad * (1 - y)) * y, unfused."""
    def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        return (g * (ONE - v)) * v
    return split2(grad, y, run, run, threads)


def softplus(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0,
             threads: int = 1) -> np.ndarray:
    """softplus_kernel: x where x*beta > threshold, else log1p(exp(x*beta)) / beta."""
    b, t = F64(beta), F64(threshold)

    def vector(v: np.ndarray) -> np.ndarray:
        z = v * b
        return np.where(z > t, v, sleef("log1p", sleef("exp", z)) / b)

    def scalar(v: np.ndarray) -> np.ndarray:
        z = v * b
        return np.where(z > t, v, libm("log1p", libm("exp", z)) / b)

    return split(x, vector, scalar, threads)


def softplus_backward(grad: np.ndarray, x: np.ndarray, beta: float = 1.0,
                      threshold: float = 20.0, threads: int = 1) -> np.ndarray:
    """softplus_backward: z = exp(x*beta); x*beta > threshold ? grad : grad * z / (z + 1)."""
    b, t = F64(beta), F64(threshold)

    def make(exp: Unary) -> Binary:
        def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            z = exp(v * b)
            return np.where(v * b > t, g, g * z / (z + ONE))
        return run

    return split2(grad, x, make(lambda v: sleef("exp", v)), make(lambda v: libm("exp", v)),
                  threads)


def atan2(y: np.ndarray, x: np.ndarray, threads: int = 1) -> np.ndarray:
    """atan2_kernel: Sleef_atan2d8_u10 in vector blocks, std::atan2 in the rest."""
    return split2(y, x, lambda a, b: sleef2("atan2", a, b), lambda a, b: libm2("atan2", a, b),
                  threads)


# ---- gelu ---------------------------------------------------------------------------------------

_M_SQRT2, _M_2_SQRTPI, _M_SQRT1_2 = 1.4142135623730951, 1.1283791670955126, 0.7071067811865476
_GELU_BETA = F64(_M_SQRT2 * _M_2_SQRTPI * 0.5)
_GELU_KAPPA = F64(0.044715)
_PDF_BETA = F64(_M_2_SQRTPI * _M_SQRT1_2 * 0.5)
_HALF = F64(0.5)


def gelu(x: np.ndarray, approximate: str = "none", threads: int = 1) -> np.ndarray:
    """GeluKernelImpl (float64 never goes to oneDNN): x * 0.5 * (1 + erf(x / sqrt 2)), or the
    tanh form with its inner polynomial fused; SLEEF in vector blocks, the C library in the
    rest."""
    if approximate == "none":
        def make(erf: Unary) -> Unary:
            return lambda v: (v * _HALF) * (ONE + erf(v * F64(_M_SQRT1_2)))
        return split(x, make(lambda v: sleef("erf", v)), make(lambda v: libm("erf", v)), threads)

    def make_tanh(tanh: Unary) -> Unary:
        def run(v: np.ndarray) -> np.ndarray:
            inner = _GELU_BETA * fma(_GELU_KAPPA, (v * v) * v, v)
            return (_HALF * v) * (ONE + tanh(inner))
        return run

    return split(x, make_tanh(lambda v: sleef("tanh", v)), make_tanh(lambda v: libm("tanh", v)),
                 threads)


def gelu_backward(grad: np.ndarray, x: np.ndarray, approximate: str = "none",
                  threads: int = 1) -> np.ndarray:
    """GeluBackwardKernelImpl: grad * (cdf + x * pdf) (fused on the vector path), or the tanh
    form's derivative with its multiply-adds fused as in float32 (kernels._gelu_tanh_backward)."""
    if approximate == "tanh":
        def make_tanh(tanh: Unary) -> Binary:
            def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
                x_sq = v * v
                t = tanh(_GELU_BETA * fma(_GELU_KAPPA, v * x_sq, v))
                left = _HALF * (ONE + t)
                tanh_derivative = fma(-t, t, ONE)
                inner_derivative = _GELU_BETA * fma(F64(3) * _GELU_KAPPA, x_sq, ONE)
                return g * (left + ((_HALF * v) * tanh_derivative) * inner_derivative)
            return run
        return split2(grad, x, make_tanh(lambda v: sleef("tanh", v)),
                      make_tanh(lambda v: libm("tanh", v)), threads)

    def make(erf: Unary, exp: Unary, fused: bool) -> Binary:
        def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            cdf = _HALF * (ONE + erf(v * F64(_M_SQRT1_2)))
            pdf = _PDF_BETA * exp((v * v) * F64(-0.5))
            return g * (fma(v, pdf, cdf) if fused else cdf + v * pdf)
        return run

    return split2(grad, x, make(lambda v: sleef("erf", v), lambda v: sleef("exp", v), True),
                  make(lambda v: libm("erf", v), lambda v: libm("exp", v), False), threads)


# ---- the other activations (float64 twins of kernels.py's) --------------------------------------

def _exp(v: np.ndarray) -> np.ndarray:
    return sleef("exp", v)


def _c_exp(v: np.ndarray) -> np.ndarray:
    return libm("exp", v)


def tanh_backward(grad: np.ndarray, y: np.ndarray, threads: int = 1) -> np.ndarray:
    """tanh_backward: grad * (1 - y*y), 1 - y*y one fused operation on both paths."""
    def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        return g * fma(-v, v, ONE)
    return split2(grad, y, run, run, threads)


def silu(x: np.ndarray, threads: int = 1) -> np.ndarray:
    """silu_kernel: x / (1 + exp(-x))."""
    return split(x, lambda v: v / (ONE + _exp(-v)), lambda v: v / (ONE + _c_exp(-v)), threads)


def silu_backward(grad: np.ndarray, x: np.ndarray, threads: int = 1) -> np.ndarray:
    """silu_backward: s = 1 / (1 + exp(-x)); grad * s * (1 + x * (1 - s)), fused."""
    def make(exp: Unary) -> Binary:
        def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            s = ONE / (ONE + exp(-v))
            return (g * s) * fma(v, ONE - s, ONE)
        return run
    return split2(grad, x, make(_exp), make(_c_exp), threads)


def elu(x: np.ndarray, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0,
        threads: int = 1) -> np.ndarray:
    """elu_kernel: x > 0 ? x * scale : expm1(x * input_scale) * (alpha * scale)."""
    neg, pos, inp = F64(float(alpha) * float(scale)), F64(scale), F64(input_scale)

    def make(expm1: Unary) -> Unary:
        return lambda v: np.where(v > 0, v * pos, expm1(v * inp) * neg)

    return split(x, make(lambda v: sleef("expm1", v)), make(lambda v: libm("expm1", v)), threads)


def elu_backward(grad: np.ndarray, x: np.ndarray, alpha: float = 1.0, scale: float = 1.0,
                 input_scale: float = 1.0, threads: int = 1) -> np.ndarray:
    """elu_backward on the input: x > 0 ? grad * scale : grad * input_scale * (alpha*scale) *
    exp(x * input_scale) (a nan input takes the exponential side: nan, as torch's)."""
    neg, pos, inp = F64(float(alpha) * float(scale)), F64(scale), F64(input_scale)

    def make(exp: Unary) -> Binary:
        return lambda g, v: np.where(v > 0, g * pos, ((g * inp) * neg) * exp(v * inp))

    return split2(grad, x, make(_exp), make(_c_exp), threads)


def mish(x: np.ndarray, threads: int = 1) -> np.ndarray:
    """mish_kernel: x * tanh(log1p(exp(x)))."""
    return split(x, lambda v: v * sleef("tanh", sleef("log1p", _exp(v))),
                 lambda v: v * libm("tanh", libm("log1p", _c_exp(v))), threads)


def mish_backward(grad: np.ndarray, x: np.ndarray, threads: int = 1) -> np.ndarray:
    """mish_backward: grad * (tsp + x * sigmoid(x) * (1 - tsp*tsp)), both multiply-adds
    fused."""
    def make(f: Callable[[str, np.ndarray], np.ndarray]) -> Binary:
        def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            s = ONE / (ONE + f("exp", -v))
            tsp = f("tanh", f("log1p", f("exp", v)))
            return g * fma(v * s, fma(-tsp, tsp, ONE), tsp)
        return run
    return split2(grad, x, make(sleef), make(libm), threads)


def logsigmoid(x: np.ndarray) -> np.ndarray:
    """log_sigmoid_cpu_kernel: min(x, 0) - log1p(exp(-|x|)), vectorised on every element."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        return np.minimum(x, F64(0.0)) - sleef("log1p", _exp(-np.abs(x)))


def logsigmoid_backward(grad: np.ndarray, x: np.ndarray, threads: int = 1) -> np.ndarray:
    """log_sigmoid_backward with the forward's buffer b = exp(-|x|):
    (max_deriv - sign * (b / (1 + b))) * grad."""
    def run(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        b = _exp(-np.abs(v))
        neg = v < 0
        return (np.where(neg, ONE, F64(0.0)) - np.where(neg, ONE, -ONE) * (b / (ONE + b))) * g
    return split2(grad, x, run, run, threads)


# ---- pow ----------------------------------------------------------------------------------------

def pow(x: np.ndarray, exponent: float | np.ndarray, threads: int = 1) -> np.ndarray:
    """torch.pow on float64, exponent a number or an array broadcast against x: a number of 0,
    1, 2, 3, -0.5, -1 or -2 takes pow_tensor_scalar_optimized_kernel's shortcuts (exact
    arithmetic), 0.5 is torch.sqrt (MKL's vdSqrt where it is loaded: not always correctly
    rounded), any other Sleef_powd8_u10 in vector blocks and std::pow in the rest."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        if np.ndim(exponent) == 0:
            e = float(exponent)
            shortcuts: dict[float, Unary] = {
                0.0: np.ones_like, 1.0: lambda v: v.copy(), 2.0: lambda v: v * v,
                3.0: lambda v: (v * v) * v, 0.5: np.sqrt, -0.5: lambda v: ONE / np.sqrt(v),
                -1.0: lambda v: ONE / v, -2.0: lambda v: ONE / (v * v)}
            if e == 0.5:
                vml_sqrt = mkl.function("sqrt", x.dtype)
                if vml_sqrt is not None:
                    return vml_sqrt(x)
            if e in shortcuts:
                return shortcuts[e](x)
            p = F64(e)
            return split(x, lambda v: sleef2("pow", v, p), lambda v: libm2("pow", v, p), threads)
        return split2(x, exponent, lambda a, b: sleef2("pow", a, b),
                      lambda a, b: libm2("pow", a, b), threads)


def pow_backward(grad: np.ndarray, x: np.ndarray, exponent: float,
                 threads: int = 1) -> np.ndarray:
    """pow_backward for a number exponent: grad * (exponent * x.pow(exponent - 1))."""
    if float(exponent) == 0.0:
        return np.zeros(np.shape(x), F64)
    base = pow(x, float(exponent) - 1.0, threads)
    with np.errstate(all="ignore"):
        return np.asarray(grad, F64) * (F64(exponent) * base)


def rpow(base: float, exponent: np.ndarray, threads: int = 1) -> np.ndarray:
    """torch.pow(number, float64 tensor): the pow kernel with the base broadcast; its output is
    allocated contiguous whatever the exponent's layout, and the loop follows the output."""
    exponent = np.asarray(exponent, F64)
    b = np.broadcast_to(F64(base), exponent.shape)
    if dense_order(exponent) is not None and exponent.flags.c_contiguous:
        return pow(b, exponent, threads)
    simd = loop_mask(exponent.shape, [(0,) * exponent.ndim, kernels.strides(exponent)], threads,
                     contiguous_output=True, block=BLOCK)
    out = np.empty(exponent.shape, F64)
    with np.errstate(all="ignore"):
        for mask, fn in ((simd, sleef2), (~simd, libm2)):
            if mask.any():
                out[mask] = fn("pow", b[mask], exponent[mask])
    return out


# ---- atanh, hypot, logaddexp --------------------------------------------------------------------

atanh = _vector_or_scalar("atanh")


def hypot(a: np.ndarray, b: np.ndarray, threads: int = 1) -> np.ndarray:
    """hypot_kernel: Sleef_hypotd8_u05 in vector blocks, std::hypot in the rest."""
    return split2(a, b, lambda x, y: sleef2("hypot", x, y), lambda x, y: libm2("hypot", x, y),
                  threads)


_INV_LOG_2 = F64(1.0 / 0.6931471805599453)  # 1.0 / c10::ln_2<double>


def logaddexp(a: np.ndarray, b: np.ndarray, base2: bool = False, threads: int = 1) -> np.ndarray:
    """logaddexp_kernel (logaddexp2_kernel with base2): max + log1p(exp(-|a - b|)) (exp2 and a
    factor 1 / ln 2 for base 2), a itself where a == b is infinite; the vector max propagates
    nan, the scalar std::max does not."""
    def make(f: Callable[[str, np.ndarray], np.ndarray], vector: bool) -> Binary:
        def run(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            m = maximum(x, y) if vector else np.where(x < y, y, x)
            e = -np.abs(x - y)
            if base2:  # m + log1p(exp2(e)) * (1 / ln 2), contracted by GCC (measured)
                value = fma(f("log1p", f("exp2", e)), _INV_LOG_2, m)
            else:
                value = m + f("log1p", f("exp", e))
            return np.where((x == y) & (np.abs(x) == np.inf), x, value)
        return run
    return split2(a, b, make(sleef, True), make(libm, False), threads)


def c_log(x: np.ndarray) -> np.ndarray:
    """The C library's log element-wise (xlogy_kernel's scalar loop)."""
    x = np.asarray(x, F64)
    with np.errstate(all="ignore"):
        return libm("log", x).reshape(x.shape)


# ---- var / std over some dimensions -------------------------------------------------------------

def welford_var(values: np.ndarray, correction: float, take_sqrt: bool,
                 pieces: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """std_var_kernel's WelfordOps on float64 (reduced, outputs) values, each output's elements
    in iteration order along axis 0: mean += delta / n, m2 += delta * (x - mean) unfused
    (measured); `pieces` > 1: binary_kernel_reduce's parallel_for over the reduced elements
    (equal pieces, one Welford each, combined in order). Returns (m2 / max(n - correction, 0),
    or its sqrt for std; the mean)."""
    n = values.shape[0]
    if n and native.kernels is not None:  # the same steps in C: one pass, no Python loop
        flat = np.ascontiguousarray(values.reshape(n, -1), F64)
        var, mean = np.empty(flat.shape[1], F64), np.empty(flat.shape[1], F64)
        native.kernels.welford64(var, mean, flat, n, flat.shape[1], max(pieces, 1),
                                 float(correction), bool(take_sqrt))
        return var.reshape(values.shape[1:]), mean.reshape(values.shape[1:])
    step = -(-n // max(pieces, 1))
    mean, m2, count = _welford(values[:step])
    with np.errstate(all="ignore"):
        for begin in range(step, n, step):
            b_mean, b_m2, b_count = _welford(values[begin:begin + step])
            delta = b_mean - mean
            total = F64(count + b_count)
            ratio = F64(b_count) / total
            mean = mean + delta * ratio
            m2 = m2 + b_m2 + delta * delta * F64(count) * ratio
            count += b_count
        var = m2 / F64(n - correction if n > correction else 0.0)
        return (np.sqrt(var) if take_sqrt else var), mean


def _welford(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """WelfordOps::reduce over axis 0 from the empty state: (mean, m2, count)."""
    mean = np.zeros(values.shape[1:], F64)
    m2 = np.zeros(values.shape[1:], F64)
    with np.errstate(all="ignore"):
        for i, row in enumerate(values):
            delta = row - mean
            mean = mean + delta / F64(i + 1)
            m2 = m2 + delta * (row - mean)
    return mean, m2, values.shape[0]


# ---- smooth L1 and Huber losses' backward (PointwiseOpsKernel.cpp: AVX2's build) ----------------

def smooth_l1_backward(x: np.ndarray, t: np.ndarray, grad: np.ndarray, norm: float,
                       beta: float, threads: int = 1) -> np.ndarray:
    """smooth_l1_backward_cpu_kernel: the vector path norm * (|d| >= beta ? sign : d / beta)
    * grad, the scalar one (-norm) * grad, norm * grad or norm * d * grad / beta."""
    n, b = F64(norm), F64(beta)

    def vector(v: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        d = v - w
        ones = np.where(d > 0, ONE, -ONE)
        return (n * np.where(np.abs(d) >= b, ones, d / b)) * g

    def scalar(v: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        d = v - w
        return np.where(d <= -b, -n * g, np.where(d >= b, n * g, ((n * d) * g) / b))

    return split_n((grad, t, x), lambda g, w, v: vector(v, w, g),
                   lambda g, w, v: scalar(v, w, g), threads, block=2 * 4)


def huber_backward(x: np.ndarray, t: np.ndarray, grad: np.ndarray, norm: float, delta: float,
                   threads: int = 1) -> np.ndarray:
    """huber_backward_cpu_kernel: the vector path norm * (|d| >= delta ? sign * delta : d) *
    grad, the scalar one (+-norm) * grad * delta or norm * d * grad."""
    n, dl = F64(norm), F64(delta)

    def vector(v: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        d = v - w
        ones = np.where(d > 0, ONE, -ONE)
        return (n * np.where(np.abs(d) >= dl, ones * dl, d)) * g

    def scalar(v: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        d = v - w
        return np.where(d <= -dl, (-n * g) * dl, np.where(d >= dl, (n * g) * dl, (n * d) * g))

    return split_n((grad, t, x), lambda g, w, v: vector(v, w, g),
                   lambda g, w, v: scalar(v, w, g), threads, block=2 * 4)


def hardswish_backward(grad: np.ndarray, x: np.ndarray, threads: int = 1) -> np.ndarray:
    """hardswish_backward: 0 where x <= -3, grad from 3 on, grad * (x / 3 + 1/2) between; the
    vector path selects the slope unless x >= 3, so a nan input gives nan there (the scalar
    path: grad)."""
    three, half, zero = F64(3.0), F64(0.5), F64(0.0)

    def vector(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.where(v <= -three, zero, np.where(v >= three, g, g * (v / three + half)))

    def scalar(g: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.where(v <= -three, zero, np.where(v < three, g * (v / three + half), g))

    return split2(grad, x, vector, scalar, threads)
