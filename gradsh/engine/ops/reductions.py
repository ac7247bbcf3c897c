"""Reductions: sum, mean, prod, max/min, argmax, norm, var, std, all/any, cumsum ..."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import REDUCED_FLOAT_NP, DType
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    warn,
)
from gradsh.engine.functions.common import c_order, not_implemented_for, result_dtype, xp_of
from gradsh.engine.functions.reductions import (
    AmaxBackward0,
    AminBackward0,
    CumprodBackward0,
    CumsumBackward0,
    DistBackward0,
    LinalgVectorNormBackward0,
    LogsumexpBackward0,
    MaxBackward0,
    MaxBackward1,
    MeanBackward0,
    MeanBackward1,
    MinBackward0,
    MinBackward1,
    ProdBackward0,
    ProdBackward1,
    StdBackward0,
    StdMeanBackward0,
    SumBackward0,
    SumBackward1,
    VarBackward0,
    VarMeanBackward0,
    _arg_extremum,
)
from gradsh.engine.ops.arguments import (
    RETURN_TYPES,
    Number,
    _check_tensor,
    _plain,
    _reduction_dims,
    as_int,
    normalize_dims,
    wrap_dim,
)
from gradsh.engine.ops.complex_ops import imag, real
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.selection import maximum, minimum
from gradsh.engine.tensor import Tensor, _as_array, is_grad_enabled, no_grad

__all__ = [
    "sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "prod", "norm", "vector_norm",
    "var", "std", "var_mean", "std_mean", "logsumexp", "all", "any", "cumsum", "cumprod",
    "dist", "count_nonzero",
]


@guarded
def sum(a: Tensor, dim: Any = None, keepdim: bool = False,  # noqa: A001
        dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "sum")
    if dim is None:
        return SumBackward0.apply(a, dtype=dtype)
    return SumBackward1.apply(a, dim=_reduction_dims(dim, a.ndim), keepdim=keepdim,
                                 dtype=dtype)


@guarded
def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "mean")
    if dtype is not None and dtype.category < 2:
        raise TorchRuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point "
            f"or complex dtype. Got: {dtype.short}"
        )
    if dtype is None and a.dtype.category < 2:
        raise TorchRuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a.dtype.short}"
        )
    if dtype is not None and dtype is not a.dtype and a.dtype.np in REDUCED_FLOAT_NP:
        # float16/bfloat16 nodes compute widened and round back to their input's dtype: the
        # input takes dtype= first (the same float32 sum, divided in dtype)
        a, dtype = to(a, dtype), None
    if dim is None:
        return MeanBackward0.apply(a, dtype=dtype)
    return MeanBackward1.apply(a, dim=_reduction_dims(dim, a.ndim), keepdim=keepdim,
                                  dtype=dtype)


def _extremum(kind: str, a: Tensor, dim: Any, keepdim: bool) -> Any:
    if a.dtype.is_complex:  # complex numbers have no order
        kernel = f"{kind}_all" if dim is None else f"{kind}_cpu"
        raise not_implemented_for(kernel, a.dtype)
    if isinstance(dim, Tensor):
        other = dim
        return maximum(a, other) if kind == "max" else minimum(a, other)
    if dim is None:
        cls = MaxBackward1 if kind == "max" else MinBackward1
        return cls.apply(a)
    d = wrap_dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise TorchIndexError(
            f"{kind}(): Expected reduction dim {d} to have non-zero size."
        )
    if a.ndim == 0:
        indices = xp_of(a._data).zeros((), dtype=np.int64)
    else:
        indices = _arg_extremum(a._data, d, keepdim, kind)
    cls = MaxBackward0 if kind == "max" else MinBackward0
    values = cls.apply(a, dim=d, keepdim=keepdim, indices=indices)
    return RETURN_TYPES[kind](values, Tensor._make(indices, a.device))


@guarded
def max(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    """max(x) -> MaxBackward1; max(x, dim) -> (values, indices); max(a, b) -> maximum."""
    return _extremum("max", _check_tensor(a, "max"), dim, keepdim)


@guarded
def min(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    return _extremum("min", _check_tensor(a, "min"), dim, keepdim)


def _check_nonempty_reduction(fname: str, a: Tensor, dim: Any) -> None:
    if a.numel() == 0:
        given = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = normalize_dims(dim, a.ndim)
        if not dims:
            raise TorchRuntimeError(
                f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        for d, original in zip(dims, given, strict=True):
            if a.shape[d] == 0:
                raise TorchIndexError(
                    f"{fname}(): Expected reduction dim {original} to have non-zero size."
                )


@guarded
def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    _check_nonempty_reduction("amax", a, dim)
    return AmaxBackward0.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


@guarded
def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    _check_nonempty_reduction("amin", a, dim)
    return AminBackward0.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


def _argextremum(kind: str, a: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = _check_tensor(a, f"arg{kind}")
    if dim is not None and as_int(dim) is None:  # the parser's error comes first
        wrap_dim(dim, a.ndim)
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError(f"arg{kind}(): does not support bool input")
    if dim is None:
        if a.numel() == 0:
            raise TorchIndexError(
                f"arg{kind}(): Expected reduction dim to be specified for input.numel() == 0."
            )
        out = _arg_extremum(a._data, None, False, kind)
        if keepdim:
            out = out.reshape((1,) * a.ndim)
        return _plain(out, a.device)
    d = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        return _plain(xp_of(a._data).zeros((), dtype=np.int64), a.device)
    if a.shape[d] == 0:
        raise TorchIndexError(f"arg{kind}(): Expected reduction dim {d} to have non-zero size.")
    return _plain(_arg_extremum(a._data, d, keepdim, kind), a.device)


@guarded
def argmax(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argextremum("max", a, dim, keepdim)


@guarded
def argmin(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _argextremum("min", a, dim, keepdim)


@guarded
def prod(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "prod")
    if dtype is not None:
        a = to(a, dtype)
    if dim is None:
        result = ProdBackward0.apply(a)
    else:
        result = ProdBackward1.apply(a, dim=wrap_dim(dim, a.ndim), keepdim=keepdim)
    if dtype is not None and result.dtype is not dtype:  # an integer or bool dtype= is kept
        result = to(result, dtype)
    return result


@guarded
def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: DType | None = None) -> Tensor:
    """torch.norm: vector norms (p='fro' is 2) as linalg.vector_norm (LinalgVectorNormBackward0);
    'nuc' (or 'fro' over more than two dims) as linalg.matrix_norm over dim, all dims when
    none is given (torch.functional.norm's routing, errors and all)."""
    a = _check_tensor(a, "norm")
    if isinstance(p, str):
        if p != "fro" or not (dim is None or isinstance(dim, int) or len(dim) <= 2):
            from gradsh.engine.ops.linalg_decompositions import matrix_norm  # (imports us)

            dims = list(range(a.ndim)) if dim is None else [dim] if isinstance(dim, int) \
                else list(dim)
            return matrix_norm(a, p, dims, keepdim, dtype=dtype)  # type: ignore[no-any-return]
        p = 2
    if p is None:
        p = 2
    return vector_norm(a, p, dim, keepdim, dtype=dtype)


@guarded
def vector_norm(a: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                dtype: DType | None = None) -> Tensor:
    if a.dtype.category < 2:
        raise TorchRuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{a.dtype.short}"
        )
    if dtype is not None:
        a = to(a, dtype)
    dims = None if dim is None else normalize_dims(dim, a.ndim)
    if a.numel() == 0 and (ord < 0 or ord == math.inf) and not dims:
        raise TorchRuntimeError(
            f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
            "operation does not have an identity"
        )
    return LinalgVectorNormBackward0.apply(a, ord=float(ord), dim=dims, keepdim=keepdim)


def _variance_args(fname: str, a: Tensor, dim: Any, unbiased: Any, keepdim: bool,
                   correction: Any) -> tuple[tuple[int, ...] | None, float, bool]:
    if a.dtype.is_complex and fname in ("var", "std"):
        raise _ComplexVariance()
    if not a.dtype.is_floating_point:
        what = fname if fname.endswith("_mean") else "std and var"
        raise TorchRuntimeError(f"{what} only support floating point and complex dtypes")
    if isinstance(dim, bool):  # var(x, True): the `unbiased` overload
        unbiased, dim = dim, None
    if unbiased is not None and correction is not None:
        # No overload takes both: the guard turns this into PyTorch's argument error.
        raise TypeError(f"{fname}: unbiased and correction together")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    # NOTE: an explicit empty dim list reduces everything but keeps `()`: PyTorch's backward
    # then scales by a reduction size of 1 (its formula counts the listed dims)
    dims = None if dim is None else normalize_dims(dim, a.ndim)
    if dims is not None and a.ndim == 0:
        dims = None
    # the reduction factor as PyTorch counts it: input numel over output numel
    kept = 1
    for d, size in enumerate(a.shape):
        if dims and d not in dims:
            kept *= size
    n = a.numel() // builtins.max(kept, 1)
    if n - correction <= 0:
        warn(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel)."
        )
    return dims, float(correction), keepdim


class _ComplexVariance(Exception):
    """var / std of a complex tensor: computed from its parts (see _complex_variance)."""


def _complex_variance(fname: str, a: Tensor, args: tuple[Any, ...]) -> Tensor:
    """var(z) = var(z.real) + var(z.imag), real (std its square root); values only: with a
    gradient to record, PyTorch's single node is not reproduced."""
    if a.requires_grad and is_grad_enabled():
        raise TorchNotImplementedError(f"gradsh does not implement the gradient of {fname} of a "
                                       "complex tensor yet")
    with no_grad():
        parts = var(real(a), *args[:3], correction=args[3]) + var(imag(a), *args[:3],
                                                                   correction=args[3])
        return parts.sqrt() if fname == "std" else parts


@guarded
def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    try:
        dims, correction, keepdim = _variance_args("var", a, dim, unbiased, keepdim, correction)
    except _ComplexVariance:
        return _complex_variance("var", a, (dim, unbiased, keepdim, correction))
    return VarBackward0.apply(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def var_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    """torch.var_mean: (var, mean), both from one VarMeanBackward0 node."""
    dims, correction, keepdim = _variance_args("var_mean", a, dim, unbiased, keepdim,
                                               correction)
    return VarMeanBackward0.apply_all(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def std_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    """torch.std_mean: (std, mean), both from one StdMeanBackward0 node."""
    dims, correction, keepdim = _variance_args("std_mean", a, dim, unbiased, keepdim,
                                               correction)
    return StdMeanBackward0.apply_all(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    try:
        dims, correction, keepdim = _variance_args("std", a, dim, unbiased, keepdim, correction)
    except _ComplexVariance:
        return _complex_variance("std", a, (dim, unbiased, keepdim, correction))
    return StdBackward0.apply(a, dim=dims, correction=correction, keepdim=keepdim)


@guarded
def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    if not isinstance(dim, int) and not normalize_dims(dim, a.ndim) and a.ndim and not keepdim \
            and a.numel():
        # PyTorch reduces everything into a [1, ...] buffer, then fails to write it back
        ones = ", ".join("1" for _ in range(a.ndim))
        raise TorchRuntimeError(
            f"output with shape [] doesn't match the broadcast shape [{ones}]"
        )
    dims = _reduction_dims(dim, a.ndim)
    if not a.dtype.is_floating_point:
        a = to(a, dtypes.default_float())
    return LogsumexpBackward0.apply(a, dim=dims, keepdim=keepdim)


def _truth(kind: str) -> Callable[..., Tensor]:
    def op(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        a = _check_tensor(a, kind)
        data = a._data
        xp = xp_of(data)
        reduce = xp.all if kind == "all" else xp.any
        result_dtype = dtypes.uint8 if a.dtype is dtypes.uint8 else dtypes.bool_
        if dim is None:
            value = reduce(data != 0)
        else:
            dims = normalize_dims(dim, a.ndim)  # (a repeated dim is PyTorch's error)
            value = reduce(data != 0, axis=dims, keepdims=keepdim) if a.ndim else data != 0
        value = _as_array(xp.asarray(value, dtype=result_dtype.np))
        return Tensor._make(c_order(value) if value.__class__ is np.ndarray else value, a.device)

    op.__name__ = kind
    return guarded(op)


all = _truth("all")  # noqa: A001
any = _truth("any")  # noqa: A001


@guarded
def cumsum(a: Tensor, dim: int, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "cumsum")
    d = wrap_dim(dim, a.ndim)
    if dtype is None:
        dtype = a.dtype if a.dtype.category >= 2 else dtypes.int64
    elif dtype is dtypes.bool_:
        raise not_implemented_for("cumsum_out_cpu", dtype)
    return CumsumBackward0.apply(a, dim=d, dtype=dtype)


@guarded
def cumprod(a: Tensor, dim: int, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "cumprod")
    d = wrap_dim(dim, a.ndim)
    if dtype is None:
        dtype = a.dtype if a.dtype.category >= 2 else dtypes.int64
    elif dtype is dtypes.bool_:
        raise not_implemented_for("cumprod_out_cpu", dtype)
    return CumprodBackward0.apply(a, dim=d, dtype=dtype)


@guarded
def dist(a: Tensor, b: Tensor, p: Number = 2) -> Tensor:
    a = _check_tensor(a, "dist")
    b = _check_tensor(b, "dist", "other", 2)
    # ATen's dist is norm(self - other): the subtraction's bool errors, then norm's dtype check
    from gradsh.engine.ops.arithmetic import _check_bool_sub

    _check_bool_sub(a, b)
    kind = result_dtype(a, b)
    if not (kind.is_floating_point or kind.is_complex):
        raise TorchRuntimeError("norm(): input dtype should be either floating point or "
                                f"complex. Got {kind.short} instead.")
    return DistBackward0.apply(a, b, p=float(p))


@guarded
def count_nonzero(a: Tensor, dim: Any = None) -> Tensor:
    a = _check_tensor(a, "count_nonzero")
    xp = xp_of(a._data)
    if dim is None:
        counted = xp.count_nonzero(a._data)
    else:
        counted = xp.count_nonzero(a._data, axis=normalize_dims(dim, a.ndim))
    return Tensor._make(_as_array(xp.asarray(counted, dtype=np.int64)), a.device)
