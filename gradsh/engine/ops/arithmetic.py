"""Binary arithmetic: add, sub, mul, div, remainder, pow, addcmul, lerp ... and a += b."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import (
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    warn,
)
from gradsh.engine.functions.arithmetic import (
    AddBackward0,
    AddBackward1,
    AddcdivBackward0,
    AddcmulBackward0,
    Atan2Backward0,
    DivBackward0,
    DivBackward1,
    DivBackward2,
    FloorDivideNotImplemented,
    FmodBackward0,
    FmodBackward1,
    LerpBackward0,
    LinalgCrossBackward0,
    LerpBackward1,
    MulBackward0,
    MulBackward1,
    PowBackward0,
    PowBackward1,
    PowBackward2,
    RemainderBackward0,
    RemainderBackward1,
    RsubBackward1,
    SubBackward0,
    SubBackward1,
    XlogyBackward0,
    _RemainderScalarTensor,
)
from gradsh.engine.functions.common import check_output_shape, infer_size, result_dtype, xp_of
from gradsh.engine.functions.grad_ops import ScalarOverloads
from gradsh.engine.ops.arguments import (
    Number,
    OperandTypeError,
    TensorLike,
    _c_name,
    _check_tensor,
    _type_name,
    apply_node,
    as_tensor_operand,
    checked_fill,
    is_number,
    tensor_operand,
    wrap_dim,
)
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.tensor import Function, Tensor, _GradMode, _once, apply_inplace

__all__ = [
    "add", "sub", "rsub", "mul", "div", "true_divide", "divide", "multiply", "subtract",
    "floor_divide", "remainder", "fmod", "pow", "square", "atan2", "arctan2", "lerp", "xlogy",
    "addcmul", "addcdiv", "add_", "sub_", "mul_", "div_", "pow_", "square_", "lerp_",
    "addcmul_", "addcdiv_", "true_divide_", "remainder_", "fmod_", "atan2_", "xlogy_",
    "subtract_", "multiply_", "divide_", "arctan2_", "cross",
]


def _scalar_overload(other: Any) -> bool:
    """Inside a create_graph formula a Python number is a C++ Scalar argument."""
    return ScalarOverloads.active and is_number(other)


def _alpha_number(alpha: Any, fname: str) -> Any:
    """A 0-d tensor that needs no grad passes for a number, as PyTorch's argument parser
    takes it for a Scalar (`q.add_(y, alpha=-al)` in L-BFGS)."""
    if alpha.ndim or alpha.requires_grad:
        raise TorchTypeError(f"{fname}(): argument 'alpha' must be Number, not Tensor")
    return alpha.item()


def _check_alpha(a: Tensor, b: TensorLike, alpha: Any) -> None:
    """PyTorch's alpha_check: the scale must fit the result's kind."""
    if alpha == 1 and not isinstance(alpha, bool):
        return
    if not is_number(alpha):
        raise TorchTypeError(f"alpha must be a number, not {_type_name(alpha)}")
    dtype = result_dtype(a, as_tensor_operand(b))
    if (isinstance(alpha, bool) and dtype is not dtypes.bool_ or isinstance(alpha, float)
            and not dtype.is_floating_point) and isinstance(b, Tensor):
        infer_size(a.shape, b.shape)  # (TensorIterator's broadcast error comes first)
    if isinstance(alpha, bool) and dtype is not dtypes.bool_:
        raise TorchRuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not dtype.is_floating_point:
        raise TorchRuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if alpha.__class__ is int:  # converted to the result's type, checked
        checked_fill(alpha, dtype)


@guarded(tensor_first=False)
def add(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if alpha.__class__ is Tensor:
        alpha = _alpha_number(alpha, "add")
    if a.__class__ is Tensor and alpha.__class__ is int and alpha == 1:
        # `x + y` and `x + 0.5`, without the checks below (which they pass): the hot path
        if b.__class__ is Tensor:
            return AddBackward0.apply(a, b, alpha=alpha)
        if b.__class__ is float and not ScalarOverloads.active:
            return AddBackward0.apply(a, _shared_float(b), alpha=alpha)
    if not isinstance(a, Tensor):
        # torch.add(2, x): the number is wrapped as the first operand (`2 + x` is x.__radd__,
        # which keeps x first); two numbers give a 0-d tensor.
        if not isinstance(b, Tensor):
            return add(Tensor.wrap_scalar(_number(a, "add")), b, alpha=alpha)
        _check_alpha(b, a, alpha)
        return AddBackward0.apply(Tensor.wrap_scalar(_number(a, "add")), b, alpha=alpha)
    a = _check_tensor(a, "add")
    _check_alpha(a, b, alpha)
    if _scalar_overload(b):
        return AddBackward1.apply(a, other=b, alpha=alpha)
    return AddBackward0.apply(a, as_tensor_operand(b), alpha=alpha)


_SHARED: dict[float, Tensor] = {}  # see _shared_float
_wrap_scalar = Tensor.wrap_scalar  # bound once: the classmethod binds anew at each call


def _shared_float(value: float) -> Tensor:
    """`value` wrapped as an operand that the op reads and keeps nothing of (it saves no
    tensor: `x + value`, `x * value` when x needs no gradient), one tensor per value: no one
    else ever sees it. Zero (whose sign a dict key would lose) and NaN are wrapped afresh."""
    t = _SHARED.get(value)
    if t is None:
        t = _wrap_scalar(value)
        if value != 0.0 and value == value:
            if len(_SHARED) >= 256:
                _SHARED.clear()
            _SHARED[value] = t
    return t


@guarded(tensor_first=False)
def sub(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if alpha.__class__ is Tensor:
        alpha = _alpha_number(alpha, "sub")
    if not isinstance(a, Tensor):
        # torch.sub(2, x) is SubBackward0 with the number wrapped first; `2 - x` is rsub.
        if not isinstance(b, Tensor):
            return sub(Tensor.wrap_scalar(_number(a, "sub")), b, alpha=alpha)
        _check_bool_sub(a, b)
        _check_alpha(b, a, alpha)
        return SubBackward0.apply(Tensor.wrap_scalar(_number(a, "sub")), b, alpha=alpha)
    _check_bool_sub(a, b)
    _check_alpha(a, b, alpha)
    if _scalar_overload(b):
        return SubBackward1.apply(a, other=b, alpha=alpha)
    return SubBackward0.apply(a, as_tensor_operand(b), alpha=alpha)


def _check_bool_sub(a: TensorLike, b: TensorLike) -> None:
    def is_bool(x: TensorLike) -> bool:
        return (isinstance(x, Tensor) and x.dtype is dtypes.bool_) or isinstance(x, bool)

    if is_bool(a) and is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if is_bool(a) or is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


@guarded(tensor_first=False)
def rsub(a: Tensor, other: TensorLike, alpha: Number = 1) -> Tensor:
    if alpha.__class__ is Tensor:
        alpha = _alpha_number(alpha, "rsub")
    """`other - a`."""
    if isinstance(other, Tensor):
        return sub(other, a, alpha=alpha)
    if not is_number(other):
        raise OperandTypeError(other)
    _check_bool_sub(a, other)
    if ScalarOverloads.active:
        return SubBackward0.apply(scalar_filled(a, other), a, alpha=alpha)
    return RsubBackward1.apply(a, other=other, alpha=alpha)


def scalar_filled(a: Tensor, number: Number) -> Tensor:
    """A formula's C++ `number - t` and `number / t`: empty_like(t).fill_(number), then the
    in-place op (SubBackward0 / DivBackward0, the filled tensor outside the graph)."""
    data = a._data
    return Tensor._make(xp_of(data).full(data.shape, number, dtype=data.dtype), a.device)


@guarded(tensor_first=False)
def mul(a: TensorLike, b: TensorLike) -> Tensor:
    if a.__class__ is Tensor:
        # `x * y` and `x * 0.5`, without the checks below (which they pass): the hot path
        if b.__class__ is Tensor:
            return MulBackward0.apply(a, b)
        if b.__class__ is float and not ScalarOverloads.active:
            if a._requires_grad or a._grad_fn is not None or a._base is not None:
                return MulBackward0.apply(a, _wrap_scalar(b))  # (which it may save)
            return MulBackward0.apply(a, _shared_float(b))
    if not isinstance(a, Tensor):
        # torch.mul(2, x): the number wrapped as the first operand (`2 * x` keeps x first).
        if not isinstance(b, Tensor):
            return mul(Tensor.wrap_scalar(_number(a, "mul")), b)
        return MulBackward0.apply(Tensor.wrap_scalar(_number(a, "mul")), b)
    a = _check_tensor(a, "mul")
    if _scalar_overload(b):
        return MulBackward1.apply(a, other=b)
    return MulBackward0.apply(a, as_tensor_operand(b))


_NO_MODE: Any = object()  # div's rounding_mode not given


@guarded(tensor_first=False)
def div(a: TensorLike, b: TensorLike, rounding_mode: Any = _NO_MODE) -> Tensor:
    if rounding_mode is not _NO_MODE:  # (given, even as None: PyTorch's DivBackward2)
        _check_rounding_mode(rounding_mode)
        if not isinstance(a, Tensor):
            a = Tensor.wrap_scalar(_number(a, "div"))
        return DivBackward2.apply(a, as_tensor_operand(b), rounding_mode=rounding_mode)
    if not isinstance(a, Tensor):
        # torch.div(2, x): DivBackward0 with the number wrapped first (`2 / x` is
        # x.__rtruediv__, see _rtruediv).
        return DivBackward0.apply(Tensor.wrap_scalar(_number(a, "div")),
                                     as_tensor_operand(b))
    if _scalar_overload(b):
        return DivBackward1.apply(a, other=b)
    return DivBackward0.apply(a, as_tensor_operand(b))


true_divide = alias(div, "true_divide")
divide = alias(div, "divide")
multiply = alias(mul, "multiply")
subtract = alias(sub, "subtract")


@guarded(tensor_first=False)
def floor_divide(a: TensorLike, b: TensorLike) -> Tensor:
    """floor_divide is not differentiable: a node named NotImplemented, with an edge for each
    operand that requires grad."""
    if not isinstance(a, Tensor):
        _check_tensor(b, "floor_divide", "other", 2)
        left, right = Tensor.wrap_scalar(_number(a, "floor_divide")), b
    elif isinstance(b, Tensor):
        left, right = a, b
    else:
        left, right = a, Tensor.wrap_scalar(_number(b, "floor_divide"))
    inputs = [t for t in (left, right) if t.requires_grad] or [t for t in (left, right)
                                                               if not t._wrapped][:1]
    return FloorDivideNotImplemented.apply(*inputs, left=left, right=right)


def _rfloordiv(self: Tensor, other: TensorLike) -> Tensor:
    return floor_divide(other, self)


@guarded(tensor_first=False)
def remainder(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(a, Tensor):
        return _RemainderScalarTensor.apply(_check_tensor(b, "remainder", "other", 2), other=a)
    if isinstance(b, Tensor):
        return RemainderBackward1.apply(a, b)
    return RemainderBackward0.apply(a, other=_number(b, "remainder"))


@guarded
def fmod(a: Tensor, b: TensorLike) -> Tensor:
    a = _check_tensor(a, "fmod")
    if isinstance(b, Tensor):
        return FmodBackward1.apply(a, b)
    return FmodBackward0.apply(a, other=_number(b, "fmod"))


def _number(value: Any, fname: str) -> Number:
    if not is_number(value):
        raise TorchTypeError(f"{fname}() received an invalid combination of arguments - got "
                             f"({_type_name(value)})")
    return value


@guarded(tensor_first=False)
def pow(a: TensorLike, exponent: TensorLike) -> Tensor:  # noqa: A001 (torch.pow)
    if isinstance(a, Tensor) and is_number(exponent):
        if exponent.__class__ is int:  # an integer tensor's type takes it, checked
            checked_fill(exponent, a.dtype)
        return PowBackward0.apply(a, exponent=exponent)
    if isinstance(a, Tensor) and isinstance(exponent, Tensor):
        return PowBackward1.apply(a, exponent)
    if is_number(a) and isinstance(exponent, Tensor):
        return PowBackward2.apply(exponent, base=a)
    raise TorchTypeError(
        f"pow() received an invalid combination of arguments - got ({_type_name(a)}, "
        f"{_type_name(exponent)})"
    )


@guarded
def square(a: Tensor) -> Tensor:
    return pow(_check_tensor(a, "square"), 2)


@guarded
def atan2(a: Tensor, b: Tensor) -> Tensor:
    a = _check_tensor(a, "atan2")
    b = tensor_operand(b)
    return Atan2Backward0.apply(a, b)


arctan2 = alias(atan2, "arctan2")


@guarded
def lerp(start: Tensor, end: Tensor, weight: Any) -> Tensor:
    start = _check_tensor(start, "lerp")
    end = _check_tensor(end, "lerp", "end", 2)
    if start.dtype is not end.dtype:
        raise TorchRuntimeError(f"expected dtype {_c_name(start.dtype)} for `end` but got "
                                f"dtype {_c_name(end.dtype)}")
    if not isinstance(weight, Tensor):
        if not start.dtype.is_floating_point:
            raise TorchNotImplementedError(
                f"\"lerp_kernel_scalar\" not implemented for '{start.dtype.short}'")
        return LerpBackward0.apply(start, end, weight=float(weight))
    # A 0-d weight of any dtype passes (its value is read in the math type, as a Scalar's)
    if weight.ndim > 0 and weight.dtype is not start.dtype:
        raise TorchRuntimeError(f"expected dtype {_c_name(start.dtype)} for `weight` but got "
                                f"dtype {_c_name(weight.dtype)}")
    if weight.ndim == 0 and weight.dtype is not start.dtype:
        # TensorIterator's common dtype takes a 0-d weight in by its priority group: every
        # operand 0-d, or integers with a float weight, compute in the weight's dtype
        common = dtypes.result_type([(start.dtype, start.ndim), (end.dtype, end.ndim),
                                     (weight.dtype, 0)], [])
        if common is not start.dtype and common.is_floating_point:
            start, end = start.to(common), end.to(common)
    if not start.dtype.is_floating_point:
        raise TorchNotImplementedError(
            f"\"lerp_kernel_tensor\" not implemented for '{start.dtype.short}'")
    return LerpBackward1.apply(start, end, weight)


@guarded
def lerp_(start: Tensor, end: Tensor, weight: Any) -> Tensor:
    end = _check_tensor(end, "lerp_", "end", 1)
    if start.dtype is not end.dtype:
        raise TorchRuntimeError(f"expected dtype {_c_name(start.dtype)} for `end` but got "
                                f"dtype {_c_name(end.dtype)}")
    if not isinstance(weight, Tensor):
        return apply_inplace(LerpBackward0, start, end, weight=float(weight))
    if weight.ndim > 0 and weight.dtype is not start.dtype:
        raise TorchRuntimeError(f"expected dtype {_c_name(start.dtype)} for `weight` but got "
                                f"dtype {_c_name(weight.dtype)}")
    if not start.dtype.is_floating_point:
        raise TorchRuntimeError(f"result type {weight.dtype.short} can't be cast to the "
                                f"desired output type {start.dtype.short}")
    return apply_inplace(LerpBackward1, start, end, weight)


@guarded(tensor_first=False)  # xlogy.Scalar_Self: torch.special.xlogy(2, y)
def xlogy(a: TensorLike, b: TensorLike) -> Tensor:
    a = as_tensor_operand(a) if not isinstance(a, Tensor) else a
    return XlogyBackward0.apply(a, as_tensor_operand(b))


def _addc(cls: type[Function], fname: str, a: Tensor, tensor1: Tensor, tensor2: Tensor,
          value: Number, inplace: bool) -> Tensor:
    a = _check_tensor(a, fname)
    t1 = _check_tensor(tensor1, fname, "tensor1", 2)
    t2 = _check_tensor(tensor2, fname, "tensor2", 3)
    if cls is AddcdivBackward0 and not t1.dtype.is_floating_point \
            and not t2.dtype.is_floating_point:
        raise TorchRuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic "
            "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
            "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
            "tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    infer_size(infer_size(a.shape, t1.shape), t2.shape)
    return apply_node(inplace, cls, a, t1, t2, value=value)


@guarded
def addcmul(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    return _addc(AddcmulBackward0, "addcmul", a, tensor1, tensor2, value, inplace=False)


@guarded
def addcmul_(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    return _addc(AddcmulBackward0, "addcmul_", a, tensor1, tensor2, value, inplace=True)


@guarded
def addcdiv(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    return _addc(AddcdivBackward0, "addcdiv", a, tensor1, tensor2, value, inplace=False)


@guarded
def addcdiv_(a: Tensor, tensor1: Tensor, tensor2: Tensor, value: Number = 1) -> Tensor:
    return _addc(AddcdivBackward0, "addcdiv_", a, tensor1, tensor2, value, inplace=True)


@guarded
def add_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    if alpha.__class__ is Tensor:
        alpha = _alpha_number(alpha, "add_")
    _check_alpha(a, b, alpha)
    if getattr(b, "is_sparse", False) and not (_GradMode.enabled and (
            a.requires_grad or b.requires_grad)):
        return _add_sparse_into(a, b, alpha)
    return apply_inplace(AddBackward0, a, as_tensor_operand(b), alpha=alpha)


def _add_sparse_into(a: Tensor, b: Tensor, alpha: Number) -> Tensor:
    """dense.add_(sparse) (sparse.add_(sparse) is the sparse tensor's own method): each stored
    entry in stored order, as ATen's add_out_dense_sparse_cpu."""
    from gradsh.engine.functions.sparse import coo_of
    from gradsh.engine.ops.sparse_grad import add_dense_sparse

    if tuple(a.shape) != tuple(b.shape):
        raise TorchRuntimeError(f"add: expected 'self' and 'other' to have same size, but self "
                                f"has size {list(a.shape)} while other has size "
                                f"{list(b.shape)} (FYI: dense-sparse addition does not "
                                "currently support broadcasting)")
    a._inplace_data(add_dense_sparse(a._data, coo_of(b), alpha))
    return a


@guarded
def sub_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    if alpha.__class__ is Tensor:
        alpha = _alpha_number(alpha, "sub_")
    _check_bool_sub(a, b)
    return apply_inplace(SubBackward0, a, as_tensor_operand(b), alpha=alpha)


@guarded
def mul_(a: Tensor, b: TensorLike) -> Tensor:
    return apply_inplace(MulBackward0, a, as_tensor_operand(b))


def _check_rounding_mode(rounding_mode: Any) -> None:
    if rounding_mode not in (None, "floor", "trunc"):
        raise TorchRuntimeError("div expected rounding_mode to be one of None, 'trunc', or "
                                f"'floor' but found '{rounding_mode}'")


@guarded
def div_(a: Tensor, b: TensorLike, rounding_mode: Any = _NO_MODE) -> Tensor:
    if rounding_mode is not _NO_MODE:
        _check_rounding_mode(rounding_mode)
        return apply_inplace(DivBackward2, a, as_tensor_operand(b), rounding_mode=rounding_mode)
    return apply_inplace(DivBackward0, a, as_tensor_operand(b))


@guarded
def pow_(a: Tensor, exponent: TensorLike) -> Tensor:
    if isinstance(exponent, Tensor):
        return apply_inplace(PowBackward1, a, exponent)
    return apply_inplace(PowBackward0, a, exponent=exponent)


@guarded
def square_(a: Tensor) -> Tensor:
    return pow_(a, 2)


@guarded
def remainder_(a: Tensor, other: TensorLike) -> Tensor:
    if isinstance(other, Tensor):
        check_output_shape(a, other)  # (before the kernel's ZeroDivisionError)
        return apply_inplace(RemainderBackward1, a, other)
    return apply_inplace(RemainderBackward0, a, other=_number(other, "remainder_"))


@guarded
def fmod_(a: Tensor, other: TensorLike) -> Tensor:
    if isinstance(other, Tensor):
        return apply_inplace(FmodBackward1, a, other)
    return apply_inplace(FmodBackward0, a, other=_number(other, "fmod_"))


@guarded
def atan2_(a: Tensor, other: Tensor) -> Tensor:
    return apply_inplace(Atan2Backward0, a, tensor_operand(other))


@guarded
def xlogy_(a: Tensor, other: TensorLike) -> Tensor:
    return apply_inplace(XlogyBackward0, a, as_tensor_operand(other))


arctan2_ = alias(atan2_, "arctan2_")
true_divide_ = alias(div_, "true_divide_")
divide_ = alias(div_, "divide_")
multiply_ = alias(mul_, "multiply_")
subtract_ = alias(sub_, "subtract_")


@guarded
def cross(a: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """torch.cross: without dim, the first dimension of size 3 (deprecated, with PyTorch's
    warning); LinalgCrossBackward0 either way."""
    a = _check_tensor(a, "cross")
    b = _check_tensor(other, "cross", "other", 2)
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(f"expected scalar type {a.dtype.short} but found "
                                f"{b.dtype.short}")
    if dim is None and "cross_dim" not in _once:  # TORCH_WARN_ONCE
        _once.add("cross_dim")
        warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
             "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
             "dim will change to agree with that of linalg.cross in a future release.")
    if dim is None:
        sizes = [d for d in range(a.ndim) if a.shape[d] == 3]
        if not sizes:
            raise TorchRuntimeError("no dimension of size 3 in input")
        dim = sizes[0]
    if a.ndim != b.ndim:
        raise TorchRuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = wrap_dim(dim, a.ndim)
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise TorchRuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                                f"{a.shape[d]} and {b.shape[d]}")
    infer_size(a.shape, b.shape)
    return LinalgCrossBackward0.apply(a, b, dim=d)
