"""Element-wise choices: clamp, maximum, minimum, where, masked_fill (and in place)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError, TorchTypeError
from gradsh.engine.functions.common import infer_size, not_implemented_for, result_dtype, xp_of
from gradsh.engine.functions.selection import (
    ClampBackward0,
    ClampBackward1,
    ClampMaxBackward0,
    ClampMinBackward0,
    MaskedFillBackward0,
    MaskedFillBackward1,
    MaximumBackward0,
    MinimumBackward0,
    WhereBackward0,
)
from gradsh.engine.ops.arguments import (
    TensorLike,
    _c_name,
    _check_tensor,
    _type_name,
    as_tensor_operand,
    checked_fill,
    is_number,
)
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = [
    "clamp", "clip", "clamp_min", "clamp_max", "maximum", "minimum", "where", "masked_fill",
    "clamp_", "clip_", "clamp_min_", "clamp_max_", "masked_fill_",
]


@guarded
def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    a = _check_tensor(a, "clamp")
    if a.dtype.is_complex:
        raise TorchNotImplementedError("clamp is not supported for complex types")
    if min is None and max is None:
        raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    min, max = _number_overload(min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        mixed = (min is not None and not isinstance(min, Tensor)) or (
            max is not None and not isinstance(max, Tensor))
        if mixed and all(_plain_scalar(b) for b in (min, max) if isinstance(b, Tensor)):
            # PyTorch's parser takes a 0-d tensor without grad as a Number: the Number overload
            min, max = (b.item() if isinstance(b, Tensor) else b for b in (min, max))
            return clamp(a, min, max)
        if mixed:
            raise TorchTypeError(
                "clamp() received an invalid combination of arguments - got (Tensor, "
                f"{_type_name(min)}, {_type_name(max)}), but expected one of:\n"
                " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
                " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n"
            )
        # both bounds: ATen's clamp kernel, which has no bool (one bound is clamp_min's or
        # clamp_max's, which have)
        if min is not None and max is not None and result_dtype(a, min, max) is dtypes.bool_:
            raise not_implemented_for("clamp_cpu", dtypes.bool_)
        placeholder = Tensor._make(xp_of(a._data).zeros((), dtype=a._data.dtype), a.device)
        return ClampBackward0.apply(a, min if min is not None else placeholder,
                                       max if max is not None else placeholder,
                                       has_min=min is not None, has_max=max is not None)
    for bound in (min, max):
        if bound is not None and not is_number(bound):
            raise TorchTypeError(
                f"clamp(): argument 'min' must be Number, not {_type_name(bound)}"
            )
    min, max = _integer_bounds(a, min, max)
    return ClampBackward1.apply(a, min=min, max=max)


clip = alias(clamp, "clip")


def _integer_bounds(a: Tensor, low: Any, high: Any) -> tuple[Any, Any]:
    """clamp's number bounds: an integer one takes the result's type where that is an integer
    type, checked (uint8: -7 is 249; 300 into int8 overflows); with a float bound the result
    is float and the integer stays as it is."""
    result = dtypes.result_type([(a.dtype, a.ndim)], [b for b in (low, high) if b is not None])
    return tuple(checked_fill(b, result) if b.__class__ is int else b for b in (low, high))


def _plain_scalar(value: Tensor) -> bool:
    return value.ndim == 0 and not value.requires_grad


@guarded
def clamp_min(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    if isinstance(min, Tensor):
        return clamp(a, min=min)
    a = _check_tensor(a, "clamp_min")
    return ClampMinBackward0.apply(a, min=_integer_bounds(a, min, None)[0])


@guarded
def clamp_max(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    if isinstance(max, Tensor):
        return clamp(a, max=max)
    a = _check_tensor(a, "clamp_max")
    return ClampMaxBackward0.apply(a, max=_integer_bounds(a, None, max)[1])


@guarded
def maximum(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "maximum")
    _check_tensor(b, "maximum", "other", 2)
    return MaximumBackward0.apply(a, b)


@guarded
def minimum(a: Tensor, b: Tensor) -> Tensor:
    _check_tensor(a, "minimum")
    _check_tensor(b, "minimum", "other", 2)
    return MinimumBackward0.apply(a, b)


@guarded(tensor_first=False)
def where(condition: Tensor, input: TensorLike | None = None,  # noqa: A002
          other: TensorLike | None = None) -> Any:
    """where(condition, input, other); where(condition) alone is nonzero(as_tuple=True)."""
    condition = _check_tensor(condition, "where", "condition")
    if input is None and other is None:
        from gradsh.engine.ops.indexing import nonzero  # indexing imports this module

        return nonzero(condition, as_tuple=True)
    if condition.dtype is not dtypes.bool_:
        raise TorchRuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype.short}"
        )
    for number, tensor in ((input, other), (other, input)):
        if number.__class__ is int and isinstance(tensor, Tensor):
            checked_fill(number, tensor.dtype)  # the tensor's integer type takes it, checked
    return WhereBackward0.apply(as_tensor_operand(input), as_tensor_operand(other),
                                   condition=condition)


@guarded
def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    number, tensor_value = _fill_value(value)
    _check_bool_mask(mask)
    infer_size(mask.shape, a.shape)  # expand_outplace(mask, self): the mask is tensor a
    _check_mask_device(a, mask)
    number = checked_fill(number, a.dtype)
    if tensor_value is not None:  # masked_fill.Tensor: the value is an input (it gets a grad)
        return MaskedFillBackward1.apply(a, tensor_value, mask=mask)
    return MaskedFillBackward0.apply(a, mask=mask, value=number)


def _fill_value(value: Any) -> tuple[Any, Tensor | None]:
    """masked_fill's value as a number, and the 0-d tensor it came from (None for a number)."""
    if not isinstance(value, Tensor):
        return value, None
    if value.ndim != 0:
        raise TorchRuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                                f"got tensor with {value.ndim} dimension(s).")
    return value.item(), value


def _check_bool_mask(mask: Tensor) -> None:
    if mask.dtype is not dtypes.bool_:
        raise TorchRuntimeError(f"masked_fill_ only supports boolean masks, but got mask with "
                                f"dtype {_c_name(mask.dtype)}")


def _check_mask_device(a: Tensor, mask: Tensor) -> None:
    if mask.device != a.device:
        raise TorchRuntimeError(
            f"expected self and mask to be on the same device, but got mask on {mask.device} "
            f"and self on {a.device}"
        )


# The C++ type names (GCC's) that clamp_'s cast check quotes for an integral tensor.
_CPP_TYPE_NAMES = {"int64": "long int", "int32": "int", "int16": "short int",
                   "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _number_overload(min: Any, max: Any) -> tuple[Any, Any]:  # noqa: A002
    """A Python number with a 0-dim tensor that does not require grad (`gj.clamp_(0, gain[3] -
    1)`): PyTorch's parser takes the tensor as a Number, so the call is the Number overload's;
    other mixes stay as given (the Tensor path refuses them, as PyTorch does)."""
    for number, tensor in ((min, max), (max, min)):
        if isinstance(tensor, Tensor) and is_number(number) and tensor.ndim == 0 and \
                not tensor.requires_grad:
            value = tensor.item()
            return (number, value) if number is min else (value, number)
    return min, max


def _check_scalar_bounds(a: Tensor, *bounds: Any) -> None:
    """clamp_ with Python number bounds on an integral tensor: PyTorch's check that the result
    type casts back, worded with the tensor's C++ type name (`long int`), not its short one."""
    scalars = [b for b in bounds if b is not None and not isinstance(b, Tensor)]
    if not scalars or a.dtype.is_floating_point or a.dtype.name not in _CPP_TYPE_NAMES:
        return
    result = dtypes.result_type([(a.dtype, a.ndim)], scalars)
    if result.category > a.dtype.category:
        raise TorchRuntimeError(f"result type {result.short} can't be cast to the desired output "
                                f"type {_CPP_TYPE_NAMES[a.dtype.name]}")


@guarded
def clamp_(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    min, max = _number_overload(min, max)
    _check_scalar_bounds(a, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is not None and max is not None and result_dtype(a, min, max) is dtypes.bool_:
            raise not_implemented_for("clamp_cpu", dtypes.bool_)  # (as clamp's)
        placeholder = Tensor._make(xp_of(a._data).zeros((), dtype=a._data.dtype), a.device)
        return apply_inplace(ClampBackward0, a, min if min is not None else placeholder,
                             max if max is not None else placeholder,
                             has_min=min is not None, has_max=max is not None)
    if isinstance(a, Tensor) and not a.dtype.is_floating_point:
        # clamp's meta allows no promotion in place, and names the dtype as C++ does
        promoted = dtypes.result_type([(a.dtype, a.ndim)], [b for b in (min, max)
                                                           if b is not None])
        if promoted is not a.dtype:
            raise TorchRuntimeError(f"result type {promoted.short} can't be cast to the "
                                    f"desired output type {_c_name(a.dtype)}")
    min, max = _integer_bounds(a, min, max)
    return apply_inplace(ClampBackward1, a, min=min, max=max)


clip_ = alias(clamp_, "clip_")


@guarded
def clamp_min_(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    _check_scalar_bounds(a, min)
    return apply_inplace(ClampMinBackward0, a, min=min)


@guarded
def clamp_max_(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    _check_scalar_bounds(a, max)
    return apply_inplace(ClampMaxBackward0, a, max=max)


@guarded
def masked_fill_(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    number, tensor_value = _fill_value(value)
    _check_bool_mask(mask)
    if infer_size(a.shape, mask.shape) != a.shape:
        raise TorchRuntimeError(f"output with shape {list(a.shape)} doesn't match the "
                                f"broadcast shape {list(infer_size(a.shape, mask.shape))}")
    _check_mask_device(a, mask)
    number = checked_fill(number, a.dtype)
    if tensor_value is not None:
        return apply_inplace(MaskedFillBackward1, a, tensor_value, mask=mask)
    return apply_inplace(MaskedFillBackward0, a, mask=mask, value=number)
