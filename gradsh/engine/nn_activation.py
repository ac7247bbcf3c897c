"""The activations nn adds to the engine's: threshold, celu, selu, hardswish, hardshrink,
softshrink, glu, prelu, and softsign/tanhshrink composed as PyTorch composes them."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend, ops
from gradsh.engine.exceptions import TorchRuntimeError
# (the functions package re-exports these public names in both its layouts)
from gradsh.engine.functions import EluBackward0, not_implemented_for
from gradsh.engine.tensor import Array, Function, GradOps, Tensor, apply_inplace

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)


def _zeros(F: GradOps, grad: Any) -> Any:
    return ops.zeros_like(grad) if F.as_tensor else _xp(grad).zeros_like(grad)


def _where(F: GradOps, condition: Any, a: Any, b: Any) -> Any:
    """where() on arrays or, under create_graph, on Tensors."""
    if F.as_tensor:
        like = a if isinstance(a, Tensor) else b
        return ops.where(Tensor._make(condition, like.device), a, b)
    return _xp(condition).where(condition, a, b)


def _mask(F: GradOps, x: Any, compute: Any) -> Any:
    """A boolean mask computed from saved values: never part of the graph."""
    return compute(x._data if F.as_tensor else x)


def _float_values(a: Tensor, name: str) -> Array:
    if not a.dtype.is_floating_point:
        raise not_implemented_for(name, a.dtype)
    return a._data


class _SavesInput(Function):
    def keep_input(self, a: Tensor) -> None:
        if self.needs_input_grad[0]:
            self.save("self", a)


class ThresholdBackward0(_SavesInput):
    node_name = "ThresholdBackward0"

    def forward(self, a: Tensor, threshold: float, value: float) -> Array:
        self.keep_input(a)
        self.threshold = threshold
        x = a._data
        return _xp(x).where(x > threshold, x, _xp(x).asarray(value, dtype=x.dtype))

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        keep = _mask(F, self.saved("self", F), lambda x: x > self.threshold)
        return (_where(F, keep, grad, _zeros(F, grad)),)


class CeluBackward0(_SavesInput):
    node_name = "CeluBackward0"

    def forward(self, a: Tensor, alpha: float) -> Array:
        self.keep_input(a)
        self.alpha = alpha
        x = _float_values(a, "elu_cpu")
        with np.errstate(all="ignore"):
            return _xp(x).where(x <= 0, _xp(x).expm1(x * (1 / alpha)) * alpha, x)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        negative = _mask(F, x, lambda v: v <= 0)
        exp = ops.exp(x * (1 / self.alpha)) if F.as_tensor else _xp(x).exp(x * (1 / self.alpha))
        return (_where(F, negative, grad * exp, grad),)


class HardswishBackward0(_SavesInput):
    node_name = "HardswishBackward0"

    def forward(self, a: Tensor) -> Array:
        self.keep_input(a)
        x = _float_values(a, "hardswish_cpu")
        xp = _xp(x)
        return x * xp.minimum(xp.maximum(x + 3, 0), 6) / 6

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        # NOTE: hardswish_backward: 0 where x <= -3, the slope where x < 3, grad from 3 on
        low = _mask(F, x, lambda v: v <= -3)
        middle = _mask(F, x, lambda v: v < 3)
        return (_where(F, low, _zeros(F, grad), _where(F, middle, grad * (x / 3 + 0.5), grad)),)


class _Shrink(_SavesInput):
    """Hardshrink and softshrink: zero inside [-lambd, lambd], gradient 1 outside."""

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        lambd = self.lambd
        inside = _mask(F, self.saved("self", F), lambda v: (v >= -lambd) & (v <= lambd))
        return (_where(F, inside, _zeros(F, grad), grad),)


class HardshrinkBackward0(_Shrink):
    node_name = "HardshrinkBackward0"

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.keep_input(a)
        self.lambd = lambd
        x = _float_values(a, "hardshrink_cpu")
        return _xp(x).where((x >= -lambd) & (x <= lambd), _xp(x).zeros((), x.dtype), x)


class SoftshrinkBackward0(_Shrink):
    node_name = "SoftshrinkBackward0"

    def forward(self, a: Tensor, lambd: float) -> Array:
        self.keep_input(a)
        self.lambd = lambd
        x = _float_values(a, "softshrink_cpu")
        xp = _xp(x)
        return xp.where(x > lambd, x - lambd, xp.where(x < -lambd, x + lambd,
                                                       xp.zeros((), x.dtype))).astype(x.dtype)


class GluBackward0(_SavesInput):
    node_name = "GluBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.keep_input(a)
        self.dim = dim
        x = _float_values(a, "glu_cpu")
        first, second = _xp(x).split(x, 2, axis=dim)
        return first / (1 + _xp(x).exp(-second))

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        half = x.shape[self.dim] // 2
        if F.as_tensor:
            first, second = ops.narrow(x, self.dim, 0, half), ops.narrow(x, self.dim, half, half)
            s = ops.sigmoid(second)
            return (ops.cat([grad * s, grad * first * s * (1 - s)], self.dim),)
        first, second = _xp(x).split(x, 2, axis=self.dim)
        s = 1 / (1 + _xp(x).exp(-second))
        return (_xp(x).concatenate([grad * s, grad * first * s * (1 - s)], axis=self.dim),)


class PreluKernelBackward0(Function):
    node_name = "PreluKernelBackward0"

    def forward(self, a: Tensor, weight: Tensor) -> Array:
        self.save("self", a)
        self.save("weight", weight)
        x, w = a._data, weight._data
        return _xp(x).where(x > 0, x, w * x).astype(x.dtype, copy=False)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        x, w = self.saved("self", F), self.saved("weight", F)
        positive = _mask(F, x, lambda v: v > 0)
        need_x, need_w = self.needs_input_grad
        gx = _where(F, positive, grad, w * grad) if need_x else None
        gw = _where(F, positive, _zeros(F, grad), x * grad) if need_w else None
        return gx, gw


# ---------------------------------------------------------------------------------------------
# Public functions (F.*)
# ---------------------------------------------------------------------------------------------


def threshold(input: Tensor, threshold: float, value: float,  # noqa: A002
              inplace: bool = False) -> Tensor:
    if inplace:
        return ops.threshold_(input, threshold, value)
    return ThresholdBackward0.apply(input, threshold=threshold, value=value)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    if alpha == 0:
        raise TorchRuntimeError("ZeroDivisionError")
    if inplace:
        return ops.celu_(input, alpha)
    return CeluBackward0.apply(input, alpha=alpha)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    if inplace:
        return ops.selu_(input)
    _float_values(input, "elu_cpu")
    return EluBackward0.apply(input, alpha=_SELU_ALPHA, scale=_SELU_SCALE, input_scale=1.0)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    if inplace:
        _float_values(input, "hardswish_cpu")
        return apply_inplace(HardswishBackward0, input)
    return HardswishBackward0.apply(input)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    return HardshrinkBackward0.apply(input, lambd=lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    if lambd < 0:
        raise TorchRuntimeError("lambda must be greater or equal to 0, but found to be "
                                f"{lambd}.")
    return SoftshrinkBackward0.apply(input, lambd=lambd)


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    if input.ndim == 0:
        raise TorchRuntimeError("glu does not support scalars because halving size must be even")
    dim = ops.wrap_dim(dim, input.ndim)
    if input.shape[dim] % 2:
        raise TorchRuntimeError(f"Halving dimension must be even, but dimension {dim} is size "
                                f"{input.shape[dim]}")
    return GluBackward0.apply(input, dim=dim)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """The weight broadcasts over dim 1 (channels), reshaped as ATen reshapes it."""
    count = weight.numel()
    if count != 1:
        if input.ndim == 0:
            raise TorchRuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != count:
            raise TorchRuntimeError("Mismatch of parameter numbers and input channel size. "
                                    f"Found parameter numbers = {count} and channel size = "
                                    f"{channels}.")
    if weight.ndim > 1:
        raise TorchRuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                                f"ndim = {weight.ndim}")
    if weight.ndim != input.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = count
        weight = ops.reshape(weight, tuple(shape))
    return PreluKernelBackward0.apply(input, weight)


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    return ops.div(input, ops.add(ops.abs(input), 1))


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    return ops.sub(input, ops.tanh(input))
