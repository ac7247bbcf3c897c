"""The less common element-wise math (asinh ... copysign, fmax/fmin), the NaN-aware reductions
(nansum, nanmean), running extrema (cummax, cummin) and the tests (isclose, isneginf ...)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import (
    broadcast_shapes,
    c_order,
    infer_size,
    not_implemented_for,
    preserve_layout,
    result_dtype,
)
from gradsh.engine.functions.numerics import (
    AngleBackward0,
    AcoshBackward0,
    AcoshBackward1,
    AsinhBackward0,
    AsinhBackward1,
    AtanhBackward0,
    AtanhBackward1,
    CopysignBackward0,
    CopysignBackward1,
    CummaxBackward0,
    CumminBackward0,
    Deg2RadBackward0,
    ErfcBackward0,
    FmaxBackward0,
    FminBackward0,
    HypotBackward0,
    Logaddexp2Backward0,
    LogaddexpBackward0,
    NansumBackward0,
    Rad2DegBackward0,
)
from gradsh.engine.ops.arguments import (
    RETURN_TYPES,
    _check_tensor,
    _new,
    _plain,
    as_tensor_operand,
    is_number,
    normalize_dims,
    tensor_operand,
    wrap_dim,
)
from gradsh.engine.ops.arithmetic import div
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.ops.unary import trunc, trunc_
from gradsh.engine.inplace import apply_inplace
from gradsh.engine.variable import Tensor

__all__ = [
    "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "asinh_", "acosh_", "atanh_",
    "arcsinh_", "arccosh_", "arctanh_", "erfc", "erfc_", "deg2rad", "rad2deg", "deg2rad_",
    "rad2deg_", "hypot", "hypot_", "logaddexp", "logaddexp2", "copysign", "copysign_", "fmax",
    "fmin", "fix", "fix_", "nansum", "nanmean", "cummax", "cummin", "isclose", "isneginf",
    "isposinf", "isreal", "signbit", "angle",
]


def _unary(cls: type, fname: str, inplace: bool = False) -> Callable[[Tensor], Tensor]:
    def op(a: Tensor) -> Tensor:
        a = _check_tensor(a, fname)
        return apply_inplace(cls, a) if inplace else cls.apply(a)

    op.__name__ = fname
    op.__doc__ = f"torch.{fname} ({cls.node_name})."
    return guarded(op)


asinh = _unary(AsinhBackward0, "asinh")
angle = _unary(AngleBackward0, "angle")
acosh = _unary(AcoshBackward0, "acosh")
atanh = _unary(AtanhBackward0, "atanh")
erfc = _unary(ErfcBackward0, "erfc")
deg2rad = _unary(Deg2RadBackward0, "deg2rad")
rad2deg = _unary(Rad2DegBackward0, "rad2deg")
asinh_ = _unary(AsinhBackward1, "asinh_", inplace=True)
acosh_ = _unary(AcoshBackward1, "acosh_", inplace=True)
atanh_ = _unary(AtanhBackward1, "atanh_", inplace=True)
erfc_ = _unary(ErfcBackward0, "erfc_", inplace=True)
deg2rad_ = _unary(Deg2RadBackward0, "deg2rad_", inplace=True)
rad2deg_ = _unary(Rad2DegBackward0, "rad2deg_", inplace=True)
arcsinh = alias(asinh, "arcsinh")
arccosh = alias(acosh, "arccosh")
arctanh = alias(atanh, "arctanh")
arcsinh_ = alias(asinh_, "arcsinh_")
arccosh_ = alias(acosh_, "arccosh_")
arctanh_ = alias(atanh_, "arctanh_")
fix = alias(trunc, "fix")


fix_ = alias(trunc_, "fix_")


def _binary(cls: type, fname: str, inplace: bool = False,
            scalar_cls: type | None = None, floating: bool = False) -> Callable[..., Tensor]:
    """A binary op; with `scalar_cls`, a number as other is that node's parameter, without,
    other must be a tensor (PyTorch has no Number overload). A `floating` op's kernel takes
    only floating dtypes: integer or bool operands promoting to an integer are refused."""

    def op(a: Tensor, other: Any) -> Tensor:
        a = _check_tensor(a, fname)
        if scalar_cls is not None and is_number(other):
            if inplace:
                return apply_inplace(scalar_cls, a, other=float(other))
            return scalar_cls.apply(a, other=float(other))
        b = tensor_operand(other)
        if floating:
            broadcast_shapes(a, b)  # (TensorIterator's shapes come before the kernel's dtypes)
            dtype = result_dtype(a, b)
            if not dtype.is_floating_point:
                raise not_implemented_for(f"{fname.rstrip('_')}_cpu", dtype)
        return apply_inplace(cls, a, b) if inplace else cls.apply(a, b)

    op.__name__ = fname
    op.__doc__ = f"torch.{fname} ({cls.node_name})."
    return guarded(op)


hypot = _binary(HypotBackward0, "hypot", floating=True)
hypot_ = _binary(HypotBackward0, "hypot_", inplace=True, floating=True)
logaddexp = _binary(LogaddexpBackward0, "logaddexp", floating=True)
logaddexp2 = _binary(Logaddexp2Backward0, "logaddexp2", floating=True)
copysign = _binary(CopysignBackward0, "copysign", scalar_cls=CopysignBackward1)
copysign_ = _binary(CopysignBackward0, "copysign_", inplace=True, scalar_cls=CopysignBackward1)
fmax = _binary(FmaxBackward0, "fmax")
fmin = _binary(FminBackward0, "fmin")


@guarded
def nansum(a: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    a = _check_tensor(a, "nansum")
    if dtype is None and not a.dtype.is_floating_point:
        dtype = dtypes.int64  # as sum: integers and bools are summed in int64
    if dtype is not None:
        a = a.to(dtype)
    dims = None if dim is None else (normalize_dims(dim, a.ndim) or None)
    return NansumBackward0.apply(a, dim=dims, keepdim=keepdim if dims is not None else False)


@guarded
def nanmean(a: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """nanmean: nansum over the count of non-NaN elements, as PyTorch composes it."""
    a = _check_tensor(a, "nanmean")
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError("nanmean(): expected input to have floating point or complex "
                                f"dtype but got {a.dtype.short}")
    total = nansum(a, dim, keepdim, dtype=dtype)
    dims = None if dim is None else normalize_dims(dim, a.ndim)
    xp_count = (~np.isnan(np.asarray(a._data))).sum(axis=dims, keepdims=keepdim and dims
                                                     is not None)
    count = _new(np.asarray(xp_count, dtype=np.int64), dtypes.int64, a.device, False)
    return div(total, count)


def _running_extremum(cls: type, fname: str, a: Tensor, dim: int) -> Any:
    a = _check_tensor(a, fname)
    d = wrap_dim(dim, a.ndim)
    data = np.asarray(a._data)
    if a.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
    else:
        # the index of the running extremum: the last position where it was reached, as
        # PyTorch's kernel keeps (>= for max, <= for min) while scanning
        moved = np.moveaxis(data, d, -1)
        better = np.greater_equal if cls is CummaxBackward0 else np.less_equal
        idx = np.zeros(moved.shape, dtype=np.int64)
        best = moved[..., 0].copy()
        for k in builtins.range(1, moved.shape[-1]):
            take = better(moved[..., k], best) | np.isnan(moved[..., k])
            take &= ~np.isnan(best) | np.isnan(moved[..., k])
            best = np.where(take, moved[..., k], best)
            idx[..., k] = np.where(take, k, idx[..., k - 1])
        indices = c_order(np.moveaxis(idx, -1, d))  # (a fresh contiguous tensor in ATen)
    index_tensor = _plain(indices, a.device)
    values = cls.apply(a, dim=d, indices=index_tensor)
    kind = "cummax" if cls is CummaxBackward0 else "cummin"
    return RETURN_TYPES[kind](values, index_tensor)


@guarded
def cummax(a: Tensor, dim: int) -> Any:
    return _running_extremum(CummaxBackward0, "cummax", a, dim)


@guarded
def cummin(a: Tensor, dim: int) -> Any:
    return _running_extremum(CumminBackward0, "cummin", a, dim)


@guarded
def isclose(a: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    a = _check_tensor(a, "isclose")
    b = _check_tensor(other, "isclose", "other", 2)
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(f"{a.dtype.short} did not match {b.dtype.short}")
    infer_size(a.shape, b.shape)  # (its broadcast error, before NumPy's)
    x, y = np.asarray(a._data), np.asarray(b._data)
    return _plain(np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan), a.device)


@guarded
def isneginf(a: Tensor) -> Tensor:
    return _plain(np.isneginf(np.asarray(_check_tensor(a, "isneginf")._data)), a.device)


@guarded
def isposinf(a: Tensor) -> Tensor:
    return _plain(np.isposinf(np.asarray(_check_tensor(a, "isposinf")._data)), a.device)


@guarded
def isreal(a: Tensor) -> Tensor:
    # (ones_like(self, kBool): the input's layout)
    ones = np.ones(_check_tensor(a, "isreal").shape, dtype=bool)
    if a._data.dtype.kind == "c":  # imag == 0
        ones = np.asarray(a._data).imag == 0
    return _plain(preserve_layout(ones, a._data), a.device)


@guarded
def signbit(a: Tensor) -> Tensor:
    return _plain(np.signbit(np.asarray(_check_tensor(a, "signbit")._data)), a.device)
