"""Nodes of the nn activations: softmax, log_softmax, elu, silu, gelu, softplus, threshold, glu,
prelu ..."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import dtypes, threads
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.activations_double import (
    DoubleDifferentiable,
    EluBackwardBackward0,
    GeluBackwardBackward0,
    GluBackwardBackward0,
    HardsigmoidBackwardNotImplemented,
    HardshrinkBackwardBackward0,
    HardswishBackwardBackward0,
    HardtanhBackwardBackward0,
    LeakyReluBackwardBackward0,
    LogSigmoidBackwardBackward0,
    SoftplusBackwardBackward0,
    SoftshrinkBackwardBackward0,
)
from gradsh.engine.functions.common import (
    _quiet,
    c_order,
    iterator_layout,
    laid_out,
    not_implemented_for,
    xp_of,
)
from gradsh.engine.functions.unary import _float_op, _SavesSelf
from gradsh.engine.tensor import RESULT, Array, ArrayOps, Function, Tensor
from gradsh.engine.vecmath.layout import mask_for

__all__ = [
    "SoftmaxBackward0", "LogSoftmaxBackward0", "LeakyReluBackward0", "EluBackward0",
    "CeluBackward0", "SiluBackward0", "SoftplusBackward0", "LogSigmoidBackward0",
    "HardtanhBackward0", "GeluBackward0", "MishBackward0", "HardsigmoidBackward0",
    "ThresholdBackward0", "HardswishBackward0", "HardshrinkBackward0", "SoftshrinkBackward0",
    "GluBackward0", "PreluKernelBackward0",
]


def _softmax_array(x: Array, dim: int) -> Array:
    exact = pointwise.softmax(x, dim)
    if exact is not None:
        return exact
    xp = xp_of(x)
    if x.ndim == 0:
        return xp.ones_like(x)
    with _quiet():
        m = xp.max(x, axis=dim, keepdims=True) if x.size else x.sum(axis=dim, keepdims=True)
        e = xp.exp(x - m)
        return e / xp.sum(e, axis=dim, keepdims=True)


def _log_softmax_array(x: Array, dim: int) -> Array:
    exact = pointwise.log_softmax(x, dim)
    if exact is not None:
        return exact
    xp = xp_of(x)
    if x.ndim == 0:
        return xp.zeros_like(x)
    with _quiet():
        m = xp.max(x, axis=dim, keepdims=True) if x.size else x.sum(axis=dim, keepdims=True)
        shifted = x - m
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=dim, keepdims=True))


def _softmax_reduced(x: Array, dim: int) -> Array:
    """softmax of a float16 or bfloat16 array as ATen's CPU kernels compute it: over the last
    dimension in float32, rounded once; over another, _vec_softmax's vectorised columns
    likewise, its scalar ones with the exponentials stored in the output's dtype before the
    division by their float32 sum (which columns are which depends on the thread count)."""
    narrow = x.dtype
    wide = x.astype(np.float32)
    if x.ndim == 0 or x.size == 0 or dim % x.ndim == x.ndim - 1:
        return _softmax_array(wide, dim).astype(narrow)
    return pointwise.softmax_reduced(wide, dim, narrow)


def _log_softmax_reduced(x: Array, dim: int) -> Array:
    """log_softmax of a float16 or bfloat16 array as ATen's CPU kernels compute it: in float32,
    rounded once, except over the last dimension (serial_vec_log_softmax_lastdim_range), whose
    buffers have the input's dtype: the sum of exponentials and its log are each rounded to it
    before `x - max - log(sum)` (computed in float32 and rounded). Rounded once throughout, a
    third of the entries of a random bfloat16 batch differed from PyTorch's."""
    narrow = x.dtype
    wide = x.astype(np.float32)
    if x.ndim == 0 or x.size == 0 or dim % x.ndim != x.ndim - 1:
        return _log_softmax_array(wide, dim).astype(narrow)
    with _quiet():
        shifted = wide - wide.max(axis=-1, keepdims=True)
        total = pointwise.unary("exp", shifted, op=False).sum(axis=-1, keepdims=True,
                                                            dtype=np.float32)
        log_total = pointwise.unary("log", total.astype(narrow).astype(np.float32), op=False)
        return (shifted - log_total.astype(narrow).astype(np.float32)).astype(narrow)


class SoftmaxBackward0(Function):
    node_name = "SoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        # PyTorch's softmax kernels write a contiguous result whatever the input's layout
        if a._data.dtype in REDUCED_FLOAT_NP:
            return c_order(_softmax_reduced(a._data, dim))
        return c_order(_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.softmax_backward(grad, self.saved("result", F), self.dim),)


class LogSoftmaxBackward0(Function):
    node_name = "LogSoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        if a._data.dtype in REDUCED_FLOAT_NP:
            return c_order(_log_softmax_reduced(a._data, dim))
        return c_order(_log_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.log_softmax_backward(grad, self.saved("result", F), self.dim),)


_FLOAT32_TINY = np.float32(np.finfo(np.float32).tiny)


def _widened(kernel: Any, grad: Array, x: Array) -> Array:
    """A float32 backward kernel on float16 or bfloat16 arrays, rounded once: ATen's kernels
    compute these in float32 (step by step in the dtype, silu's gradient differed from
    PyTorch's on 254 of 9326 bfloat16 inputs)."""
    return kernel(grad.astype(np.float32), x.astype(np.float32)).astype(x.dtype)


def _kernel_or_formula(F: Any, kernel: Any, formula: Any) -> Any:
    """A backward kernel's array result where it applies (float32 arrays), else the formula
    (other dtypes; Tensors under create_graph, whose graph the formula builds)."""
    if not F.as_tensor:
        result = kernel()
        if result is not None:
            return result
    with _quiet():
        return formula()


A = ArrayOps  # what `gradient` computes with: the first derivative on arrays
_ONE_SIXTH_F32 = float(np.float32(1.0 / 6.0))


class LeakyReluBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "LeakyReluBackward0"
    double = LeakyReluBackwardBackward0
    double_params = ("negative_slope",)

    def forward(self, a: Tensor, negative_slope: float) -> Array:
        self.save_input(a)
        self.negative_slope = negative_slope
        return _float_op(a, lambda x: xp_of(x).where(x > 0, x, x * negative_slope))

    def gradient(self, grad: Array, x: Array) -> Array:
        return A.where(x > 0, grad, grad * self.negative_slope)


class EluBackward0(DoubleDifferentiable, _SavesSelf):
    """elu and selu (scale); celu is the same kernel under its own name."""

    node_name = "EluBackward0"
    double = EluBackwardBackward0
    double_params = ("alpha", "scale", "input_scale")

    def forward(self, a: Tensor, alpha: float, scale: float, input_scale: float) -> Array:
        self.save_input(a)
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        return _float_op(a, lambda x: pointwise.elu(x, alpha, scale, input_scale))

    def gradient(self, grad: Array, x: Array) -> Array:
        def formula() -> Any:
            coefficient = self.input_scale * self.alpha * self.scale
            negative = grad * coefficient * A.exp(x * self.input_scale)
            return A.where(x <= 0, negative, grad * self.scale)

        return _kernel_or_formula(A, lambda: pointwise.elu_backward(
            grad, x, self.alpha, self.scale, self.input_scale), formula)


class CeluBackward0(EluBackward0):
    node_name = "CeluBackward0"

    def forward(self, a: Tensor, alpha: float) -> Array:  # type: ignore[override]
        if not a.dtype.is_floating_point:
            raise not_implemented_for("elu_cpu", a.dtype)
        out = super().forward(a, alpha, 1.0, 1.0 / alpha)
        # derivatives.yaml's celu: elu_backward(grad, alpha, 1, 1.0 / alpha.toFloat(), ...):
        # the backward's input scale is the reciprocal of alpha rounded to float32 (float64's
        # gradients show it)
        self.input_scale = 1.0 / float(np.float32(alpha))
        return out


class SiluBackward0(_SavesSelf):
    node_name = "SiluBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, pointwise.silu)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if not F.as_tensor and x.dtype in REDUCED_FLOAT_NP:
            return (_widened(pointwise.silu_backward, grad, x),)

        def formula() -> Any:
            s = F.ufunc("sigmoid", x)
            return grad * s * (1 + x * (1 - s))

        return (_kernel_or_formula(F, lambda: pointwise.silu_backward(grad, x), formula),)


class SoftplusBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "SoftplusBackward0"
    double = SoftplusBackwardBackward0
    double_params = ("beta", "threshold")

    def forward(self, a: Tensor, beta: float, threshold: float) -> Array:
        self.save_input(a)
        self.beta, self.threshold = beta, threshold
        return _float_op(a, lambda x: pointwise.softplus(x, beta, threshold))

    def gradient(self, grad: Array, x: Array) -> Array:
        def formula() -> Any:
            z = A.exp(x * self.beta)
            return A.where(x * self.beta > self.threshold, grad, grad * z / (z + 1))

        return _kernel_or_formula(A, lambda: pointwise.softplus_backward(
            grad, x, self.beta, self.threshold), formula)


class LogSigmoidBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "LogSigmoidBackward0"
    double = LogSigmoidBackwardBackward0

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: pointwise.unary("logsigmoid", x))

    def gradient(self, grad: Array, x: Array) -> Array:
        return _kernel_or_formula(A, lambda: pointwise.logsigmoid_backward(grad, x),
                                  lambda: grad * A.ufunc("sigmoid", -x))


def _clamp(x: Array, low: float, high: float) -> Array:
    """ATen's clamp (hardtanh is clamp): std::min(std::max(x, low), high), which keeps x where
    it equals a bound (-0.0 at a bound of 0: relu6(-0.0) is -0.0) and NaN."""
    xp = xp_of(x)
    low_, high_ = xp.asarray(low, dtype=x.dtype), xp.asarray(high, dtype=x.dtype)
    x = xp.where(x < low_, low_, x)
    return xp.where(high_ < x, high_, x)


class HardtanhBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "HardtanhBackward0"
    double = HardtanhBackwardBackward0
    double_params = ("min_val", "max_val")

    def forward(self, a: Tensor, min_val: float, max_val: float) -> Array:
        self.save_input(a)
        self.min_val, self.max_val = min_val, max_val
        return _float_op(a, lambda x: _clamp(x, min_val, max_val))

    def gradient(self, grad: Array, x: Array) -> Array:
        outside = (x <= self.min_val) | (x >= self.max_val)
        return A.where(outside, xp_of(grad).zeros((), grad.dtype), grad)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class GeluBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "GeluBackward0"
    double = GeluBackwardBackward0
    double_params = ("approximate",)

    def forward(self, a: Tensor, approximate: str) -> Array:
        self.save_input(a)
        self.approximate = approximate
        x = a._data
        if x.dtype in REDUCED_FLOAT_NP and x.__class__ is np.ndarray:  # in float32, rounded
            y = pointwise.gelu(x.astype(np.float32), approximate)
            if x.dtype == dtypes.BF16_NP and approximate == "none":
                # NOTE: PyTorch's bfloat16 gelu flushes results below float32's smallest
                # normal to (signed) zero; measured on every bfloat16 value
                y = np.where(np.abs(y) < _FLOAT32_TINY, y * 0, y)
            return y.astype(x.dtype)
        return _float_op(a, lambda x: pointwise.gelu(x, approximate))

    def gradient(self, grad: Array, x: Array) -> Array:
        def formula() -> Any:
            if self.approximate == "tanh":
                t = A.ufunc("tanh", _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
                left = 0.5 * x
                right = 1 + t
                slope = left * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
                return grad * (0.5 * right + slope)
            cdf = 0.5 * (1 + A.ufunc("erf", x * (1 / math.sqrt(2))))
            pdf = A.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))
            return grad * (cdf + x * pdf)

        return _kernel_or_formula(A, lambda: pointwise.gelu_backward(grad, x, self.approximate),
                                  formula)


class MishBackward0(_SavesSelf):
    node_name = "MishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, pointwise.mish)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if not F.as_tensor and x.dtype in REDUCED_FLOAT_NP:
            return (_widened(pointwise.mish_backward, grad, x),)

        def formula() -> Any:
            # infinitely_differentiable_mish_backward: softplus as log1p(exp(x))
            sigmoid = F.ufunc("sigmoid", x)
            tanh_softplus = F.ufunc("tanh", F.ufunc("log1p", F.exp(x)))
            return grad * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus))

        return (_kernel_or_formula(F, lambda: pointwise.mish_backward(grad, x), formula),)


class HardsigmoidBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "HardsigmoidBackward0"
    double = HardsigmoidBackwardNotImplemented

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x + 3, 0), 6) / 6)

    def gradient(self, grad: Array, x: Array) -> Array:
        # the kernel's one_sixth is scalar_t(1.0f / 6.0f): float32's 1/6 even in double
        return A.where((x > -3) & (x < 3), grad * _ONE_SIXTH_F32, xp_of(grad).zeros((), grad.dtype))


# ---- the activations torch.nn adds: exact arithmetic, or composed of the kernels above ------


def _float_values(a: Tensor, name: str) -> Array:
    if not a.dtype.is_floating_point:
        raise not_implemented_for(name, a.dtype)
    return a._data


class ThresholdBackward0(_SavesSelf):
    node_name = "ThresholdBackward0"

    def forward(self, a: Tensor, threshold: float, value: float) -> Array:
        self.save_input(a)
        self.threshold = threshold
        x = a._data
        return xp_of(x).where(x > threshold, x, xp_of(x).asarray(value, dtype=x.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        keep = F.detached(lambda x: x > self.threshold, self.saved("self", F))
        return (F.where(keep, grad, F.zeros_like(grad)),)


class HardswishBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "HardswishBackward0"
    double = HardswishBackwardBackward0

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        x = _float_values(a, "hardswish_cpu")
        xp = xp_of(x)
        return x * xp.minimum(xp.maximum(x + 3, 0), 6) / 6

    def gradient(self, grad: Array, x: Array) -> Array:
        # NOTE: hardswish_backward: 0 where x <= -3, the slope where x < 3, grad from 3 on
        exact = pointwise.float64_binary("hardswish_backward", grad, x)
        if exact is not None:  # float64: its vector path's nan too (kernels_double)
            return exact
        return A.where(x <= -3, A.zeros_like(grad), A.where(x < 3, grad * (x / 3 + 0.5), grad))


class _Shrink(DoubleDifferentiable, _SavesSelf):
    """Hardshrink and softshrink: zero inside [-lambd, lambd], gradient 1 outside."""

    lambd: float
    double_params = ("lambd",)

    def gradient(self, grad: Array, x: Array) -> Array:
        inside = (x >= -self.lambd) & (x <= self.lambd)
        return A.where(inside, A.zeros_like(grad), grad)


class HardshrinkBackward0(_Shrink):
    node_name = "HardshrinkBackward0"
    double = HardshrinkBackwardBackward0

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.save_input(a)
        self.lambd = lambd
        x = _float_values(a, "hardshrink_cpu")
        return xp_of(x).where((x >= -lambd) & (x <= lambd), xp_of(x).zeros((), x.dtype), x)


class SoftshrinkBackward0(_Shrink):
    node_name = "SoftshrinkBackward0"
    double = SoftshrinkBackwardBackward0

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.save_input(a)
        self.lambd = lambd
        x = _float_values(a, "softshrink_cpu")
        xp = xp_of(x)
        with _quiet():
            out = xp.where(x > lambd, x - lambd, xp.where(x < -lambd, x + lambd,
                                                          x * x.dtype.type(0))).astype(x.dtype)
        if x.__class__ is np.ndarray and x.size:
            # ATen's scalar loop gives `x * 0` inside (-0.0 for a negative x, NaN for NaN), its
            # vector loop +0.0 (NaN for NaN): the whole vectors of each run take the vector one
            block = {2: 32, 4: 16, 8: 8}[x.itemsize]  # Vectorized<scalar_t>::size(), AVX-512
            vector = mask_for(x, threads.torch_threads(), block) & (x >= -lambd) & (x <= lambd)
            out = np.where(vector, x.dtype.type(0), out)
        return out


class GluBackward0(DoubleDifferentiable, _SavesSelf):
    node_name = "GluBackward0"
    double = GluBackwardBackward0
    double_params = ("dim",)

    def forward(self, a: Tensor, dim: int) -> Array:
        self.save_input(a)
        self.dim = dim
        x = _float_values(a, "glu_cpu")
        first, second = xp_of(x).split(x, 2, axis=dim)
        # (glu_out: a TensorIterator over the two halves)
        return iterator_layout(first * pointwise.unary("sigmoid", second), first, second)

    def gradient(self, grad: Array, x: Array) -> Array:
        half = x.shape[self.dim] // 2
        first, second = A.narrow(x, self.dim, 0, half), A.narrow(x, self.dim, half, half)
        s = A.ufunc("sigmoid", second)
        # glu_backward_kernel's order: ((1 - s) * s * first) * grad for the second half
        return A.cat([grad * s, (1 - s) * s * first * grad], self.dim)


class PreluKernelBackward0(Function):
    node_name = "PreluKernelBackward0"

    def forward(self, a: Tensor, weight: Tensor) -> Array:
        self.save("self", a)
        self.save("weight", weight)
        x, w = a._data, weight._data
        return xp_of(x).where(x > 0, x, w * x).astype(x.dtype, copy=False)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x, w = self.saved("self", F), self.saved("weight", F)
        positive = F.detached(lambda v: v > 0, x)
        need_x, need_w = self.needs_input_grad
        gx = F.where(positive, grad, w * grad) if need_x else None
        gw = F.where(positive, F.zeros_like(grad), x * grad) if need_w else None
        return gx, gw


# TensorIterator ops of their input; hardtanh (relu6) and prelu write into empty_like(self),
# log_sigmoid into a contiguous buffer
for _name in ("LeakyReluBackward0", "EluBackward0", "CeluBackward0", "SiluBackward0",
              "SoftplusBackward0", "GeluBackward0", "MishBackward0", "HardsigmoidBackward0",
              "ThresholdBackward0", "HardswishBackward0", "HardshrinkBackward0",
              "SoftshrinkBackward0"):
    laid_out("iterator")(globals()[_name])
laid_out("preserve")(HardtanhBackward0)
laid_out("preserve")(PreluKernelBackward0)
laid_out("row_major")(LogSigmoidBackward0)
