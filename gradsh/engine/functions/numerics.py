"""Nodes of the less common element-wise math and the NaN-aware and running reductions: asinh,
acosh, atanh, erfc, deg2rad, rad2deg, hypot, logaddexp(2), copysign, fmax/fmin, nansum,
cummax/cummin. Each formula is PyTorch's derivatives.yaml entry."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import threads
from gradsh.engine.backend import host_kernel
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import (
    _quiet,
    c_order,
    _times,
    broadcast_shapes,
    float_result_dtype,
    laid_out,
    result_dtype,
    xp_of,
)
from gradsh.engine.functions import complex_kernels
from gradsh.engine.functions.complex_nodes import angle_backward
from gradsh.engine.functions.half_opmath import scalar_opmath
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.pointwise import K, vml
from gradsh.engine.node import RESULT, Function
from gradsh.engine.variable import Array, Tensor
from gradsh.engine.vecmath import clib

__all__ = [
    "AsinhBackward0", "AcoshBackward0", "AtanhBackward0", "AsinhBackward1", "AcoshBackward1",
    "AtanhBackward1", "ErfcBackward0", "Deg2RadBackward0", "Rad2DegBackward0", "HypotBackward0",
    "LogaddexpBackward0", "Logaddexp2Backward0", "CopysignBackward0", "CopysignBackward1",
    "FmaxBackward0", "FminBackward0", "NansumBackward0", "CummaxBackward0", "CumminBackward0",
    "AngleBackward0",
]


def _float_values(a: Tensor, compute: Callable[[Array], Array]) -> Array:
    """`compute` on a's values in its float dtype (integers promote to the default float)."""
    dtype = float_result_dtype(a).np
    with _quiet():
        return xp_of(a._data).asarray(compute(a._data.astype(dtype, copy=False)), dtype=dtype)


def _unary_node(name: str, compute: Callable[[Array], Array],
                formula: Callable[[Any, Any, Any], Any]) -> type[Function]:
    """A float-valued element-wise op saving its input; backward is formula(F, grad, self)."""

    def forward(self: Function, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        return _float_values(a, compute)

    def backward(self: Function, F: Any, grad: Any) -> tuple[Any, ...]:
        with _quiet():
            return (formula(F, grad, self.saved("self", F)),)

    return type(name, (Function,), {"node_name": name, "forward": forward, "backward": backward,
                                    "__module__": __name__})


@host_kernel
def _erfc(x: Array) -> Array:
    """erfc element-wise: MKL's vsErfc/vdErfc where VML is loaded, else math.erfc in float64,
    rounded to x's dtype (NumPy has none)."""
    routine = vml("erfc", x)
    if routine is not None:
        return routine(x)
    return np.asarray(np.frompyfunc(math.erfc, 1, 1)(x.astype(np.float64))).astype(x.dtype)


def _c_library(name: str, numpy_name: str) -> Callable[[Array], Array]:
    """asinh / acosh as ATen computes them: the C library's function on every element
    (Vectorized maps std::asinh; vecmath/clib.py), float16 and bfloat16 through float32; NumPy's
    where no C library loads, and on other arrays."""

    def compute(x: Array) -> Array:
        if x.__class__ is np.ndarray and (x.dtype.char in "fd" or x.dtype in REDUCED_FLOAT_NP):
            work = x if x.dtype.char in "fd" else x.astype(np.float32)
            routine = clib.function(name, work.dtype)
            if routine is not None:
                return routine(work).astype(x.dtype, copy=False)
        return getattr(xp_of(x), numpy_name)(x)

    return compute


def _atanh(x: Array) -> Array:
    """atanh: float32 and float64 as ATen's cpu_kernel_vec (SLEEF's vector blocks, the C
    library's tail: vecmath/kernels.atanh, kernels_double.atanh), the rest NumPy's."""
    if x.__class__ is np.ndarray and x.dtype == np.float32:
        out = K.atanh(x, threads=threads.torch_threads())
        if out is not None:
            return out
    if pointwise.is_float64(x):
        return pointwise.unary("arctanh", x)
    return xp_of(x).arctanh(x)


# derivatives.yaml's formulas as written there: self.pow(2) for asinh and atanh (PowBackward0
# under create_graph), self * self for acosh
_asinh, _acosh = _c_library("asinh", "arcsinh"), _c_library("acosh", "arccosh")
AsinhBackward0 = _unary_node("AsinhBackward0", _asinh,
                             lambda F, g, x: g * F.ufunc("rsqrt", x ** 2 + 1))
AcoshBackward0 = _unary_node("AcoshBackward0", _acosh,
                             lambda F, g, x: g * F.ufunc("rsqrt", x * x - 1))
AtanhBackward0 = _unary_node("AtanhBackward0", _atanh,
                             lambda F, g, x: g * 1 / (1 - x ** 2))


def _no_inplace_derivative(name: str) -> Callable[[Any, Any, Any], Any]:
    def formula(F: Any, grad: Any, x: Any) -> Any:
        raise TorchRuntimeError(f"the derivative for 'inplace version of {name}' is not "
                                "implemented.")

    return formula


# their in-place forms: PyTorch records asinh_, acosh_ and atanh_ under Backward1 nodes
# without a derivative
AsinhBackward1 = _unary_node("AsinhBackward1", _asinh, _no_inplace_derivative("asinh"))
AcoshBackward1 = _unary_node("AcoshBackward1", _acosh, _no_inplace_derivative("acosh"))
AtanhBackward1 = _unary_node("AtanhBackward1", _atanh, _no_inplace_derivative("atanh"))
ErfcBackward0 = _unary_node("ErfcBackward0", _erfc,
                            lambda F, g, x: _times(F.exp(-(x ** 2)), -2 / math.sqrt(math.pi)) * g)


class _Scale(Function):
    """deg2rad / rad2deg: a multiplication by a constant in the tensor's float dtype."""

    factor: float

    def forward(self, a: Tensor) -> Array:
        # (ATen multiplies by a wrapped number: kept in float32 for float16 and bfloat16)
        out = scalar_opmath(np.multiply, a._data, self.factor, float_result_dtype(a))
        if out is not None:
            return out
        return _float_values(a, lambda x: x * x.dtype.type(self.factor))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * self.factor,)


class Deg2RadBackward0(_Scale):
    node_name = "Deg2RadBackward0"
    factor = math.pi / 180


class AngleBackward0(Function):
    """angle of a real tensor: pi where negative, NaN where NaN, 0 elsewhere (ATen's
    angle_impl); its gradient is zero (angle_backward of a real input)."""

    node_name = "AngleBackward0"
    complex_input = False

    def forward(self, a: Tensor) -> Array:
        if a.dtype.is_complex:  # arg(z), with its gradient (complex_nodes.angle_backward)
            self.complex_input = True
            self.save("self", a)
            return complex_kernels.angle(a._data)

        def compute(x: Array) -> Array:
            xp = xp_of(x)
            return xp.where(xp.isnan(x), x, xp.where(x < 0, x.dtype.type(math.pi), 0))
        return _float_values(a, compute)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if self.complex_input:
            return (angle_backward(F, grad, self.saved("self", F)),)
        return (F.zeros_like(grad),)


class Rad2DegBackward0(_Scale):
    node_name = "Rad2DegBackward0"
    factor = 180 / math.pi


def _binary_values(a: Tensor, b: Tensor, compute: Callable[[Array, Array], Array],
                   floating: bool = True) -> Array:
    if a.shape != b.shape:
        broadcast_shapes(a, b)
    dtype = (float_result_dtype(a, b) if floating else result_dtype(a, b)).np
    x, y = a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)
    with _quiet():
        return xp_of(x).asarray(compute(x, y), dtype=dtype)


def _float64_or(exact: Array | None, formula: Callable[[], Array]) -> Array:
    """The float64 kernel's result (functions.pointwise.float64_binary), else the formula's."""
    return exact if exact is not None else formula()


class HypotBackward0(Function):
    """hypot(self, other) = sqrt(self^2 + other^2); grads self / result, other / result."""

    node_name = "HypotBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("other", b)
        self.save("result", RESULT)
        return _binary_values(a, b, lambda x, y: _float64_or(
            pointwise.float64_binary("hypot", x, y), lambda: xp_of(x).hypot(x, y)))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        result = self.saved("result", F)
        with _quiet():
            return (grad * self.saved("self", F) / result if need_a else None,
                    grad * self.saved("other", F) / result if need_b else None)


class LogaddexpBackward0(Function):
    """logaddexp(a, b) = log(exp(a) + exp(b)); grads 1 / (1 + exp(b - a)) and the mirror."""

    node_name = "LogaddexpBackward0"
    base = "e"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("other", b)
        ufunc = "logaddexp" if self.base == "e" else "logaddexp2"
        return _binary_values(a, b, lambda x, y: _float64_or(
            pointwise.float64_binary("logaddexp", x, y, base2=self.base == "2"),
            lambda: getattr(xp_of(x), ufunc)(x, y)))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        with _quiet():
            if self.base == "e":
                return (grad / (1 + F.exp(y - x)) if need_a else None,
                        grad / (1 + F.exp(x - y)) if need_b else None)
            if not F.as_tensor:  # derivatives.yaml: grad / (1 + pow(2, other - self)) ...
                power_a = pointwise.rpow(2.0, y - x) if need_a else None
                power_b = pointwise.rpow(2.0, x - y) if need_b else None
                if (power_a is not None or not need_a) and (power_b is not None or not need_b):
                    return (grad / (1 + power_a) if need_a else None,
                            grad / (1 + power_b) if need_b else None)
            return (grad / (1 + F.exp((y - x) * math.log(2))) if need_a else None,
                    grad / (1 + F.exp((x - y) * math.log(2))) if need_b else None)


class Logaddexp2Backward0(LogaddexpBackward0):
    node_name = "Logaddexp2Backward0"
    base = "2"


class CopysignBackward0(Function):
    """copysign(self, other): |self| with other's sign; self's gradient is result / self
    (0 where self is 0), other's is zero."""

    node_name = "CopysignBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("result", RESULT)
        return _binary_values(a, b, lambda x, y: xp_of(x).copysign(x, y))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        g_a = None
        if need_a:
            x, result = self.saved("self", F), self.saved("result", F)
            with _quiet():
                g_a = F.where(x == 0, F.zeros_like(grad), grad * (result / x))
        return (g_a, F.zeros_like(grad) if need_b else None)


class CopysignBackward1(Function):
    """copysign(self, other) with a number for other."""

    node_name = "CopysignBackward1"

    def forward(self, a: Tensor, other: float) -> Array:
        self.save("self", a)
        self.save("result", RESULT)
        return _float_values(a, lambda x: xp_of(x).copysign(x, x.dtype.type(other)))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x, result = self.saved("self", F), self.saved("result", F)
        with _quiet():
            return (F.where(x == 0, F.zeros_like(grad), grad * (result / x)),)


class FmaxBackward0(Function):
    """fmax(self, other): the larger, ignoring a NaN; the gradient goes to the chosen one."""

    node_name = "FmaxBackward0"
    pick_self: Callable[[Any, Any], Any] = staticmethod(lambda x, y: x >= y)  # type: ignore

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("other", b)
        ufunc = "fmax" if self.node_name == "FmaxBackward0" else "fmin"
        return _binary_values(a, b, lambda x, y: getattr(xp_of(x), ufunc)(x, y),
                              floating=False)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        chosen = self.pick_self(x, y) | F.isnan(y)
        return (F.masked_fill(grad, ~chosen, 0.0) if need_a else None,
                F.masked_fill(grad, chosen, 0.0) if need_b else None)


class FminBackward0(FmaxBackward0):
    node_name = "FminBackward0"
    pick_self = staticmethod(lambda x, y: x <= y)  # type: ignore[assignment]


class NansumBackward0(Function):
    """nansum(dim, keepdim): the sum with NaNs as zeros; their gradient is zero."""

    node_name = "NansumBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, keepdim: bool) -> Array:
        self.save("self", a)
        self.dim, self.keepdim, self.self_sizes = dim, keepdim, a.shape
        xp = xp_of(a._data)
        data = a._data
        if data.dtype in REDUCED_FLOAT_NP and data.dtype.kind == "V":
            data = data.astype(np.float32)  # bfloat16: NumPy's nansum sees no NaN in it
        return xp.asarray(xp.nansum(data, axis=dim, keepdims=keepdim), dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if self.dim is not None and not self.keepdim:
            grad = F.unsqueeze_dims(grad, self.dim, len(self.self_sizes))
        full = F.expand(grad, self.self_sizes)
        return (F.masked_fill(full, F.isnan(x), 0.0),)


class CummaxBackward0(Function):
    """cummax(dim).values: the running maximum; each value's gradient goes to the element
    it came from (the indices, saved)."""

    node_name = "CummaxBackward0"
    ufunc = "maximum"

    def forward(self, a: Tensor, dim: int, indices: Tensor) -> Array:
        self.dim, self.shape = dim, a.shape
        self.save("indices", indices)
        xp = xp_of(a._data)
        if a.ndim == 0:
            return a._data.copy()
        return c_order(getattr(xp, self.ufunc).accumulate(a._data, axis=dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        indices = F.as_array(self.saved("indices", F))

        def scatter(g: Array) -> Array:
            xp = xp_of(g)
            out = xp.zeros(self.shape, dtype=g.dtype)
            if g.ndim == 0:
                return g.copy()
            grid = list(xp.indices(g.shape, sparse=True))
            grid[self.dim] = indices
            xp.add.at(out, tuple(grid), g)
            return out

        return (F.detached(scatter, grad),)


class CumminBackward0(CummaxBackward0):
    node_name = "CumminBackward0"
    ufunc = "minimum"


# TensorIterator ops of their tensor inputs; deg2rad, rad2deg and copysign(Tensor, Scalar)
# multiply by a wrapped number (the slow path); nansum reduces into a fresh contiguous result
for _name in ("AsinhBackward0", "AcoshBackward0", "AtanhBackward0", "AsinhBackward1",
              "AcoshBackward1", "AtanhBackward1", "ErfcBackward0", "HypotBackward0",
              "LogaddexpBackward0", "Logaddexp2Backward0", "CopysignBackward0", "FmaxBackward0",
              "FminBackward0", "AngleBackward0"):
    laid_out("iterator")(globals()[_name])
for _name in ("Deg2RadBackward0", "Rad2DegBackward0", "CopysignBackward1"):
    laid_out("scalar")(globals()[_name])
laid_out("row_major")(NansumBackward0)
