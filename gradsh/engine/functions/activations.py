"""Nodes of the nn activations: softmax, log_softmax, elu, silu, gelu, softplus, threshold, glu,
prelu ..."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine.functions import pointwise
from gradsh.engine.functions.common import _quiet, not_implemented_for, xp_of
from gradsh.engine.functions.unary import _float_op, _SavesSelf
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = [
    "SoftmaxBackward0", "LogSoftmaxBackward0", "LeakyReluBackward0", "EluBackward0",
    "CeluBackward0", "SiluBackward0", "SoftplusBackward0", "LogSigmoidBackward0",
    "HardtanhBackward0", "GeluBackward0", "MishBackward0", "HardsigmoidBackward0",
    "ThresholdBackward0", "HardswishBackward0", "HardshrinkBackward0", "SoftshrinkBackward0",
    "GluBackward0", "PreluKernelBackward0",
]


def _c_order(x: Array) -> Array:
    """x in C order (ascontiguousarray would turn a 0-d array into a 1-d one)."""
    return x if x.flags.c_contiguous else x.copy(order="C")


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


class SoftmaxBackward0(Function):
    node_name = "SoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        # PyTorch's softmax kernels write a contiguous result whatever the input's layout
        return _c_order(_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.softmax_backward(grad, self.saved("result", F), self.dim),)


class LogSoftmaxBackward0(Function):
    node_name = "LogSoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        return _c_order(_log_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.log_softmax_backward(grad, self.saved("result", F), self.dim),)


def _kernel_or_formula(F: Any, kernel: Any, formula: Any) -> Any:
    """A backward kernel's array result where it applies (float32 arrays), else the formula
    (other dtypes; Tensors under create_graph, whose graph the formula builds)."""
    if not F.as_tensor:
        result = kernel()
        if result is not None:
            return result
    with _quiet():
        return formula()


class LeakyReluBackward0(_SavesSelf):
    node_name = "LeakyReluBackward0"

    def forward(self, a: Tensor, negative_slope: float) -> Array:
        self.save_input(a)
        self.negative_slope = negative_slope
        return _float_op(a, lambda x: xp_of(x).where(x > 0, x, x * negative_slope))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where(x > 0, grad, grad * self.negative_slope),)


class EluBackward0(_SavesSelf):
    """elu and selu (scale); celu is the same kernel under its own name."""

    node_name = "EluBackward0"

    def forward(self, a: Tensor, alpha: float, scale: float, input_scale: float) -> Array:
        self.save_input(a)
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        return _float_op(a, lambda x: pointwise.elu(x, alpha, scale, input_scale))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)

        def formula() -> Any:
            coefficient = self.input_scale * self.alpha * self.scale
            negative = grad * coefficient * F.exp(x * self.input_scale)
            # At 0 the value is grad * coefficient, held constant: PyTorch's double backward
            # masks with x < 0, so the second derivative there is 0.
            return F.where(x < 0, negative, F.where(x <= 0, grad * coefficient,
                                                    grad * self.scale))

        return (_kernel_or_formula(F, lambda: pointwise.elu_backward(
            grad, x, self.alpha, self.scale, self.input_scale), formula),)


class CeluBackward0(EluBackward0):
    node_name = "CeluBackward0"

    def forward(self, a: Tensor, alpha: float) -> Array:  # type: ignore[override]
        if not a.dtype.is_floating_point:
            raise not_implemented_for("elu_cpu", a.dtype)
        return super().forward(a, alpha, 1.0, 1.0 / alpha)


class SiluBackward0(_SavesSelf):
    node_name = "SiluBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, pointwise.silu)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)

        def formula() -> Any:
            s = F.ufunc("sigmoid", x)
            return grad * s * (1 + x * (1 - s))

        return (_kernel_or_formula(F, lambda: pointwise.silu_backward(grad, x), formula),)


class SoftplusBackward0(_SavesSelf):
    node_name = "SoftplusBackward0"

    def forward(self, a: Tensor, beta: float, threshold: float) -> Array:
        self.save_input(a)
        self.beta, self.threshold = beta, threshold
        return _float_op(a, lambda x: pointwise.softplus(x, beta, threshold))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)

        def formula() -> Any:
            z = F.exp(x * self.beta)
            return F.where(x * self.beta > self.threshold, grad, grad * z / (z + 1))

        return (_kernel_or_formula(F, lambda: pointwise.softplus_backward(
            grad, x, self.beta, self.threshold), formula),)


class LogSigmoidBackward0(_SavesSelf):
    node_name = "LogSigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: pointwise.unary("logsigmoid", x))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (_kernel_or_formula(F, lambda: pointwise.logsigmoid_backward(grad, x),
                                   lambda: grad * F.ufunc("sigmoid", -x)),)


class HardtanhBackward0(_SavesSelf):
    node_name = "HardtanhBackward0"

    def forward(self, a: Tensor, min_val: float, max_val: float) -> Array:
        self.save_input(a)
        self.min_val, self.max_val = min_val, max_val
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x, min_val), max_val))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        outside = (x <= self.min_val) | (x >= self.max_val)
        return (F.where(outside, 0.0, grad),)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class GeluBackward0(_SavesSelf):
    node_name = "GeluBackward0"

    def forward(self, a: Tensor, approximate: str) -> Array:
        self.save_input(a)
        self.approximate = approximate
        return _float_op(a, lambda x: pointwise.gelu(x, approximate))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)

        def formula() -> Any:
            if self.approximate == "tanh":
                t = F.ufunc("tanh", _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
                left = 0.5 * x
                right = 1 + t
                slope = left * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
                return grad * (0.5 * right + slope)
            cdf = 0.5 * (1 + F.ufunc("erf", x * (1 / math.sqrt(2))))
            pdf = F.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))
            return grad * (cdf + x * pdf)

        return (_kernel_or_formula(F, lambda: pointwise.gelu_backward(
            grad, x, self.approximate), formula),)


class MishBackward0(_SavesSelf):
    node_name = "MishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, pointwise.mish)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)

        def formula() -> Any:
            sigmoid = F.ufunc("sigmoid", x)
            tanh_softplus = F.ufunc("tanh", -F.ufunc("logsigmoid", -x))
            return grad * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus))

        return (_kernel_or_formula(F, lambda: pointwise.mish_backward(grad, x), formula),)


class HardsigmoidBackward0(_SavesSelf):
    node_name = "HardsigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x + 3, 0), 6) / 6)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where((x > -3) & (x < 3), grad * (1 / 6), 0.0),)


# ---- the activations torch.nn adds: exact arithmetic, or composed of the kernels above ------


def _mask(F: Any, x: Any, compute: Any) -> Any:
    """A boolean mask computed from saved values: never part of the graph."""
    if F.as_tensor:
        return Tensor._make(compute(x._data), x.device)
    return compute(x)


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
        keep = _mask(F, self.saved("self", F), lambda x: x > self.threshold)
        return (F.where(keep, grad, F.zeros_like(grad)),)


class HardswishBackward0(_SavesSelf):
    node_name = "HardswishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        x = _float_values(a, "hardswish_cpu")
        xp = xp_of(x)
        return x * xp.minimum(xp.maximum(x + 3, 0), 6) / 6

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        # NOTE: hardswish_backward: 0 where x <= -3, the slope where x < 3, grad from 3 on
        low = _mask(F, x, lambda v: v <= -3)
        middle = _mask(F, x, lambda v: v < 3)
        return (F.where(low, F.zeros_like(grad), F.where(middle, grad * (x / 3 + 0.5), grad)),)


class _Shrink(_SavesSelf):
    """Hardshrink and softshrink: zero inside [-lambd, lambd], gradient 1 outside."""

    lambd: float

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        lambd = self.lambd
        inside = _mask(F, self.saved("self", F), lambda v: (v >= -lambd) & (v <= lambd))
        return (F.where(inside, F.zeros_like(grad), grad),)


class HardshrinkBackward0(_Shrink):
    node_name = "HardshrinkBackward0"

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.save_input(a)
        self.lambd = lambd
        x = _float_values(a, "hardshrink_cpu")
        return xp_of(x).where((x >= -lambd) & (x <= lambd), xp_of(x).zeros((), x.dtype), x)


class SoftshrinkBackward0(_Shrink):
    node_name = "SoftshrinkBackward0"

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.save_input(a)
        self.lambd = lambd
        x = _float_values(a, "softshrink_cpu")
        xp = xp_of(x)
        return xp.where(x > lambd, x - lambd, xp.where(x < -lambd, x + lambd,
                                                       xp.zeros((), x.dtype))).astype(x.dtype)


class GluBackward0(_SavesSelf):
    node_name = "GluBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.save_input(a)
        self.dim = dim
        x = _float_values(a, "glu_cpu")
        first, second = xp_of(x).split(x, 2, axis=dim)
        return first * pointwise.unary("sigmoid", second)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        half = x.shape[self.dim] // 2
        first, second = F.narrow(x, self.dim, 0, half), F.narrow(x, self.dim, half, half)
        s = F.ufunc("sigmoid", second)
        return (F.cat([grad * s, grad * first * s * (1 - s)], self.dim),)


class PreluKernelBackward0(Function):
    node_name = "PreluKernelBackward0"

    def forward(self, a: Tensor, weight: Tensor) -> Array:
        self.save("self", a)
        self.save("weight", weight)
        x, w = a._data, weight._data
        return xp_of(x).where(x > 0, x, w * x).astype(x.dtype, copy=False)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x, w = self.saved("self", F), self.saved("weight", F)
        positive = _mask(F, x, lambda v: v > 0)
        need_x, need_w = self.needs_input_grad
        gx = F.where(positive, grad, w * grad) if need_x else None
        gw = F.where(positive, F.zeros_like(grad), x * grad) if need_w else None
        return gx, gw
