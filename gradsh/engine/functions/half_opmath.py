"""The ops PyTorch's CPU kernels compute on float16 and bfloat16 in float32
(at::opmath_type<Half>, <BFloat16>): the inputs widened, the result rounded to float16
(bfloat16) once (Function.apply's `_apply_in_float32`). Computed step by step in float16
instead, sigmoid(x) differed from PyTorch's on 11071 of the 63488 finite float16 inputs, rsqrt
on 8402, gelu on 10929, softmax on half the entries of a random batch. Single-step ops (add,
mul, ...) need no listing: NumPy's float16 loops and ml_dtypes' bfloat16 ones compute in float32
and round, as ATen's do."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.dtypes import BF16_ONLY, REDUCED_FLOAT_NP, DType
from gradsh.engine.functions import pointwise
from gradsh.engine.tensor import Array, Function
from gradsh.engine.vecmath.fp import fma32
from gradsh.engine.vecmath.layout import loop_mask, simd_mask
from gradsh.engine.vecmath.sleef import expf_u10

__all__: list[str] = []  # (helpers for the node modules)

_WIDENED = frozenset("""
ExpBackward0 Exp2Backward0 Expm1Backward0 LogBackward0 Log2Backward0 Log10Backward0
Log1pBackward0 SqrtBackward0 RsqrtBackward0 SinBackward0 CosBackward0 TanBackward0
TanhBackward0 SigmoidBackward0 AsinBackward0 AcosBackward0 AtanBackward0 SinhBackward0
CoshBackward0 ReciprocalBackward0
SiluBackward0 MishBackward0 SoftplusBackward0 EluBackward0 CeluBackward0
HardswishBackward0 HardsigmoidBackward0 LogSigmoidBackward0 LeakyReluBackward0
MeanBackward0 MeanBackward1 StdBackward0 VarBackward0
LinalgVectorNormBackward0
""".split())

# bfloat16 only: matrix products, which PyTorch runs through oneDNN (float32 accumulation, one
# rounding); ml_dtypes' bfloat16 matmul returns float32. (float16 keeps NumPy's own loops.)
_WIDENED_BF16 = frozenset("""
MmBackward0 MvBackward0 DotBackward0 BmmBackward0 AddmmBackward0 ConvolutionBackward0
BaddbmmBackward0
""".split())
# of those, the products oneDNN's matmul sums into zeroed accumulators (a -0.0 sum is +0.0;
# bmm, mv, dot and the convolutions already give +0.0)
_FROM_ZERO_BF16 = frozenset({"MmBackward0", "AddmmBackward0"})


def mark_widened_ops() -> None:
    """Flag every Function class whose grad_fn name is listed (all modules loaded first)."""
    pending = list(Function.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        name = cls.__dict__.get("node_name", None)
        if name in _WIDENED:
            cls.half_opmath, cls.opmath_dtypes = True, REDUCED_FLOAT_NP
        elif name in _WIDENED_BF16:
            cls.half_opmath, cls.opmath_dtypes = True, BF16_ONLY
            cls.opmath_from_zero = name in _FROM_ZERO_BF16


def scalar_opmath(ufunc: Any, x: Array, scalar: Any, dtype: DType) -> Array | None:
    """`x * s`, `x / s` with a float16 or bfloat16 result as ATen's mul and div kernels compute
    it when the second operand is a single value (their reduced-float branch): that value kept
    in float32 from its own dtype (a Python number is not rounded to float16 first), the float32
    result rounded once. None where that branch does not apply (other dtypes, the GPU)."""
    if dtype.np not in REDUCED_FLOAT_NP or x.__class__ is not np.ndarray:
        return None
    with np.errstate(all="ignore"):
        wide = x.astype(dtype.np, copy=False).astype(np.float32)
        other = np.asarray(scalar).astype(np.float32)
        return np.asarray(ufunc(wide, other)).astype(dtype.np)


def bfloat16_pow(x: Array, exponent: float) -> Array:
    """pow(bfloat16 array, number) as ATen's pow_tensor_scalar_optimized_kernel<BFloat16>:
    0.5, -0.5 and -1 are sqrt, rsqrt and reciprocal (in float32, rounded once); 2, 3 and -2
    are x*x, x*x*x and 1/(x*x) in bfloat16 arithmetic (each step rounded); any other exponent
    is rounded to bfloat16, then powf, rounded. (float16 has none of this: powf throughout.)"""
    bf16 = x.dtype

    def step(value: Array) -> Array:
        return value.astype(bf16).astype(np.float32)

    wide = x.astype(np.float32)
    with np.errstate(all="ignore"):
        if exponent == 0.5:
            out = np.sqrt(wide)  # Vectorized<BFloat16>::sqrt: IEEE's, not VML's
        elif exponent == -0.5:
            out = pointwise.unary("rsqrt", wide)
        elif exponent == -1:
            out = np.float32(1) / wide
        elif exponent == 2:
            out = wide * wide
        elif exponent == 3:
            out = step(wide * wide) * wide
        elif exponent == -2:
            out = np.float32(1) / step(wide * wide)
        else:
            p = float(np.float32(exponent).astype(bf16))
            exact = pointwise.pow_scalar(wide, p)
            out = np.power(wide, np.float32(p)) if exact is None else exact
        return np.asarray(out).astype(bf16)


def rsqrt_tails(wide: Array, once: Array, narrow: Any, strides: tuple[int, ...]) -> Array:
    """rsqrt of float16/bfloat16 values (widened to float32 in `wide`) as ATen's rsqrt kernel
    computes it: the vector loop (Vectorized<Half/BFloat16>::rsqrt) in float32, rounded once
    (`once`), while the scalar loop, which takes each run's tail past its last 32-element
    block (layout.loop_mask), evaluates `1 / std::sqrt(x)` in c10's reduced-float arithmetic:
    the square root rounded to the dtype, then the quotient. Measured against torch: the two
    roundings differ on about a quarter of bfloat16 inputs (rsqrt(1.0078125) is 1.0, not
    0.99609375, in an RMSNorm's (batch, seq, 1) statistics); no other unary op showed it.
    `strides`: the float16/bfloat16 input's, in elements (the widened copy is compact)."""
    with np.errstate(all="ignore"):
        root = np.sqrt(wide).astype(narrow).astype(np.float32)
        scalar = (np.float32(1) / root).astype(narrow).astype(np.float32)
    return np.where(simd_mask(wide.shape, strides, threads.torch_threads()), once, scalar)


_ERF_P = np.float32(0.3275911)
_ERF_COEFFS = tuple(np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741,
                                              -0.284496736, 0.254829592))


def vectorized_erf(x: Array) -> Array:
    """erf of a float32 array as ATen's Vectorized<float>::erf computes it, which is what its
    float16 and bfloat16 erf kernels run on every element (float32 tensors go through MKL
    instead): Abramowitz and Stegun's 7.1.26, 1 - t * r(t) * exp(-x*x) with t = 1 / (1 +
    p|x|), the sign put back. Its absolute error (1e-7) shows where erf is tiny: erf of a
    bfloat16 denormal is 0. The correctly rounded erf differed on 28690 of the 65280 finite
    bfloat16 values."""
    one = np.float32(1)
    with np.errstate(all="ignore"):
        sign = np.signbit(x)
        ax = np.abs(x)
        t = one / fma32(np.full_like(ax, _ERF_P), ax, np.full_like(ax, one))
        r = np.full_like(t, _ERF_COEFFS[0])
        for c in _ERF_COEFFS[1:]:
            r = fma32(r, t, np.full_like(t, c))
        e = expf_u10(-(x * x))
        out = fma32(-e * t, r, np.full_like(t, one))
        return np.where(sign, -out, out)


def stepwise_logit(x: Array, eps: float | None) -> Array:
    """logit of a float16 or bfloat16 array as ATen's logit kernel computes it: in
    Vectorized<Half> (<BFloat16>) arithmetic, every step rounded to the dtype (the clamp to
    [eps, 1 - eps] with eps in the dtype, 1 - x, the quotient, its log)."""
    narrow = x.dtype

    def rounded(value: Array) -> Array:
        return np.asarray(value, np.float32).astype(narrow).astype(np.float32)

    wide = x.astype(np.float32)
    with np.errstate(all="ignore"):
        if eps is not None:
            low = rounded(np.float32(eps))
            high = rounded(np.float32(1) - low)
            wide = np.where(wide < low, low, np.where(wide > high, high, wide))
        ratio = rounded(wide / rounded(np.float32(1) - wide))
        return np.asarray(pointwise.unary("log", ratio, op=False)).astype(narrow)


def addc_opmath(x: Array, t1: Array, t2: Array, value: float, divide: bool) -> Array | None:
    """addcmul / addcdiv with a float16 or bfloat16 result as ATen's kernels compute them: in
    float32 with `value` in float32, rounded once; addcmul fuses its last step,
    fma(value * t1, t2, x). None for other dtypes and devices."""
    if x.dtype not in REDUCED_FLOAT_NP or x.__class__ is not np.ndarray:
        return None
    narrow = x.dtype
    wide = np.broadcast_arrays(*(np.asarray(t, np.float32) for t in (x, t1, t2)))
    v = np.float32(value)
    with np.errstate(all="ignore"):
        if divide:
            out = wide[0] + (v * wide[1]) / wide[2]
        else:
            out = fma32(v * wide[1], wide[2], wide[0])
        return np.asarray(out).astype(narrow)


def add_scaled(x: Array, y: Array, alpha: float, dtype: DType) -> Array:
    """x + alpha * y with a float16 or bfloat16 result as ATen's add kernel computes it: alpha
    rounded to the dtype; the vector loop fuses, fma(y, alpha, x) in float32 rounded once; the
    scalar loop, which takes the tail of each run past its last 32-element block (as for
    float32: layout.loop_mask), rounds alpha * y to the dtype first (c10::BFloat16
    arithmetic). Measured against torch on runs of 8 to 20063 elements, both dtypes."""
    narrow = dtype.np
    a = np.float32(np.float32(alpha).astype(narrow))
    shape = np.broadcast_shapes(x.shape, y.shape)
    xs, ys = np.broadcast_to(x, shape), np.broadcast_to(y, shape)
    xw, yw = xs.astype(narrow).astype(np.float32), ys.astype(narrow).astype(np.float32)
    with np.errstate(all="ignore"):
        vector = fma32(yw, np.full_like(yw, a), xw).astype(narrow)
        scalar = (xw + (a * yw).astype(narrow).astype(np.float32)).astype(narrow)
    strides = [tuple(s // t.itemsize for s in t.strides) for t in (xs, ys)]
    mask = loop_mask(shape, strides, threads.torch_threads())
    return np.where(mask, vector, scalar)
