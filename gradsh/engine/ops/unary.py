"""Unary math functions: exp, log, trigonometry, sqrt, abs, sign, rounding ... and exp_()."""

from __future__ import annotations

from collections.abc import Callable

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.unary import (
    AbsBackward0,
    AcosBackward0,
    AsinBackward0,
    AtanBackward0,
    CeilBackward0,
    CosBackward0,
    CoshBackward0,
    ErfBackward0,
    Exp2Backward0,
    ExpBackward0,
    Expm1Backward0,
    FloorBackward0,
    FracBackward0,
    Log10Backward0,
    Log1PBackward0,
    Log2Backward0,
    LogBackward0,
    LogitBackward0,
    NanToNumBackward0,
    NegBackward0,
    ReciprocalBackward0,
    ReluBackward0,
    RoundBackward0,
    RoundBackward1,
    RsqrtBackward0,
    SgnBackward0,
    SigmoidBackward0,
    SignBackward0,
    SinBackward0,
    SinhBackward0,
    SqrtBackward0,
    TanBackward0,
    TanhBackward0,
    TruncBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.tensor import Function, Tensor, apply_inplace

__all__ = [
    "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "rsqrt",
    "abs", "absolute", "sign", "sgn", "floor", "ceil", "trunc", "round", "log1p", "expm1", "exp2",
    "sinh", "cosh", "asin", "acos", "atan", "erf", "arcsin", "arccos", "arctan", "frac",
    "nan_to_num", "logit", "neg", "negative", "positive", "reciprocal", "exp_", "log_", "sin_",
    "cos_", "tanh_", "sigmoid_", "relu_", "sqrt_", "abs_", "neg_", "reciprocal_", "log2_",
    "log10_", "tan_", "rsqrt_", "sign_", "sgn_", "floor_", "ceil_", "trunc_", "round_", "frac_",
    "log1p_", "expm1_", "exp2_", "sinh_", "cosh_", "asin_", "acos_", "atan_", "arcsin_",
    "arccos_", "arctan_", "erf_", "nan_to_num_", "logit_", "negative_", "absolute_",
]


def _unary(cls: type[Function], fname: str) -> Callable[[Tensor], Tensor]:
    def op(a: Tensor) -> Tensor:
        return cls.apply(_check_tensor(a, fname))

    op.__name__ = fname
    op.__doc__ = f"torch.{fname} ({cls.node_name})."
    return guarded(op)


exp = _unary(ExpBackward0, "exp")
log = _unary(LogBackward0, "log")
log2 = _unary(Log2Backward0, "log2")
log10 = _unary(Log10Backward0, "log10")
sin = _unary(SinBackward0, "sin")
cos = _unary(CosBackward0, "cos")
tan = _unary(TanBackward0, "tan")
tanh = _unary(TanhBackward0, "tanh")
sigmoid = _unary(SigmoidBackward0, "sigmoid")
relu = _unary(ReluBackward0, "relu")
sqrt = _unary(SqrtBackward0, "sqrt")
rsqrt = _unary(RsqrtBackward0, "rsqrt")
abs = _unary(AbsBackward0, "abs")  # noqa: A001
absolute = alias(abs, "absolute")
sign = _unary(SignBackward0, "sign")
sgn = _unary(SgnBackward0, "sgn")
floor = _unary(FloorBackward0, "floor")
ceil = _unary(CeilBackward0, "ceil")
trunc = _unary(TruncBackward0, "trunc")


@guarded
def round(a: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001
    a = _check_tensor(a, "round")
    if decimals:
        return RoundBackward1.apply(a, decimals=decimals)
    return RoundBackward0.apply(a)


log1p = _unary(Log1PBackward0, "log1p")
expm1 = _unary(Expm1Backward0, "expm1")
exp2 = _unary(Exp2Backward0, "exp2")
sinh = _unary(SinhBackward0, "sinh")
cosh = _unary(CoshBackward0, "cosh")
asin = _unary(AsinBackward0, "asin")
acos = _unary(AcosBackward0, "acos")
atan = _unary(AtanBackward0, "atan")
erf = _unary(ErfBackward0, "erf")
arcsin = alias(asin, "arcsin")
arccos = alias(acos, "arccos")
arctan = alias(atan, "arctan")


frac = _unary(FracBackward0, "frac")


@guarded
def nan_to_num(a: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    return NanToNumBackward0.apply(_check_tensor(a, "nan_to_num"), nan=nan, posinf=posinf,
                                      neginf=neginf)


@guarded
def logit(a: Tensor, eps: float | None = None) -> Tensor:
    return LogitBackward0.apply(_check_tensor(a, "logit"), eps=eps)


@guarded
def neg(a: Tensor) -> Tensor:
    return NegBackward0.apply(_check_tensor(a, "neg"))


negative = alias(neg, "negative")


@guarded
def positive(a: Tensor) -> Tensor:
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError(
            "The `+` operator, on a bool tensor is not supported."
        )
    return a


@guarded
def reciprocal(a: Tensor) -> Tensor:
    return ReciprocalBackward0.apply(_check_tensor(a, "reciprocal"))


def _inplace_unary(cls: type[Function], name: str) -> Callable[[Tensor], Tensor]:
    def op(a: Tensor) -> Tensor:
        return apply_inplace(cls, a)

    op.__name__ = cls.node_name
    return guarded(op, name=name)


exp_ = _inplace_unary(ExpBackward0, "exp_")
log_ = _inplace_unary(LogBackward0, "log_")
sin_ = _inplace_unary(SinBackward0, "sin_")
cos_ = _inplace_unary(CosBackward0, "cos_")
tanh_ = _inplace_unary(TanhBackward0, "tanh_")
sigmoid_ = _inplace_unary(SigmoidBackward0, "sigmoid_")
relu_ = _inplace_unary(ReluBackward0, "relu_")
sqrt_ = _inplace_unary(SqrtBackward0, "sqrt_")
abs_ = _inplace_unary(AbsBackward0, "abs_")
neg_ = _inplace_unary(NegBackward0, "neg_")
reciprocal_ = _inplace_unary(ReciprocalBackward0, "reciprocal_")
log2_ = _inplace_unary(Log2Backward0, "log2_")
log10_ = _inplace_unary(Log10Backward0, "log10_")
tan_ = _inplace_unary(TanBackward0, "tan_")
rsqrt_ = _inplace_unary(RsqrtBackward0, "rsqrt_")
sign_ = _inplace_unary(SignBackward0, "sign_")
sgn_ = _inplace_unary(SgnBackward0, "sgn_")
floor_ = _inplace_unary(FloorBackward0, "floor_")
ceil_ = _inplace_unary(CeilBackward0, "ceil_")
trunc_ = _inplace_unary(TruncBackward0, "trunc_")
frac_ = _inplace_unary(FracBackward0, "frac_")
log1p_ = _inplace_unary(Log1PBackward0, "log1p_")
expm1_ = _inplace_unary(Expm1Backward0, "expm1_")
exp2_ = _inplace_unary(Exp2Backward0, "exp2_")
sinh_ = _inplace_unary(SinhBackward0, "sinh_")
cosh_ = _inplace_unary(CoshBackward0, "cosh_")
asin_ = _inplace_unary(AsinBackward0, "asin_")
acos_ = _inplace_unary(AcosBackward0, "acos_")
atan_ = _inplace_unary(AtanBackward0, "atan_")
arcsin_ = alias(asin_, "arcsin_")
arccos_ = alias(acos_, "arccos_")
arctan_ = alias(atan_, "arctan_")
erf_ = _inplace_unary(ErfBackward0, "erf_")
negative_ = alias(neg_, "negative_")
absolute_ = alias(abs_, "absolute_")


@guarded
def round_(a: Tensor, decimals: int = 0) -> Tensor:
    if decimals:
        return apply_inplace(RoundBackward1, a, decimals=decimals)
    return apply_inplace(RoundBackward0, a)


@guarded
def nan_to_num_(a: Tensor, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    return apply_inplace(NanToNumBackward0, a, nan=nan, posinf=posinf, neginf=neginf)


@guarded
def logit_(a: Tensor, eps: float | None = None) -> Tensor:
    return apply_inplace(LogitBackward0, a, eps=eps)
