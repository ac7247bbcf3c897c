"""The activations' backward as a recorded op: what a backward under create_graph records for the
activations PyTorch differentiates through their own *_backward op (EluBackwardBackward0,
SoftplusBackwardBackward0 ...), and those nodes' own backward (derivatives.yaml's entries for
elu_backward, softplus_backward ..., FunctionsManual.cpp's *_double_backward).

An activation node (functions.activations) computes its first derivative on arrays with
`gradient(grad, x)`; under create_graph it records `double.apply(grad, x, first=node)` instead,
whose forward is that same `gradient`, so the values are the first-order ones bit for bit.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = [
    "DoubleDifferentiable", "EluBackwardBackward0", "SoftplusBackwardBackward0",
    "LogSigmoidBackwardBackward0", "HardtanhBackwardBackward0", "LeakyReluBackwardBackward0",
    "HardswishBackwardBackward0", "HardshrinkBackwardBackward0", "SoftshrinkBackwardBackward0",
    "GeluBackwardBackward0", "HardsigmoidBackwardNotImplemented", "GluBackwardBackward0",
]


class DoubleDifferentiable(Function):
    """An activation node whose backward is an op of its own under create_graph.

    Subclasses define `gradient(grad, x)` on arrays (x the saved `input_key`: the input, or the
    result for the in-place forms) and name their `double` node; `double_params` are the
    attributes that node shows as `_saved_<name>` too."""

    double: ClassVar[type[ActivationBackwardBackward]]
    input_key: ClassVar[str] = "self"
    double_params: ClassVar[tuple[str, ...]] = ()

    def gradient(self, grad: Array, x: Array) -> Array:
        raise NotImplementedError

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (self.recorded_gradient(F, grad, self.saved(self.input_key, F)),)

    def recorded_gradient(self, F: Any, grad: Any, x: Any) -> Any:
        if F.as_tensor:
            return self.double.record(grad, x, self)
        with _quiet():
            if x.dtype in REDUCED_FLOAT_NP:  # ATen's backward kernels compute these in float
                wide = self.gradient(grad.astype(np.float32), x.astype(np.float32))
                return wide.astype(x.dtype)
            return self.gradient(grad, x)


class ActivationBackwardBackward(Function):
    """`first.gradient(grad_output, x)` as a node: grad_output's gradient is the same backward
    of the incoming gradient (recorded again at the next order), x's is `self_gradient`."""

    saves_grad_output: ClassVar[bool] = True
    self_name: ClassVar[str] = "self"
    first: DoubleDifferentiable

    @classmethod
    def record(cls, grad: Tensor, x: Tensor, first: DoubleDifferentiable) -> Tensor:
        return cls.apply(grad, x, first=first)  # type: ignore[no-any-return]

    def forward(self, grad_output: Tensor, x: Tensor, first: DoubleDifferentiable) -> Array:
        self.first = first
        for name in first.double_params:
            setattr(self, name, getattr(first, name))
        if any(self.needs_input_grad):
            if self.saves_grad_output:
                self.save("grad_output", grad_output)
            self.save(self.self_name, x)
        with _quiet():
            return first.gradient(grad_output._data, x._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_self = self.needs_input_grad
        x = self.saved(self.self_name, F)
        with _quiet():
            return (self.first.recorded_gradient(F, g, x) if need_grad else None,
                    self.self_gradient(F, g, x) if need_self else None)

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        """The second derivative's part through the saved input (zero for piecewise-linear
        activations)."""
        return F.zeros_like(g)


class EluBackwardBackward0(ActivationBackwardBackward):
    """elu_double_backward: only the negative side, exponential, has a second derivative."""

    node_name = "EluBackwardBackward0"
    self_name = "self_or_result"

    def forward(self, grad_output: Tensor, x: Tensor, first: Any) -> Array:
        self.is_result = first.input_key == "result"
        return super().forward(grad_output, x, first)

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        scaled = g * self.saved("grad_output", F) * self.first.input_scale
        negative = F.detached(lambda v: (v < 0).astype(v.dtype), x)
        if self.is_result:
            return scaled * negative
        return self.first.recorded_gradient(F, scaled, x) * negative


class SoftplusBackwardBackward0(ActivationBackwardBackward):
    node_name = "SoftplusBackwardBackward0"

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        beta, threshold = self.first.beta, self.first.threshold
        scaled = x * beta
        below = F.detached(lambda v: (v * beta < threshold).astype(v.dtype), x)
        gg = g * self.saved("grad_output", F)
        return F.sigmoid_backward(gg, F.ufunc("sigmoid", scaled)) * below * beta


class LogSigmoidBackwardBackward0(ActivationBackwardBackward):
    node_name = "LogSigmoidBackwardBackward0"

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        z = F.ufunc("sigmoid", x)
        return g * self.saved("grad_output", F) * (z - 1) * z


def _piecewise_linear(name: str) -> type[ActivationBackwardBackward]:
    """The node of an activation linear on each piece: self's gradient is zeros_like(grad),
    and PyTorch saves no grad_output for it."""
    return type(name, (ActivationBackwardBackward,), {
        "node_name": name, "saves_grad_output": False, "__module__": __name__})


HardtanhBackwardBackward0 = _piecewise_linear("HardtanhBackwardBackward0")
LeakyReluBackwardBackward0 = _piecewise_linear("LeakyReluBackwardBackward0")
HardshrinkBackwardBackward0 = _piecewise_linear("HardshrinkBackwardBackward0")
SoftshrinkBackwardBackward0 = _piecewise_linear("SoftshrinkBackwardBackward0")


class GluBackwardBackward0(ActivationBackwardBackward):
    """glu_backward as a node. Not element-wise (the input's two halves meet), so grad_output's
    gradient is glu_double_backward_grad_output, not glu_backward again; self's is
    glu_double_backward (FunctionsManual.cpp), formula for formula."""

    node_name = "GluBackwardBackward0"

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_self = self.needs_input_grad
        x = self.saved("self", F)
        dim = self.first.dim
        half = x.shape[dim] // 2
        g_grad = None
        with _quiet():
            if need_grad:
                ones = F.ones_like(self.saved("grad_output", F))
                tmp = g * self.first.recorded_gradient(F, ones, x)
                g_grad = F.narrow(tmp, dim, 0, half) + F.narrow(tmp, dim, half, half)
            return g_grad, self.self_gradient(F, g, x) if need_self else None

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        go = self.saved("grad_output", F)
        dim = self.first.dim
        half = x.shape[dim] // 2
        first, second = F.narrow(x, dim, 0, half), F.narrow(x, dim, half, half)
        sig = F.ufunc("sigmoid", second)
        one_sub_sig = 1 - sig
        sig_one_sub_sig = sig * one_sub_sig
        gg_first, gg_second = F.narrow(g, dim, 0, half), F.narrow(g, dim, half, half)
        gi_first = gg_second * go * sig_one_sub_sig
        second_order = sig_one_sub_sig * one_sub_sig - sig ** 2 * one_sub_sig
        gi_second = (gg_second * first) * go * second_order + gg_first * go * sig_one_sub_sig
        return F.cat([gi_first, gi_second], dim)


class HardswishBackwardBackward0(ActivationBackwardBackward):
    node_name = "HardswishBackwardBackward0"

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        middle = F.detached(lambda v: (-3.0 < v) & (v < 3.0), x)
        return F.where(middle, g * self.saved("grad_output", F) / 3.0, F.zeros((), x))


_BETA_TANH = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5  # M_SQRT2 * M_2_SQRTPI * 0.5
_BETA_ERF = (2.0 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5  # M_2_SQRTPI * M_SQRT1_2 * 0.5
_KAPPA = 0.044715


class GeluBackwardBackward0(ActivationBackwardBackward):
    """gelu_double_backward, written as FunctionsManual.cpp writes it."""

    node_name = "GeluBackwardBackward0"

    def self_gradient(self, F: Any, g: Any, x: Any) -> Any:
        gg = g * self.saved("grad_output", F)
        if self.first.approximate == "tanh":
            inner = _BETA_TANH * (x + _KAPPA * x ** 3)
            tanh_inner = F.ufunc("tanh", inner)
            sech_inner = 1 / F.ufunc("cosh", inner)
            f = 0.5 * x
            slope = 1 - tanh_inner * tanh_inner
            h = _BETA_TANH * (1 + 3 * _KAPPA * x * x)
            f_prime_gh = 0.5 * slope * h
            g_prime = (2 * sech_inner) * (-sech_inner * tanh_inner) * h
            h_prime = 6 * _KAPPA * x * _BETA_TANH
            return gg * (2 * f_prime_gh + f * h * g_prime + f * slope * h_prime)
        square = x * x
        pdf = _BETA_ERF * F.exp(-0.5 * square)
        return gg * (2 * pdf - square * pdf)


class HardsigmoidBackwardNotImplemented(ActivationBackwardBackward):
    """hardsigmoid_backward has no derivative: PyTorch records a NotImplemented node with an
    edge for each of (grad_output, self) that requires grad, which raises when reached."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    @classmethod
    def record(cls, grad: Tensor, x: Tensor, first: DoubleDifferentiable) -> Tensor:
        inputs = [t for t in (grad, x) if t.requires_grad]
        if not inputs:
            with _quiet():
                return Tensor._make(first.gradient(grad._data, x._data), x.device)
        return cls.apply(*inputs, grad_output=grad, x=x, first=first)  # type: ignore[no-any-return]

    def forward(self, *inputs: Tensor, grad_output: Tensor, x: Tensor,  # type: ignore[override]
                first: DoubleDifferentiable) -> Array:
        with _quiet():
            return first.gradient(grad_output._data, x._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::hardsigmoid_backward is not implemented")
