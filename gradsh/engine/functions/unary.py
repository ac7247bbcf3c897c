"""Nodes of the unary math functions: exp, log, trigonometry, sqrt, abs, sign, rounding ..."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import REDUCED_FLOAT_NP, is_float_array_dtype
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions import complex_kernels
from gradsh.engine.functions.complex_nodes import (abs_backward, arrays_only, complex_sgn,
                                                  complex_valued)
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.common import (
    _quiet,
    _times,
    float_result_dtype,
    laid_out,
    not_implemented_for,
    xp_of,
)
from gradsh.engine.functions.half_opmath import rsqrt_tails, stepwise_logit, vectorized_erf
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.threads import elementwise
from gradsh.engine.vecmath import clib
from gradsh.engine.vecmath.layout import dense_order

__all__ = [
    "ExpBackward0", "LogBackward0", "Log2Backward0", "Log10Backward0", "SinBackward0",
    "CosBackward0", "TanBackward0", "TanhBackward0", "SigmoidBackward0", "ReluBackward0",
    "SqrtBackward0", "RsqrtBackward0", "AbsBackward0", "SignBackward0", "SgnBackward0",
    "NegBackward0", "ReciprocalBackward0", "FloorBackward0", "CeilBackward0", "RoundBackward0",
    "RoundBackward1", "TruncBackward0", "Log1PBackward0", "Expm1Backward0", "Exp2Backward0",
    "SinhBackward0", "CoshBackward0", "AsinBackward0", "AcosBackward0", "AtanBackward0",
    "ErfBackward0", "FracBackward0", "NanToNumBackward0", "LogitBackward0",
]


def _float_unary(a: Tensor, ufunc: str) -> Array:
    """A float-valued ufunc (exp, sin ...): integer inputs compute in the default float; float32
    as PyTorch's kernels compute it (functions.pointwise)."""
    x = a._data
    dtype = float_result_dtype(a).np
    if x.__class__ is np.ndarray:
        if dtype == np.float32 and ufunc in pointwise.UNARY:
            return pointwise.unary(ufunc, x.astype(dtype, copy=False))
        if dtype == np.float64:
            x = x.astype(dtype, copy=False)
            routine = pointwise.vml(ufunc, x)  # MKL's vmd* where PyTorch calls it
            if routine is not None:
                return routine(x)
            if ufunc in pointwise.FLOAT64 and pointwise.is_float64(x):  # SLEEF's, libm's
                return pointwise.unary(ufunc, x)
        return elementwise(getattr(np, ufunc), x, dtype=dtype)
    return getattr(xp_of(x), ufunc)(x, dtype=dtype)


class ExpBackward0(Function):
    node_name = "ExpBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "exp")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_times(grad, self.saved("result", F)),)


class LogBackward0(Function):
    node_name = "LogBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / self.saved("self", F),)


class Log2Backward0(Function):
    node_name = "Log2Backward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log2")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / _times(self.saved("self", F), math.log(2.0)),)


class Log10Backward0(Function):
    node_name = "Log10Backward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "log10")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (grad / _times(self.saved("self", F), math.log(10.0)),)


class SinBackward0(Function):
    node_name = "SinBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "sin")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * F.cos(self.saved("self", F)),)


class CosBackward0(Function):
    node_name = "CosBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_unary(a, "cos")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * -F.sin(self.saved("self", F)),)


class TanBackward0(Function):
    node_name = "TanBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "tan")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        return (grad * (1 + result ** 2),)


class TanhBackward0(Function):
    node_name = "TanhBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_unary(a, "tanh")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.tanh_backward(grad, self.saved("result", F)),)


class SigmoidBackward0(Function):
    node_name = "SigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        return _float_op(a, lambda x: pointwise.unary("sigmoid", x))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.sigmoid_backward(grad, self.saved("result", F)),)


class ReluBackward0(Function):
    node_name = "ReluBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            raise TorchRuntimeError("Boolean inputs not supported for relu")
        if a.dtype.is_complex:  # (relu is clamp_min)
            raise TorchNotImplementedError("clamp is not supported for complex types")
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        # NOTE: `x < 0 ? 0 : x`, as PyTorch's clamp_min: NaN and -0.0 pass through unchanged.
        return pointwise.zero_below(a._data, a._data, False)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: threshold_backward(grad, result, 0): the gradient at 0 is 0.
        return (F.threshold_backward(grad, self.saved("result", F), 0),)


class SqrtBackward0(Function):
    node_name = "SqrtBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        if getattr(self, "widened_from", None) is not None:
            # float16/bfloat16: Vectorized<Half>::sqrt, IEEE's sqrt in float32 (not MKL's VML,
            # whose float32 sqrt is not correctly rounded: on an AMD EPYC 15 of the 63,488
            # finite float16 inputs then round to another float16)
            with np.errstate(all="ignore"):
                return np.sqrt(a._data)
        return _float_unary(a, "sqrt")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: at 0 this is grad / 0 = inf, as in PyTorch.
        with _quiet():
            return (grad / (2 * self.saved("result", F)),)


class RsqrtBackward0(Function):
    node_name = "RsqrtBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        once = _float_op(a, lambda x: pointwise.unary("rsqrt", x))
        narrow = getattr(self, "widened_from", None)
        if narrow is not None and self.widened_strides is not None:
            return rsqrt_tails(a._data, once, narrow, self.widened_strides)
        return once

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        cube = None if F.as_tensor else pointwise.pow_scalar(result, 3)
        with _quiet():
            return (-0.5 * grad * (result ** 3 if cube is None else cube),)


class AbsBackward0(Function):
    node_name = "AbsBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            raise not_implemented_for("abs_cpu", a.dtype)
        if self.needs_input_grad[0]:
            self.save("self", a)
        if a._data.dtype.kind == "c":
            return complex_kernels.abs_(a._data)
        return xp_of(a._data).abs(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # NOTE: sgn(0) = 0, so the gradient of abs at 0 is 0.
        z = self.saved("self", F)
        if complex_valued(z):
            return (abs_backward(F, grad, z),)
        return (grad * F.sgn(z),)


def _sign_array(x: Array) -> Array:
    """PyTorch's sign: (0 < x) - (x < 0), so sign(NaN) and sign(-0.0) are +0."""
    if x.dtype.kind == "b":
        return x.copy()
    zero = x.dtype.type(0)
    return ((x > zero).astype(x.dtype) - (x < zero).astype(x.dtype)).astype(x.dtype)


class SignBackward0(Function):
    node_name = "SignBackward0"

    def forward(self, a: Tensor) -> Array:
        if a.dtype.is_complex:
            raise TorchNotImplementedError("Unlike NumPy, torch.sign is not intended to support "
                                           "complex numbers. Please use torch.sgn instead.")
        return _sign_array(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class SgnBackward0(Function):
    """sgn: sign for real tensors; appears in abs's double backward."""

    node_name = "SgnBackward0"

    def forward(self, a: Tensor) -> Array:
        if a._data.dtype.kind == "c":  # z / |z|, 0 at 0
            self.complex_input = True
            return complex_sgn(a._data)
        return _sign_array(a._data)

    complex_input = False

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if self.complex_input:
            arrays_only(F, self.node_name)
            raise TorchNotImplementedError("gradsh does not implement the gradient of sgn of a "
                                           "complex tensor yet")
        return (F.zeros_like(grad),)


class NegBackward0(Function):
    node_name = "NegBackward0"

    def forward(self, a: Tensor) -> Array:
        if a._data.dtype.kind == "b":
            raise TorchRuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return xp_of(a._data).negative(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (-grad,)


class ReciprocalBackward0(Function):
    node_name = "ReciprocalBackward0"

    def forward(self, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("result", RESULT)
        if a._data.dtype.kind == "c":  # 1 / z, as ATen divides (NumPy's reciprocal signs 0s)
            return np.divide(1, a._data)
        return _float_unary(a, "reciprocal")

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        return (-grad * (result * result),)


class _Rounding(Function):
    """floor/ceil/round/trunc: piecewise constant, zero gradient."""

    ufunc: ClassVar[str]

    def forward(self, a: Tensor) -> Array:
        if a.dtype is dtypes.bool_:
            kernel = self.node_name[:-len("Backward0")].lower()
            raise not_implemented_for(f"{kernel}_vml_cpu", a.dtype)
        if not a.dtype.is_floating_point:
            return a._data.copy()
        return getattr(xp_of(a._data), self.ufunc)(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FloorBackward0(_Rounding):
    node_name = "FloorBackward0"
    ufunc = "floor"


class CeilBackward0(_Rounding):
    node_name = "CeilBackward0"
    ufunc = "ceil"


class RoundBackward0(_Rounding):
    node_name = "RoundBackward0"
    ufunc = "rint"  # round half to even, as PyTorch's round


class RoundBackward1(Function):
    """round(decimals=d): rint(x * 10^d) / 10^d in the tensor's dtype (for d < 0,
    rint(x / 10^-d) * 10^-d), as PyTorch's kernel computes it; zero gradient."""

    node_name = "RoundBackward1"

    def forward(self, a: Tensor, decimals: int) -> Array:
        if not a.dtype.is_floating_point:
            raise not_implemented_for("round_cpu", a.dtype)
        self.decimals = decimals
        xp, data = xp_of(a._data), a._data
        work = data.astype(np.float32) if data.dtype in REDUCED_FLOAT_NP else data  # (opmath)
        scale = work.dtype.type(10.0 ** abs(decimals))
        with _quiet():
            if decimals < 0:
                return (xp.rint(work / scale) * scale).astype(data.dtype)
            return (xp.rint(work * scale) / scale).astype(data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class TruncBackward0(_Rounding):
    node_name = "TruncBackward0"
    ufunc = "trunc"


def _float_op(a: Tensor, compute: Callable[[Array], Array]) -> Array:
    """An element-wise formula on a's values in its float dtype (integers promote)."""
    dtype = float_result_dtype(a).np
    with _quiet():
        return xp_of(a._data).asarray(compute(a._data.astype(dtype, copy=False)), dtype=dtype)


class _SavesSelf(Function):
    """A unary op whose backward reads its input."""

    def save_input(self, a: Tensor) -> None:
        if self.needs_input_grad[0]:
            self.save("self", a)


def _float_unary_node(name: str, ufunc: str, saves: str,
                      formula: Callable[[Any, Any, Any], Any]) -> type[Function]:
    """A float-valued element-wise op whose backward is `formula(F, grad, saved)`, where the
    saved tensor is its input ("self") or its output ("result")."""

    def forward(self: Function, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save(saves, a if saves == "self" else RESULT)
        return _float_unary(a, ufunc)

    def backward(self: Function, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (formula(F, grad, self.saved(saves, F)),)

    return type(name, (Function,), {"node_name": name, "forward": forward, "backward": backward,
                                    "__module__": __name__})


Log1PBackward0 = _float_unary_node("Log1PBackward0", "log1p", "self",
                                   lambda F, g, x: g / (x + 1))
Expm1Backward0 = _float_unary_node("Expm1Backward0", "expm1", "result",
                                   lambda F, g, y: g * (y + 1))
Exp2Backward0 = _float_unary_node("Exp2Backward0", "exp2", "result",
                                  lambda F, g, y: _times(g * y, math.log(2)))
SinhBackward0 = _float_unary_node("SinhBackward0", "sinh", "self",
                                  lambda F, g, x: g * F.ufunc("cosh", x))
CoshBackward0 = _float_unary_node("CoshBackward0", "cosh", "self",
                                  lambda F, g, x: g * F.ufunc("sinh", x))
AsinBackward0 = _float_unary_node("AsinBackward0", "arcsin", "self",
                                  lambda F, g, x: g * F.ufunc("rsqrt", -x * x + 1))
AcosBackward0 = _float_unary_node("AcosBackward0", "arccos", "self",
                                  lambda F, g, x: g * -F.ufunc("rsqrt", -x * x + 1))
AtanBackward0 = _float_unary_node("AtanBackward0", "arctan", "self",
                                  lambda F, g, x: g / (x * x + 1))


class ErfBackward0(_SavesSelf):
    node_name = "ErfBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        x = a._data
        if x.dtype in REDUCED_FLOAT_NP and x.__class__ is np.ndarray:
            return vectorized_erf(x.astype(np.float32)).astype(x.dtype).reshape(x.shape)
        return _float_op(a, lambda x: pointwise.unary("erf", x))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        # self.pow(2), as yaml; the number factor as mul(Tensor, Scalar) takes it
        return (_times(F.exp(-(x ** 2)), 2 / math.sqrt(math.pi)) * grad,)


class FracBackward0(Function):
    node_name = "FracBackward0"

    def forward(self, a: Tensor) -> Array:
        if not a.dtype.is_floating_point:
            raise not_implemented_for("frac_cpu", a.dtype)
        x = a._data
        return x - xp_of(x).trunc(x)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class NanToNumBackward0(_SavesSelf):
    node_name = "NanToNumBackward0"

    def forward(self, a: Tensor, nan: float, posinf: float | None,
                neginf: float | None) -> Array:
        self.save_input(a)
        x = a._data
        if not is_float_array_dtype(x.dtype):
            return x.copy()
        if x.dtype.kind != "f" and x.__class__ is np.ndarray:
            # bfloat16 (ml_dtypes): NumPy's nan_to_num reads no finfo of it and leaves the
            # infinities alone; the replacements rounded to bfloat16, as ATen's kernel does
            import ml_dtypes

            info = ml_dtypes.finfo(x.dtype)
            top = info.max if posinf is None else posinf
            bottom = info.min if neginf is None else neginf
            out = np.where(np.isnan(x), np.asarray(nan).astype(x.dtype), x)
            out = np.where(np.isposinf(x), np.asarray(top).astype(x.dtype), out)
            return np.where(np.isneginf(x), np.asarray(bottom).astype(x.dtype), out)
        return xp_of(x).nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where(x == x, F.where((x - x) == 0, grad, 0.0), 0.0),)


def _logit_float32(x: np.ndarray, eps: float | None) -> np.ndarray | None:
    """float32 (and float64) logit as PyTorch 2.13 computes it (measured, bit for bit):
    log(x / (1 - x)), the bounds clamped in x's dtype first; the log is MKL's (VML) on every
    element of a dense tensor and the C library's logf (log) on a strided or 0-d one. None: no
    C library for the latter."""
    dense = x.ndim > 0 and dense_order(x) is not None
    kind = x.dtype.type
    if eps is not None:
        low = kind(eps)
        x = np.minimum(kind(1) - low, np.maximum(low, x))
    with _quiet():
        q = x / (kind(1) - x)
        if dense:
            return pointwise.unary("log", q)
        logf = clib.function("log", q.dtype)
        return None if logf is None else logf(q)


class LogitBackward0(_SavesSelf):
    node_name = "LogitBackward0"

    def forward(self, a: Tensor, eps: float | None) -> Array:
        self.save_input(a)
        self.eps = eps
        if a._data.dtype in REDUCED_FLOAT_NP and a._data.__class__ is np.ndarray:
            return stepwise_logit(a._data, eps)
        if pointwise.is_float32(a._data) or pointwise.is_float64(a._data):
            out = _logit_float32(a._data, eps)
            if out is not None:
                return out

        def compute(x: Array) -> Array:
            xp = xp_of(x)
            if eps is not None:
                x = xp.clip(x, eps, 1 - eps)
            return xp.log(x / (1 - x))

        return _float_op(a, compute)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # infinitely_differentiable_logit_backward: the quotient inside [eps, 1 - eps], 0
        # outside (NaN outside [0, 1] without eps)
        x = self.saved("self", F)
        eps = self.eps
        low, high, outside = (0.0, 1.0, math.nan) if eps is None else (eps, 1.0 - eps, 0.0)
        with _quiet():
            inside = F.detached(lambda v: (v >= low) & (v <= high), x)
            filled = F.detached(lambda v: xp_of(v).full((), outside, v.dtype), x)
            return (F.where(inside, grad / (x * (1.0 - x)), filled),)


# TensorIterator unary ops (nan_to_num writes into empty_like(self))
for _name in __all__:
    laid_out("preserve" if _name == "NanToNumBackward0" else "iterator")(globals()[_name])
