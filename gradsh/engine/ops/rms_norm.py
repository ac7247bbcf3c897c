"""rms_norm as ATen composes it on the CPU: x * rsqrt(mean(x ** 2) + eps), in the op-math dtype
(float32 for half and bfloat16), times the weight, back in the input's dtype."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.arithmetic import AddBackward1
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import mul, pow
from gradsh.engine.ops.copies import to, type_as
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.reductions import mean
from gradsh.engine.ops.unary import rsqrt
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = ["rms_norm"]

# float32's and float64's epsilon: the default eps (std::numeric_limits<opmath_t>::epsilon())
_EPSILON = {dtypes.float64: 2.220446049250313e-16}
_FLOAT32_EPSILON = 1.1920928955078125e-07


@guarded
def rms_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa: A002
             eps: float | None = None) -> Tensor:
    input = _check_tensor(input, "rms_norm")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
        int(n) for n in normalized_shape)
    n = len(shape)
    if n == 0 or input.ndim < n or tuple(input.shape[input.ndim - n:]) != shape:
        raise TorchRuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise TorchRuntimeError(f"Expected weight to be of same shape as normalized_shape, but "
                                f"got weight of shape {list(weight.shape)} and normalized_shape "
                                f"= {list(shape)}")
    low = input.dtype in (dtypes.float16, dtypes.bfloat16)
    upcast = to(input, dtypes.float32) if low else input
    if eps is None:
        eps = _EPSILON.get(upcast.dtype, _FLOAT32_EPSILON)
    dims = tuple(range(input.ndim - n, input.ndim))
    # C++'s add_(tensor, double): the Scalar overload, AddBackward1
    scale = rsqrt(apply_inplace(AddBackward1, mean(pow(upcast, 2), dims, keepdim=True),
                                other=eps, alpha=1))
    result = mul(upcast, scale)
    if weight is not None:
        result = mul(result, weight)
    return type_as(result, input) if low else result
