"""Nodes of the in-place activations whose derivatives.yaml entry differs from the out-of-place
one: elu_ (and selu_), celu_ and leaky_relu_ differentiate through their result (elu_backward and
leaky_relu_backward with is_result=true), threshold_ has its own node name. The other in-place
activations (relu_, hardtanh_, silu_ ...) reuse their out-of-place node on the old value."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.activations import EluBackward0, LeakyReluBackward0
from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = ["EluBackward1", "CeluBackward1", "LeakyReluBackward1", "ThresholdBackward1"]

NEGATIVE_SLOPE_MESSAGE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward "
    "calculation with negative slope"
)


def _keep_result_only(node: Function) -> None:
    """The out-of-place forward saved the input; the in-place node saves the result instead."""
    saved = node._saved  # type: ignore[attr-defined]
    if isinstance(saved, dict):
        saved.pop("self", None)
    if node.needs_input_grad[0]:
        node.save("result", RESULT)


class EluBackward1(EluBackward0):
    """elu_ and selu_: the same values as elu, the gradient from the result r:
    grad * input_scale * (r + alpha * scale) where r <= 0, grad * scale elsewhere."""

    node_name = "EluBackward1"
    input_key = "result"

    def forward(self, a: Tensor, alpha: float, scale: float, input_scale: float) -> Array:
        out = super().forward(a, alpha, scale, input_scale)
        _keep_result_only(self)
        return out

    def gradient(self, grad: Array, r: Array) -> Array:
        negative = grad * self.input_scale * (r + self.alpha * self.scale)
        return xp_of(r).where(r <= 0, negative, grad * self.scale)


class CeluBackward1(EluBackward1):
    """celu_: elu_ with input_scale 1 / alpha (ATen's celu_ calls elu_), under its own name."""

    node_name = "CeluBackward1"


class LeakyReluBackward1(LeakyReluBackward0):
    """leaky_relu_: grad where the result is positive, grad * negative_slope elsewhere; PyTorch
    refuses the backward for a negative slope (the result's sign no longer tells the input's)."""

    node_name = "LeakyReluBackward1"
    input_key = "result"

    def forward(self, a: Tensor, negative_slope: float) -> Array:
        out = super().forward(a, negative_slope)
        _keep_result_only(self)
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if self.negative_slope < 0:
            raise TorchRuntimeError(NEGATIVE_SLOPE_MESSAGE)
        return super().backward(F, grad)

    def gradient(self, grad: Array, r: Array) -> Array:
        return xp_of(r).where(r > 0, grad, grad * self.negative_slope)


class ThresholdBackward1(Function):
    """threshold_: value where x <= threshold; the gradient passes where the old x > threshold."""

    node_name = "ThresholdBackward1"

    def forward(self, a: Tensor, threshold: float, value: float) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        self.threshold = threshold
        x = a._data
        xp = xp_of(x)
        return xp.where(x > threshold, x, xp.asarray(value, dtype=x.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (F.threshold_backward(grad, x, self.threshold),)
