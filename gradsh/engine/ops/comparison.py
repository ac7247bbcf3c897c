"""Comparisons, logical and bitwise operators: ==, <, &, logical_and, isnan, allclose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import meta
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.functions.common import (broadcast_shapes, check_output_shape, infer_size,
                                           not_implemented_for, result_dtype, xp_of)
from gradsh.engine.functions.comparison import _Bitwise, _Compare
from gradsh.engine.ops.arguments import (OperandTypeError, TensorLike, _check_tensor, _plain,
                                         as_tensor_operand, tensor_operand)
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.tensor import Tensor, apply_inplace, check_inplace

__all__ = [
    "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
    "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_and_",
    "bitwise_or_", "bitwise_xor_", "bitwise_not_", "logical_not", "bitwise_left_shift",
    "bitwise_right_shift", "bitwise_left_shift_", "bitwise_right_shift_",
    "logical_and", "logical_or", "logical_xor", "isnan", "isinf", "isfinite", "equal", "allclose",
]


def _compare(op: str, a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise TorchTypeError("comparison needs at least one tensor")
    a, b = as_tensor_operand(a), as_tensor_operand(b)
    if op in _ORDERING and (a._data.dtype.kind == "c" or b._data.dtype.kind == "c"):
        raise not_implemented_for(_ORDERING[op], result_dtype(a, b))  # complex: no order
    return _Compare.apply(a, b, op=op)


_ORDERING = {"less": "lt_cpu", "less_equal": "le_cpu", "greater": "gt_cpu",
             "greater_equal": "ge_cpu"}


@guarded
def eq(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("equal", input, other)


@guarded
def ne(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("not_equal", input, other)


@guarded
def lt(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("less", input, other)


@guarded
def le(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("less_equal", input, other)


@guarded
def gt(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("greater", input, other)


@guarded
def ge(input: TensorLike, other: TensorLike) -> Tensor:  # noqa: A002  (PyTorch's names)
    return _compare("greater_equal", input, other)


greater = alias(gt, "greater")
greater_equal = alias(ge, "greater_equal")
less = alias(lt, "less")
less_equal = alias(le, "less_equal")
not_equal = alias(ne, "not_equal")


@guarded(tensor_first=False)  # a number first is PyTorch's Scalar-self overload
def bitwise_and(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(b, Tensor):
        a = _check_tensor(a, "bitwise_and")
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_and",
                          kernel="bitwise_and_cpu")


@guarded(tensor_first=False)  # a number first is PyTorch's Scalar-self overload
def bitwise_or(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(b, Tensor):
        a = _check_tensor(a, "bitwise_or")
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_or",
                          kernel="bitwise_or_cpu")


@guarded(tensor_first=False)  # a number first is PyTorch's Scalar-self overload
def bitwise_xor(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(b, Tensor):
        a = _check_tensor(a, "bitwise_xor")
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="bitwise_xor",
                          kernel="bitwise_xor_cpu")


@guarded(tensor_first=False)
def bitwise_left_shift(a: TensorLike, b: TensorLike) -> Tensor:
    """`a << b`: bits shifted out of the type give 0, as in PyTorch (and NumPy)."""
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="left_shift",
                          kernel="lshift_cpu")


@guarded(tensor_first=False)
def bitwise_right_shift(a: TensorLike, b: TensorLike) -> Tensor:
    """`a >> b`: a shift beyond the type fills with the sign, as in PyTorch (and NumPy)."""
    return _Bitwise.apply(as_tensor_operand(a), as_tensor_operand(b), op="right_shift",
                          kernel="rshift_cpu")


@guarded
def bitwise_not(a: Tensor) -> Tensor:
    if a.dtype.is_floating_point:  # (the ~ operator says it in Python's words: _invert)
        raise not_implemented_for("bitwise_not_cpu", a.dtype)
    return _plain(xp_of(a._data).invert(a._data), a.device)


def _invert(a: Tensor) -> Tensor:
    """`~a`: PyTorch's Tensor.__invert__ refuses a floating tensor before its kernel."""
    if isinstance(a, Tensor) and a.dtype.is_floating_point:
        raise TorchTypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return bitwise_not(a)


def _bitwise_inplace(a: Tensor, b: TensorLike, op: str, kernel: str = "") -> Tensor:
    other = as_tensor_operand(b)
    check_output_shape(a, other)
    dtype = result_dtype(a, other)
    if dtype is not a.dtype and dtype.category > a.dtype.category:
        # PyTorch checks the cast before the kernel: `i |= 4.5` on int64 is this error
        raise TorchRuntimeError(f"result type {dtype.short} can't be cast to the desired output "
                                f"type {a.dtype.short}")
    return apply_inplace(_Bitwise, a, other, op=op, kernel=kernel or f"{op}_cpu")


@guarded
def bitwise_and_(a: Tensor, b: TensorLike) -> Tensor:
    """`x &= y`."""
    return _bitwise_inplace(a, b, "bitwise_and")


@guarded
def bitwise_or_(a: Tensor, b: TensorLike) -> Tensor:
    """`x |= y`."""
    return _bitwise_inplace(a, b, "bitwise_or")


@guarded
def bitwise_xor_(a: Tensor, b: TensorLike) -> Tensor:
    """`x ^= y`."""
    return _bitwise_inplace(a, b, "bitwise_xor")


@guarded
def bitwise_left_shift_(a: Tensor, b: TensorLike) -> Tensor:
    """`x <<= y`."""
    return _bitwise_inplace(a, b, "left_shift", "lshift_cpu")


@guarded
def bitwise_right_shift_(a: Tensor, b: TensorLike) -> Tensor:
    """`x >>= y`."""
    return _bitwise_inplace(a, b, "right_shift", "rshift_cpu")


@guarded
def bitwise_not_(a: Tensor) -> Tensor:
    result = bitwise_not(a)
    check_inplace(a)
    a._inplace_data(result._data)
    return a


@guarded
def logical_not(a: Tensor) -> Tensor:
    return _plain(xp_of(a._data).logical_not(a._data), a.device)


def _logical(op: Callable[..., Any], a: Tensor, b: Tensor) -> Tensor:
    a_, b_ = as_tensor_operand(a), tensor_operand(b)
    broadcast_shapes(a_, b_)
    return _plain(op(a_._data, b_._data), a_.device)


@guarded
def logical_and(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_and, a, b)


@guarded
def logical_or(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_or, a, b)


@guarded
def logical_xor(a: Tensor, b: Tensor) -> Tensor:
    return _logical(np.logical_xor, a, b)


@guarded
def isnan(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isnan(a._data) if a.dtype.is_floating_point
                  else xp.zeros(a.shape, dtype=bool), a.device)


@guarded
def isinf(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isinf(a._data) if a.dtype.is_floating_point
                  else xp.zeros(a.shape, dtype=bool), a.device)


@guarded
def isfinite(a: Tensor) -> Tensor:
    xp = xp_of(a._data)
    return _plain(xp.isfinite(a._data) if a.dtype.is_floating_point
                  else xp.ones(a.shape, dtype=bool), a.device)


def _tensor_other(b: Any) -> None:
    """equal and allclose take only a tensor as `other` (the guard names it as PyTorch does)."""
    if not isinstance(b, Tensor):
        raise OperandTypeError(b)


@guarded
def equal(a: Tensor, b: Tensor) -> bool:
    _tensor_other(b)
    if a.device == "meta" or b.device == "meta":
        raise meta.no_kernel("aten::equal")
    return a.shape == b.shape and bool(xp_of(a._data).array_equal(a._data, b._data))


@guarded
def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    _tensor_other(b)
    if a.dtype is not b.dtype:  # (isclose's check: allclose is isclose(...).all())
        raise TorchRuntimeError(f"{a.dtype.short} did not match {b.dtype.short}")
    infer_size(a.shape, b.shape)  # (its broadcast error)
    if a.device == "meta" or b.device == "meta":  # (PyTorch reads the all() with item())
        raise TorchRuntimeError(meta.ITEM_MESSAGE)
    return bool(xp_of(a._data).allclose(a._data, b._data, rtol=rtol, atol=atol,
                                           equal_nan=equal_nan))
