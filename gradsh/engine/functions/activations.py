"""Nodes of the nn activations: softmax, log_softmax, elu, silu, gelu, softplus ..."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.unary import _ARRAY_UFUNCS, _SavesSelf, _float_op
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = [
    "SoftmaxBackward0", "LogSoftmaxBackward0", "LeakyReluBackward0", "EluBackward0",
    "SiluBackward0", "SoftplusBackward0", "LogSigmoidBackward0", "HardtanhBackward0",
    "GeluBackward0", "MishBackward0", "HardsigmoidBackward0",
]


def _c_order(x: Array) -> Array:
    """x in C order (ascontiguousarray would turn a 0-d array into a 1-d one)."""
    return x if x.flags.c_contiguous else x.copy(order="C")


def _softmax_array(x: Array, dim: int) -> Array:
    xp = xp_of(x)
    if x.ndim == 0:
        return xp.ones_like(x)
    with _quiet():
        m = xp.max(x, axis=dim, keepdims=True) if x.size else x.sum(axis=dim, keepdims=True)
        e = xp.exp(x - m)
        return e / xp.sum(e, axis=dim, keepdims=True)


def _log_softmax_array(x: Array, dim: int) -> Array:
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
    node_name = "EluBackward0"

    def forward(self, a: Tensor, alpha: float, scale: float, input_scale: float) -> Array:
        self.save_input(a)
        self.alpha, self.scale, self.input_scale = alpha, scale, input_scale
        return _float_op(a, lambda x: xp_of(x).where(
            x <= 0, xp_of(x).expm1(x * input_scale) * (alpha * scale), x * scale))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        coefficient = self.input_scale * self.alpha * self.scale
        negative = grad * coefficient * F.exp(x * self.input_scale)
        # At 0 the value is grad * coefficient, held constant: PyTorch's double backward masks
        # with x < 0, so the second derivative there is 0.
        return (F.where(x < 0, negative, F.where(x <= 0, grad * coefficient,
                                                 grad * self.scale)),)


class SiluBackward0(_SavesSelf):
    node_name = "SiluBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: x / (1 + xp_of(x).exp(-x)))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        s = F.ufunc("sigmoid", x)
        return (grad * s * (1 + x * (1 - s)),)


class SoftplusBackward0(_SavesSelf):
    node_name = "SoftplusBackward0"

    def forward(self, a: Tensor, beta: float, threshold: float) -> Array:
        self.save_input(a)
        self.beta, self.threshold = beta, threshold
        return _float_op(a, lambda x: xp_of(x).where(
            x * beta > threshold, x, xp_of(x).log1p(xp_of(x).exp(x * beta)) / beta))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        z = F.exp(x * self.beta)
        with _quiet():
            return (F.where(x * self.beta > self.threshold, grad, grad * z / (z + 1)),)


class LogSigmoidBackward0(_SavesSelf):
    node_name = "LogSigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, _ARRAY_UFUNCS["logsigmoid"])

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad * F.ufunc("sigmoid", -self.saved("self", F)),)


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
        if approximate == "tanh":
            return _float_op(a, lambda x: 0.5 * x * (1 + xp_of(x).tanh(
                _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))))
        return _float_op(a, lambda x: x * 0.5 * (1 + _ARRAY_UFUNCS["erf"](x / math.sqrt(2))))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if self.approximate == "tanh":
            t = F.ufunc("tanh", _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
            left = 0.5 * x
            right = 1 + t
            slope = left * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
            return (grad * (0.5 * right + slope),)
        cdf = 0.5 * (1 + F.ufunc("erf", x * (1 / math.sqrt(2))))
        pdf = F.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))
        return (grad * (cdf + x * pdf),)


class MishBackward0(_SavesSelf):
    node_name = "MishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: x * xp_of(x).tanh(xp_of(x).log1p(xp_of(x).exp(x))))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        sigmoid = F.ufunc("sigmoid", x)
        tanh_softplus = F.ufunc("tanh", -F.ufunc("logsigmoid", -x))
        return (grad * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus)),)


class HardsigmoidBackward0(_SavesSelf):
    node_name = "HardsigmoidBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save_input(a)
        return _float_op(a, lambda x: xp_of(x).minimum(xp_of(x).maximum(x + 3, 0), 6) / 6)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.where((x > -3) & (x < 3), grad * (1 / 6), 0.0),)
