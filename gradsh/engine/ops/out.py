"""The `out=` keyword of PyTorch's functions: the result written into a tensor the caller gives.

The argument guard (ops/guard.py) routes every call of a function in OUT_FUNCTIONS that passes
`out=` through `call_with_out`, so the functions themselves know nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine import backend
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, warn
from gradsh.engine.functions.common import same_layout
from gradsh.engine.inplace import check_writable
from gradsh.engine.ops.arguments import RETURN_TYPES, _c_name, _type_name
from gradsh.engine.tensor import Tensor, is_grad_enabled

__all__ = ["OUT_FUNCTIONS", "call_with_out"]

# The torch.* functions that take `out=` in PyTorch 2.13 (read from its overloads); a name
# gradsh does not implement is harmless here.
OUT_FUNCTIONS = frozenset("""
abs acos acosh add addbmm addcdiv addcmul addmm addmv addr all amax amin aminmax angle any
arange argsort asin asinh atan atan2 atanh baddbmm bernoulli bitwise_and bitwise_left_shift
bitwise_not bitwise_or bitwise_right_shift bitwise_xor bmm bucketize cat ceil clamp clamp_max
clamp_min clip column_stack concat concatenate copysign cos cosh cross cummax cummin cumprod
cumsum deg2rad diag diff digamma div divide dot dstack empty eq erf erfc erfinv exp exp2 expm1
eye fix float_power floor floor_divide fmax fmin fmod frac full gather gcd ge ger greater
greater_equal gt heaviside histc hstack hypot i0 index_select inner inverse isin isneginf
isposinf kron kthvalue lcm ldexp le lerp less less_equal lgamma linspace log log10 log1p log2
logaddexp logaddexp2 logcumsumexp logical_and logical_not logical_or logical_xor logit logspace
logsumexp lt masked_select matmul matrix_power max maximum mean median min minimum mm mode msort
mul multinomial multiply mv mvlgamma nan_to_num nanmean nanmedian nanquantile ne neg negative
nextafter nonzero norm normal not_equal ones outer polygamma pow prod quantile rad2deg rand
randint randn randperm range reciprocal remainder renorm round row_stack rsqrt scatter
searchsorted sgn sigmoid sign signbit sin sinc sinh sort sqrt square stack std std_mean sub
subtract sum take_along_dim tan tanh topk tril triu true_divide trunc var var_mean vdot vstack
where xlogy zeros
""".split())


# PyTorch's own checks of out='s dtype, which come before its casting rule:
# unary ops built as TensorIterator's unary op (and clamp with number bounds) want the input's
# dtype exactly; these structured kernels want the result's dtype (a tuple out's indices: long)
_FOUND_DTYPE = frozenset("abs bitwise_not ceil fix floor frac neg negative round sgn sign trunc "
                         "clamp clamp_min clamp_max clip".split())
_EXPECTED_DTYPE = frozenset("diag isin matmul mm msort take_along_dim tril triu max min sort "
                            "topk kthvalue mode median nanmedian cummax cummin".split())
# the joining functions: cat's TypeError; the ones computed in out's dtype
_JOINING = frozenset("cat concat concatenate stack hstack vstack dstack column_stack "
                     "row_stack".split())
_IN_OUT_DTYPE = frozenset({"cumsum", "cumprod", "prod"})


def _check_dtype(name: str, result: Tensor, out: Tensor, args: tuple[Any, ...]) -> None:
    if out.dtype is result.dtype:
        return
    if name in _FOUND_DTYPE and not any(isinstance(a, Tensor) for a in args[1:]):
        raise TorchRuntimeError(f"Found dtype {out.dtype.short} but expected "
                                f"{result.dtype.short}")
    if name in ("dot", "vdot") or name == "matmul" and all(
            isinstance(a, Tensor) and a.ndim == 1 for a in args[:2]):
        raise TorchRuntimeError(f"result dtype {out.dtype.short} does not match input dtype "
                                f"{result.dtype.short}")
    if name in _EXPECTED_DTYPE:
        raise TorchRuntimeError(f"Expected out tensor to have dtype {_c_name(result.dtype)}, "
                                f"but got {_c_name(out.dtype)} instead")
    if name in ("amax", "amin"):
        raise TorchRuntimeError(f"Expected the dtype for input and out to match, but got "
                                f"{result.dtype.short} for input's dtype and {out.dtype.short} "
                                "for out's dtype.")
    if name == "nonzero":
        raise TorchRuntimeError("nonzero: Expected out tensor to have scalar type Long but got "
                                f"scalar type{out.dtype.short}")
    if name in _JOINING and result.dtype.category > out.dtype.category:
        raise TorchTypeError(f"torch.cat(): input types can't be cast to the desired output "
                             f"type {out.dtype.short}")


def _requires_grad(values: Any) -> bool:
    for value in values:
        if isinstance(value, Tensor) and value.requires_grad:
            return True
        if isinstance(value, (list, tuple)) and _requires_grad(value):
            return True
    return False


def call_with_out(name: str, function: Callable[..., Any], args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> Any:
    """`function(*args, **kwargs)` written into `kwargs["out"]`, which is returned: resized
    (with PyTorch's warning when it had elements) and cast to its own dtype where PyTorch's
    casting rules allow it. Refused when autograd would have to record it."""
    kwargs = dict(kwargs)
    out = kwargs.pop("out")
    if out is None:
        return function(*args, **kwargs)
    if is_grad_enabled() and _requires_grad((*args, *kwargs.values(), out)):
        raise TorchRuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if name in _IN_OUT_DTYPE and isinstance(out, Tensor) and kwargs.get("dtype") is None:
        kwargs["dtype"] = out.dtype  # computed in out's dtype (PyTorch's meta function)
    result = function(*args, **kwargs)
    if isinstance(out, (tuple, list)) and isinstance(result, tuple):
        if len(out) != len(result):
            raise TorchTypeError(f"{name}(): argument 'out' must be tuple of {len(result)} "
                                 f"Tensors, not {len(out)}")
        for r, o in zip(result, out):
            _write(name, r, o, args)
        if type(result).__name__ + "_out" in RETURN_TYPES:  # (max, sort ...: values, indices)
            return RETURN_TYPES[type(result).__name__ + "_out"](*out)
        return tuple(out)
    _write(name, result, out, args)
    return out


def _write(name: str, result: Any, out: Any, args: tuple[Any, ...]) -> None:
    if not isinstance(out, Tensor):
        raise TorchTypeError(f"{name}(): argument 'out' must be Tensor, not {_type_name(out)}")
    if not isinstance(result, Tensor):
        raise TorchTypeError(f"{name}(): gradsh gives no tensor to write into out=")
    _check_dtype(name, result, out, args)
    if result.dtype.category > out.dtype.category:
        raise TorchRuntimeError(f"result type {result.dtype.short} can't be cast to the desired "
                                f"output type {out.dtype.short}")
    if out.device != result.device:
        raise TorchRuntimeError(f"Expected out tensor to have device {result.device}, but got "
                                f"{out.device} instead")
    data = result._data.astype(out.dtype.np, copy=False)
    if out.shape != result.shape:
        if out.numel():
            warn(f"An output with one or more elements was resized since it had shape "
                 f"[{', '.join(map(str, out.shape))}], which does not match the required "
                 f"output shape [{', '.join(map(str, result.shape))}]. This behavior is "
                 "deprecated, and in a future PyTorch release outputs will not be resized "
                 "unless they have zero elements. You can explicitly reuse an out tensor t by "
                 "resizing it, inplace, to zero elements with t.resize_(0).")
        # a resized tensor has new storage (its old views no longer see it), as in PyTorch,
        # laid out as the op lays out its result (resize_out restrides a resized output)
        out._data = same_layout(backend.module(str(out.device)).empty(result.shape,
                                                                     dtype=out.dtype.np), data)
    else:
        check_writable(out)  # (an expanded out: PyTorch's internal-overlap error)
    out._inplace_data(data)
