"""The less common element-wise ops and reductions: float_power, ldexp, gcd, lcm, nextafter,
frexp, aminmax, isin, unravel_index (and their in-place forms)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import not_implemented_for, result_dtype
from gradsh.engine.functions.elementwise_extras import (
    AminmaxBackward0,
    FrexpBackward0,
    LdexpBackward0,
    NextafterBackward0,
)
from gradsh.engine.ops.arguments import (
    TensorLike,
    _check_tensor,
    _plain,
    as_tensor_operand,
    tensor_operand,
    wrap_dim,
)
from gradsh.engine.ops.arithmetic import pow, pow_
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_solvers import _return_type
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = ["float_power", "float_power_", "ldexp", "ldexp_", "gcd", "gcd_", "lcm", "lcm_",
           "nextafter", "nextafter_", "frexp", "aminmax", "isin", "unravel_index"]

_AMINMAX = _return_type("aminmax", ("min", "max"))
_FREXP = _return_type("frexp", ("mantissa", "exponent"))


def _double(value: TensorLike) -> Any:
    if isinstance(value, Tensor):
        return to(value, dtypes.float64)
    return float(value)


@guarded(tensor_first=False)
def float_power(input: TensorLike, exponent: TensorLike) -> Tensor:  # noqa: A002
    """pow in double: both operands cast to float64 first (ToCopyBackward0, then PowBackward)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TorchRuntimeError("float_power needs a tensor")
    return pow(_double(input), _double(exponent))  # type: ignore[no-any-return]


@guarded
def float_power_(input: Tensor, exponent: TensorLike) -> Tensor:  # noqa: A002
    if input.dtype is not dtypes.float64:
        raise TorchRuntimeError(f"the base given to float_power_ has dtype "
                                f"{input.dtype.short} but the operation's result "
                                "requires dtype Double")
    return pow_(input, _double(exponent))  # type: ignore[no-any-return]


def _ldexp_grad_scale(other: Tensor, like: np.ndarray) -> np.ndarray:
    """pow(2, other) as derivatives.yaml's ldexp formula computes it: in integers for an
    integer exponent (0 for a negative one)."""
    e = other._data
    if other.dtype.is_floating_point:
        return like
    return np.where(e >= 0, np.left_shift(np.int64(1), np.clip(e, 0, 62).astype(np.int64)),
                    0).astype(like.dtype)


def _ldexp_scale(input: Tensor, other: Tensor) -> np.ndarray:
    """pow(2., other) as ATen's ldexp computes it (at::mul(self, at::pow(2., other))): the
    power in other's float dtype (the default float for integer exponents), then cast to the
    product's dtype."""
    power = pow(2.0, _plain(other._data, other.device))
    dtype = dtypes.promote_types(input.dtype, power.dtype)
    return power._data.astype(dtype.np, copy=False)  # type: ignore[no-any-return]


@guarded
def ldexp(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "ldexp")
    other = _check_tensor(other, "ldexp", "other", 2)
    scale = _ldexp_scale(input, other)
    return LdexpBackward0.apply(input, other, scale=scale,  # type: ignore[no-any-return]
                                grad_scale=_ldexp_grad_scale(other, scale))


@guarded
def ldexp_(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    other = _check_tensor(other, "ldexp_", "other", 2)
    scale = _ldexp_scale(input, other)
    return apply_inplace(LdexpBackward0, input, other, scale=scale,
                         grad_scale=_ldexp_grad_scale(other, scale))


def _integer_op(name: str, a: Tensor, b: TensorLike) -> np.ndarray:
    other = tensor_operand(b)
    dtype = result_dtype(a, other)
    if dtype.is_floating_point or dtype is dtypes.bool_:
        raise not_implemented_for(f"{name}_cpu", dtype)
    return getattr(np, name)(a._data.astype(dtype.np), other._data.astype(dtype.np))


@guarded
def gcd(input: Tensor, other: TensorLike) -> Tensor:  # noqa: A002
    return _plain(_integer_op("gcd", _check_tensor(input, "gcd"), other), input.device)


@guarded
def lcm(input: Tensor, other: TensorLike) -> Tensor:  # noqa: A002
    return _plain(_integer_op("lcm", _check_tensor(input, "lcm"), other), input.device)


def _write(input: Tensor, values: np.ndarray) -> Tensor:
    if values.shape != tuple(input.shape):
        raise TorchRuntimeError(f"output with shape {list(input.shape)} doesn't match the "
                                f"broadcast shape {list(values.shape)}")
    input._inplace_data(values.astype(input._data.dtype))
    return input


@guarded
def gcd_(input: Tensor, other: TensorLike) -> Tensor:  # noqa: A002
    return _write(input, _integer_op("gcd", input, other))


@guarded
def lcm_(input: Tensor, other: TensorLike) -> Tensor:  # noqa: A002
    return _write(input, _integer_op("lcm", input, other))


@guarded
def nextafter(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "nextafter")
    other = _check_tensor(other, "nextafter", "other", 2)
    # (a binary TensorIterator op: the operands promoted, the kernel floating-point only)
    common = result_dtype(input, other)
    if not common.is_floating_point:
        raise not_implemented_for("nextafter_cpu", common)
    if input.dtype is not common:
        input = to(input, common)
    if other.dtype is not common:
        other = to(other, common)
    return NextafterBackward0.apply(input, other)  # type: ignore[no-any-return]


@guarded
def nextafter_(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    other = _check_tensor(other, "nextafter_", "other", 2)
    return apply_inplace(NextafterBackward0, input, other)


@guarded
def frexp(input: Tensor) -> Any:  # noqa: A002
    input = _check_tensor(input, "frexp")
    if not input.dtype.is_floating_point:
        raise TorchRuntimeError("torch.frexp() only supports floating-point dtypes")
    return _FREXP(*FrexpBackward0.apply_all(input))


@guarded
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> Any:  # noqa: A002
    input = _check_tensor(input, "aminmax")
    if input.numel() == 0:
        raise TorchRuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                                "the operation has no identity.")
    d = None if dim is None else wrap_dim(dim, max(input.ndim, 1))
    if d is not None and input.ndim == 0:
        d = None
    return _AMINMAX(*AminmaxBackward0.apply_all(input, dim=d, keepdim=keepdim))


@guarded(tensor_first=False)
def isin(elements: TensorLike, test_elements: TensorLike, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    values = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(
        test_elements)
    device = (elements if isinstance(elements, Tensor) else test_elements).device
    return _plain(np.isin(values, tests, invert=invert), device)


@guarded
def unravel_index(indices: Tensor, shape: Any) -> tuple[Tensor, ...]:
    indices = _check_tensor(indices, "unravel_index", "indices")
    if indices.dtype.is_floating_point or indices.dtype is dtypes.bool_:
        raise TorchRuntimeError("expected 'indices' to be integer dtype, but got "
                                f"{indices.dtype}")
    dims = (int(shape),) if isinstance(shape, int) else tuple(int(n) for n in shape)
    total = int(np.prod(dims)) if dims else 1
    data = indices._data.astype(np.int64)
    if data.size and (data.min() < -total or data.max() >= total):
        raise TorchRuntimeError("index out of bounds for shape")
    parts = np.unravel_index(np.where(data < 0, data + total, data), dims)
    return tuple(_plain(np.asarray(p, dtype=np.int64), indices.device) for p in parts)
