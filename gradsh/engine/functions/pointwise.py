"""Element-wise math and softmax on the engine's arrays, as PyTorch 2.13's CPU kernels compute it.

float32 NumPy arrays go through gradsh.engine.vecmath: bit for bit where PyTorch runs open code
(SLEEF, glibc, ATen's own loops); where it calls MKL's VML (exp, log, sin, tanh ...: float32 and
float64), VML itself where the `mkl` package is loaded (vecmath/mkl.py), else the correctly
rounded value, the same whatever SIMD code NumPy picks on this CPU (docs/float32.md). Other dtypes and devices compute with NumPy / CuPy formulas, as before.
Past 32,768 elements the float32 kernels split their work as PyTorch would among
threads.torch_threads() threads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import backend, threads
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array
from gradsh.engine.vecmath import native
from gradsh.engine.vecmath.layout import loop_mask

__all__ = ["UNARY", "unary", "vml", "is_float32", "zero_where", "zero_below"]


class _Kernels:
    """gradsh.engine.vecmath.kernels, imported when a float32 op first runs: its tables and
    modules cost about 25 ms of start-up."""

    module: Any = None

    def __getattr__(self, name: str) -> Any:
        if _Kernels.module is None:
            from gradsh.engine.vecmath import kernels

            _Kernels.module = kernels
        return getattr(_Kernels.module, name)


K = _Kernels()


class _DoubleKernels:
    """gradsh.engine.vecmath.kernels_double (float64), imported when a float64 op first runs;
    None-like (`ready` False) where the compiled SLEEF routines are missing."""

    module: Any = None

    @property
    def ready(self) -> bool:
        if _DoubleKernels.module is None:
            from gradsh.engine.vecmath import kernels_double, sleef_double

            _DoubleKernels.module = kernels_double if sleef_double.available() else False
        return bool(_DoubleKernels.module)

    def __getattr__(self, name: str) -> Any:
        assert self.ready
        return getattr(_DoubleKernels.module, name)


D = _DoubleKernels()


def is_float64(x: Any) -> bool:
    """Whether x is a float64 NumPy array and the float64 kernels (vecmath/kernels_double.py)
    are there."""
    return x.__class__ is np.ndarray and x.dtype == np.float64 and D.ready


def _float64_pair(grad: Any, x: Any) -> bool:
    return is_float64(x) and (isinstance(grad, (float, int)) or (
        grad.__class__ is np.ndarray and grad.dtype == np.float64))


def is_float32(x: Any) -> bool:
    """Whether x is a float32 NumPy array: the arrays PyTorch's CPU kernels are reproduced for."""
    return x.__class__ is np.ndarray and x.dtype == np.float32


def _n() -> int:
    return threads.torch_threads()


def _erf_array(x: Array) -> Array:
    """erf element-wise for other dtypes (NumPy has none): math.erf in float64."""
    flat = np.asarray(backend.to_host(x), dtype=np.float64).reshape(-1)
    out = np.fromiter((math.erf(v) for v in flat), dtype=np.float64, count=flat.size)
    out = out.reshape(np.shape(x)).astype(x.dtype, copy=False)
    return out if xp_of(x) is np else xp_of(x).asarray(out)


def _sigmoid_other(x: Array) -> Array:
    xp = xp_of(x)
    return xp.reciprocal(xp.exp(-x) + x.dtype.type(1))


def _logsigmoid_other(x: Array) -> Array:
    xp = xp_of(x)
    return xp.minimum(x, 0) - xp.log1p(xp.exp(-xp.abs(x)))


# name (NumPy's) -> (float32 kernel, the formula for other dtypes)
UNARY: dict[str, tuple[Callable[[Array], Array], Callable[[Array], Array]]] = {
    "exp": (lambda x: K.exp(x), lambda x: xp_of(x).exp(x)),
    "log": (lambda x: K.log(x), lambda x: xp_of(x).log(x)),
    "log2": (lambda x: K.log2(x), lambda x: xp_of(x).log2(x)),
    "log10": (lambda x: K.log10(x), lambda x: xp_of(x).log10(x)),
    "sin": (lambda x: K.sin(x), lambda x: xp_of(x).sin(x)),
    "cos": (lambda x: K.cos(x), lambda x: xp_of(x).cos(x)),
    "tan": (lambda x: K.tan(x), lambda x: xp_of(x).tan(x)),
    "tanh": (lambda x: K.tanh(x), lambda x: xp_of(x).tanh(x)),
    "arcsin": (lambda x: K.asin(x), lambda x: xp_of(x).arcsin(x)),
    "arccos": (lambda x: K.acos(x), lambda x: xp_of(x).arccos(x)),
    "arctan": (lambda x: K.atan(x), lambda x: xp_of(x).arctan(x)),
    "erf": (lambda x: K.erf(x), _erf_array),
    "sqrt": (lambda x: K.sqrt(x), lambda x: xp_of(x).sqrt(x)),
    "rsqrt": (lambda x: K.rsqrt(x), lambda x: 1 / xp_of(x).sqrt(x)),
    "expm1": (lambda x: K.expm1(x), lambda x: xp_of(x).expm1(x)),
    "log1p": (lambda x: K.log1p(x), lambda x: xp_of(x).log1p(x)),
    "sigmoid": (lambda x: K.sigmoid(x, threads=_n()), _sigmoid_other),
    "sinh": (lambda x: K.sinh(x, threads=_n()), lambda x: xp_of(x).sinh(x)),
    "cosh": (lambda x: K.cosh(x, threads=_n()), lambda x: xp_of(x).cosh(x)),
    "exp2": (lambda x: K.exp2(x, threads=_n()), lambda x: xp_of(x).exp2(x)),
    "logsigmoid": (lambda x: K.logsigmoid(x), _logsigmoid_other),
}


# name -> the float64 kernel (vecmath/kernels_double.py) where ATen's is not MKL's
FLOAT64: dict[str, Callable[[Array], Array]] = {
    "sigmoid": lambda x: D.sigmoid(x, threads=_n()),
    "log1p": lambda x: D.log1p(x),
    "expm1": lambda x: D.expm1(x),
    "sinh": lambda x: D.sinh(x, threads=_n()),
    "cosh": lambda x: D.cosh(x, threads=_n()),
    "exp2": lambda x: D.exp2(x, threads=_n()),
    "logsigmoid": lambda x: D.logsigmoid(x),
    "arctanh": lambda x: D.atanh(x, threads=_n()),
}


# (name, dtype char) -> MKL's VML routine, or None where VML is not loaded (vecmath/mkl.py)
_VML: dict[tuple[str, str], Callable[[Array], Array] | None] = {}


def vml(name: str, x: Array) -> Callable[[Array], Array] | None:
    """MKL VML's `name` for a float32/float64 NumPy array x, where PyTorch calls VML for it and
    the library is loaded; None otherwise."""
    if x.__class__ is not np.ndarray:
        return None
    key = (name, x.dtype.char)
    try:
        return _VML[key]
    except KeyError:
        from gradsh.engine.vecmath import mkl

        found = _VML[key] = mkl.function(name, x.dtype) if x.dtype.char in "fd" else None
        return found


def unary(name: str, x: Array, *, op: bool = True) -> Array:
    """The element-wise function `name` (NumPy's spelling: arcsin, not asin) of a float array.
    op: as the tensor op (at::exp ...: MKL's VML where it is loaded); False: the correctly
    rounded stand-in, for the exp or log inside another kernel (ATen's own vector code)."""
    routine = vml(name, x) if op else None
    if routine is not None:
        return routine(x)
    if name in FLOAT64 and is_float64(x):
        return FLOAT64[name](x)
    float32, other = UNARY[name]
    if is_float32(x):
        return float32(x)
    if x.__class__ is np.ndarray and x.dtype in REDUCED_FLOAT_NP:
        # float16 and bfloat16: in float32, rounded once, as ATen's kernels for them
        return float32(x.astype(np.float32)).astype(x.dtype)
    return other(x)


# Signed integers as wide as each float dtype, for the bit masks of zero_where.
_SAME_WIDTH_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def zero_where(mask: Array, values: Array) -> Array:
    """`where(mask, 0, values)`: relu's `x < 0 ? 0 : x` and threshold_backward's select.

    On float NumPy arrays this ANDs the values' bits with a mask of all ones (keep) or all zeros
    (+0.0) instead of calling np.where, whose branches mispredict on random signs (2.0 ms
    against 0.35 ms on 1024x512 float32); the bits are the same, NaN and -0.0 included.
    """
    if (values.__class__ is not np.ndarray or values.dtype.kind != "f"
            or mask.__class__ is not np.ndarray or mask.shape != values.shape):
        return xp_of(values).where(mask, values.dtype.type(0), values)
    bits = _SAME_WIDTH_INT[values.itemsize]
    keep = np.subtract(mask, 1, dtype=bits)  # True -> 0, False -> -1 (every bit set)
    return np.bitwise_and(values.view(bits), keep, out=keep).view(values.dtype)


_F32 = np.dtype(np.float32)


def zero_below(x: Array, values: Array, inclusive: bool) -> Array:
    """`zero_where(x < 0, values)` (`x <= 0` when inclusive): relu's forward on x itself and
    threshold_backward at 0. Contiguous float32 arrays of one shape take the compiled kernel
    (the same bits in one pass, without the mask and its casts)."""
    kernels = native.kernels
    if (kernels is not None and x.__class__ is np.ndarray and values.__class__ is np.ndarray
            and x.dtype is _F32 and values.dtype is _F32 and x.shape == values.shape
            and x.ndim and x.flags.c_contiguous and values.flags.c_contiguous):
        out = np.empty(x.shape, _F32)
        kernels.zero_below(out, x, values, out.size, inclusive)
        return out
    return zero_where(x <= 0 if inclusive else x < x.dtype.type(0), values)  # (as before)


# ---- activations ---------------------------------------------------------------------------


def silu(x: Array) -> Array:
    if is_float64(x):
        return D.silu(x, threads=_n())
    if is_float32(x):
        return K.silu(x, threads=_n())
    return x / (1 + xp_of(x).exp(-x))


def softplus(x: Array, beta: float, threshold: float) -> Array:
    if is_float64(x):
        return D.softplus(x, beta, threshold, threads=_n())
    if is_float32(x):
        return K.softplus(x, beta, threshold, threads=_n())
    xp = xp_of(x)
    return xp.where(x * beta > threshold, x, xp.log1p(xp.exp(x * beta)) / beta)


def elu(x: Array, alpha: float, scale: float, input_scale: float) -> Array:
    """elu, selu and celu (celu: input_scale = 1 / alpha)."""
    if is_float64(x):
        return D.elu(x, alpha, scale, input_scale, threads=_n())
    if is_float32(x):
        return K.elu(x, alpha, scale, input_scale, threads=_n())
    xp = xp_of(x)
    return xp.where(x <= 0, xp.expm1(x * input_scale) * (alpha * scale), x * scale)


def mish(x: Array) -> Array:
    if is_float64(x):
        return D.mish(x, threads=_n())
    if is_float32(x):
        return K.mish(x, threads=_n())
    xp = xp_of(x)
    return x * xp.tanh(xp.log1p(xp.exp(x)))


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


def gelu(x: Array, approximate: str) -> Array:
    if is_float64(x):
        return D.gelu(x, approximate, threads=_n())
    if is_float32(x):
        return K.gelu(x, approximate, contiguous=x.flags.c_contiguous, threads=_n())
    xp = xp_of(x)
    if approximate == "tanh":
        return 0.5 * x * (1 + xp.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))
    return x * 0.5 * (1 + _erf_array(x / math.sqrt(2)))


# ---- backward kernels: (grad, saved input or result) --------------------------------------------


def _float32_pair(grad: Any, x: Any) -> bool:
    return is_float32(x) and (is_float32(grad) or isinstance(grad, (float, int)))


def silu_backward(grad: Array, x: Array) -> Array | None:
    """silu_backward(grad, x) for float32 arrays; None: compute the formula (other dtypes, or
    Tensors under create_graph)."""
    if _float64_pair(grad, x):
        return D.silu_backward(grad, x, threads=_n())
    return K.silu_backward(grad, x, threads=_n()) if _float32_pair(grad, x) else None


def softplus_backward(grad: Array, x: Array, beta: float, threshold: float) -> Array | None:
    if _float64_pair(grad, x):
        return D.softplus_backward(grad, x, beta, threshold, threads=_n())
    if not _float32_pair(grad, x):
        return None
    return K.softplus_backward(grad, x, beta, threshold, threads=_n())


def elu_backward(grad: Array, x: Array, alpha: float, scale: float,
                 input_scale: float) -> Array | None:
    if _float64_pair(grad, x):
        return D.elu_backward(grad, x, alpha, scale, input_scale, threads=_n())
    if not _float32_pair(grad, x):
        return None
    return K.elu_backward(grad, x, alpha, scale, input_scale, threads=_n())


def mish_backward(grad: Array, x: Array) -> Array | None:
    if _float64_pair(grad, x):
        return D.mish_backward(grad, x, threads=_n())
    return K.mish_backward(grad, x, threads=_n()) if _float32_pair(grad, x) else None


def logsigmoid_backward(grad: Array, x: Array) -> Array | None:
    if _float64_pair(grad, x):
        return D.logsigmoid_backward(grad, x, threads=_n())
    return K.logsigmoid_backward(grad, x, threads=_n()) if _float32_pair(grad, x) else None


def gelu_backward(grad: Array, x: Array, approximate: str) -> Array | None:
    if _float64_pair(grad, x):
        return D.gelu_backward(grad, x, approximate, threads=_n())
    if not _float32_pair(grad, x):
        return None
    return K.gelu_backward(grad, x, contiguous=x.flags.c_contiguous, threads=_n(),
                           approximate=approximate)


def tanh_backward(grad: Array, y: Array) -> Array | None:
    if _float64_pair(grad, y):
        return D.tanh_backward(grad, y, threads=_n())
    return K.tanh_backward(grad, y) if _float32_pair(grad, y) else None


def sigmoid_backward(grad: Array, y: Array) -> Array | None:
    if _float64_pair(grad, y):
        return D.sigmoid_backward(grad, y, threads=_n())
    return K.sigmoid_backward(grad, y) if _float32_pair(grad, y) else None


# ---- softmax ------------------------------------------------------------------------------------


def softmax(x: Array, dim: int) -> Array | None:
    """softmax along dim for float32 and float64 arrays (contiguous result); None for other
    dtypes."""
    if x.__class__ is not np.ndarray or x.ndim == 0 or x.size == 0:
        return None
    if is_float64(x):
        return D.softmax(x, dim, threads=_n())
    if not is_float32(x):
        return None
    return K.softmax(x, dim, threads=_n())


def softmax_reduced(wide: Array, dim: int, narrow: Any) -> Array:
    """softmax over a non-last dimension of bfloat16/float16 values widened to float32."""
    return K.softmax_reduced(wide, dim, narrow, threads=_n())


def log_softmax(x: Array, dim: int) -> Array | None:
    if x.__class__ is not np.ndarray or x.ndim == 0 or x.size == 0:
        return None
    if is_float64(x):
        return D.log_softmax(x, dim)
    if not is_float32(x):
        return None
    return K.log_softmax(x, dim)


def softmax_backward(grad: Array, y: Array, dim: int) -> Array | None:
    """_softmax_backward_data for float32 and float64 arrays, else None."""
    if y.__class__ is not np.ndarray or y.ndim == 0 or y.size == 0:
        return None
    if _float64_pair(grad, y):
        return D.softmax_backward(grad, y, dim, threads=_n())
    if not _float32_pair(grad, y):
        return None
    if dim % y.ndim != y.ndim - 1:
        return K.softmax_backward_dim(grad, y, dim % y.ndim)
    return K.softmax_backward(grad, y, threads=_n())


def log_softmax_backward(grad: Array, y: Array, dim: int) -> Array | None:
    if y.__class__ is not np.ndarray or y.ndim == 0 or y.size == 0:
        return None
    if _float64_pair(grad, y):
        return D.log_softmax_backward(grad, y, dim)
    if not _float32_pair(grad, y):
        return None
    if dim % y.ndim != y.ndim - 1:
        return K.log_softmax_backward_dim(grad, y, dim % y.ndim)
    return K.log_softmax_backward(grad, y)


# ---- pow, atan2 ---------------------------------------------------------------------------------


def pow_scalar(x: Array, exponent: float) -> Array | None:
    """torch.pow(float32 or float64 tensor, number), else None."""
    if isinstance(exponent, bool) or not isinstance(exponent, (int, float)):
        return None
    if is_float64(x):
        return D.pow(x, float(exponent), threads=_n())
    if not is_float32(x):
        return None
    return K.pow(x, float(exponent), threads=_n())


def pow_backward(grad: Array, x: Array, exponent: float) -> Array | None:
    """pow_backward(grad, x, number): grad * (exponent * x.pow(exponent - 1)), else None."""
    if isinstance(exponent, bool):
        return None
    if _float64_pair(grad, x):
        return D.pow_backward(grad, x, float(exponent), threads=_n())
    if not _float32_pair(grad, x):
        return None
    return K.pow_backward(grad, x, float(exponent), threads=_n())


def pow_tensor(x: Array, exponent: Array) -> Array | None:
    """torch.pow(float32 tensor, float32 tensor) (or both float64), else None. A 0-d exponent
    tensor is still an element-wise operand on the CPU (the kernels' number shortcuts, such as
    0.5 as sqrt, are pow(Tensor, Scalar)'s: sqrt(-inf) is nan where pow(-inf, 0.5) is inf)."""
    if exponent.ndim == 0 and x.ndim:
        exponent = np.broadcast_to(exponent, x.shape)
    if is_float64(x) and is_float64(exponent):
        return D.pow(x, exponent, threads=_n())
    if not (is_float32(x) and is_float32(exponent)):
        return None
    return K.pow(x, exponent, threads=_n())


def rpow(base: float, exponent: Array) -> Array | None:
    """torch.pow(number, float32 tensor), else None. pow_Scalar allocates its output contiguous
    whatever the exponent's layout, and the loop follows the output. (The kernels flatten a
    0-d exponent: the result takes its shape back.)"""
    if is_float64(exponent):
        return D.rpow(base, exponent, threads=_n()).reshape(exponent.shape)
    if not is_float32(exponent):
        return None
    b = np.broadcast_to(np.asarray(base, np.float32), exponent.shape)
    layout = loop_mask(exponent.shape, [(0,) * exponent.ndim, K.strides(exponent)], _n(),
                         contiguous_output=True)
    out = K.pow(b, exponent, simd=layout, threads=_n())
    return np.ascontiguousarray(out).reshape(exponent.shape)


def float64_binary(name: str, a: Array, b: Array, **options: Any) -> Array | None:
    """kernels_double.<name>(a, b) (hypot, logaddexp, ...) where both are float64 NumPy arrays
    and the float64 kernels are there; None otherwise."""
    if not (is_float64(a) and is_float64(b)):
        return None
    return getattr(D, name)(a, b, threads=_n(), **options)


def atan2(y: Array, x: Array) -> Array | None:
    if is_float64(y) and is_float64(x):
        return D.atan2(y, x, threads=_n())
    if not (is_float32(y) and is_float32(x)):
        return None
    return K.atan2(y, x, threads=_n())
