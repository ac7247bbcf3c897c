"""RreluWithNoiseBackward0: the randomized leaky ReLU. Training draws each non-positive
element's slope from uniform_real_distribution<double>(lower, upper), in order, as ATen's
_rrelu_with_noise_train does; evaluation is leaky_relu with the mean slope."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.common import _quiet
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["RreluWithNoiseBackward0", "RreluWithNoiseBackward1"]


def _opmath(dtype: np.dtype) -> type:
    return np.float64 if dtype == np.float64 else np.float32


class RreluWithNoiseBackward0(Function):
    node_name = "RreluWithNoiseBackward0"

    def forward(self, a: Tensor, lower: float, upper: float, training: bool,
                generator: Any) -> Array:
        x = np.ascontiguousarray(a._data)
        opmath = _opmath(x.dtype)
        low, high = opmath(lower), opmath(upper)
        with _quiet():
            if training:
                flat = x.reshape(-1)
                negative = flat <= 0
                draws = generator.uniform_doubles(int(negative.sum()))
                slopes = (draws * (float(high) - float(low)) + float(low)).astype(opmath)
                noise = np.ones(flat.shape, dtype=x.dtype)
                noise[negative] = slopes.astype(x.dtype)
                out = flat.copy()
                out[negative] = (flat[negative].astype(opmath) * slopes).astype(x.dtype)
                self.factor = noise.reshape(x.shape)
                return out.reshape(x.shape)
            # leaky_relu with (lower + upper) / 2, the Scalar computed in double
            slope = opmath((float(lower) + float(upper)) / 2)
            factor = np.where(x > 0, x.dtype.type(1), x.dtype.type(slope))
            self.factor = factor
            return np.where(x > 0, x, (x.astype(opmath) * slope).astype(x.dtype))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        factor = self.factor
        if F.as_tensor:
            factor = Tensor._make(factor, grad.device)
        return (grad * factor,)


class RreluWithNoiseBackward1(RreluWithNoiseBackward0):
    """rrelu_ (F.rrelu with inplace=True)."""

    node_name = "RreluWithNoiseBackward1"
