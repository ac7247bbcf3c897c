"""Tensor's methods and operators: one explicit table, attached by install_tensor_methods."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes, fastpath
from gradsh.engine.variable import ambiguous_bool_message
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, TorchValueError, warn
from gradsh.engine.ops.activations import dim_required, log_softmax, softmax
from gradsh.engine.functions.grad_ops import ScalarOverloads
from gradsh.engine.ops.arguments import OperandTypeError, TensorLike, is_number
from gradsh.engine.ops.arithmetic import (
    _rfloordiv,
    add,
    add_,
    addcdiv,
    addcmul,
    atan2,
    cross,
    div,
    div_,
    floor_divide,
    fmod,
    lerp,
    mul,
    mul_,
    pow,
    pow_,
    remainder,
    remainder_,
    rsub,
    scalar_filled,
    square,
    square_,
    sub,
    sub_,
    xlogy,
)
from gradsh.engine.ops.autograd import backward
from gradsh.engine.ops.complex_ops import real_scalar
from gradsh.engine.ops.comparison import (
    _invert,
    allclose,
    bitwise_and,
    bitwise_and_,
    bitwise_not,
    bitwise_not_,
    bitwise_or,
    bitwise_or_,
    bitwise_xor,
    bitwise_xor_,
    bitwise_left_shift,
    bitwise_left_shift_,
    bitwise_right_shift,
    bitwise_right_shift_,
    eq,
    equal,
    ge,
    greater,
    greater_equal,
    gt,
    isfinite,
    isinf,
    isnan,
    le,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    ne,
    not_equal,
)
from gradsh.engine.ops.copies import (
    _cast,
    apply_,
    clone,
    copy_,
    cpu,
    cuda,
    data_ptr,
    dim_order,
    element_size,
    fill_,
    is_complex,
    is_floating_point,
    is_signed,
    map_,
    numel,
    size,
    tensor_type,
    to,
    tolist,
    type_as,
    zero_,
)
from gradsh.engine.ops.creation import new_empty, new_full, new_ones, new_tensor, new_zeros
from gradsh.engine.ops.guard import _guard, reads_numpy_data, unguarded
from gradsh.engine.ops.inplace_forms import floor_divide_
from gradsh.engine.ops.indexing import (
    gather,
    index,
    index_add,
    index_copy,
    index_fill,
    index_put,
    index_select,
    masked_scatter,
    masked_select,
    nonzero,
    setitem,
    take,
)
from gradsh.engine.ops.scatter import (scatter, scatter_, scatter_add, scatter_add_,
                                       scatter_reduce, scatter_reduce_)
from gradsh.engine.ops.attention import baddbmm
from gradsh.engine.ops.combining import kron
from gradsh.engine.ops.strided import as_strided
from gradsh.engine.ops.joining import flip, repeat, roll
from gradsh.engine.ops.linalg import (
    addmm,
    bmm,
    diag,
    dot,
    inner,
    matmul,
    mm,
    mv,
    outer,
    trace,
    tril,
    triu,
)
from gradsh.engine.ops.reductions import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    count_nonzero,
    cumprod,
    cumsum,
    dist,
    logsumexp,
    max,
    mean,
    min,
    norm,
    prod,
    std,
    sum,
    var,
)
from gradsh.engine.ops.diagonal import diagonal
from gradsh.engine.ops.discrete import heaviside
from gradsh.engine.ops.unfold import unfold
from gradsh.engine.ops.linalg_decompositions import pinverse, svd
from gradsh.engine.ops.linalg_composites import cholesky_inverse, cholesky_solve
from gradsh.engine.ops.householder import geqrf, orgqr
from gradsh.engine.ops.linalg_lu_factor import lu_solve, tensor_lu
from gradsh.engine.ops.linalg_solvers import (cholesky, det, inverse, logdet, slogdet,
                                              triangular_solve)
from gradsh.engine.ops.distributions import (
    cauchy_, exponential_, geometric_, log_normal_, multinomial,
)
from gradsh.engine.ops.sampling import bernoulli, bernoulli_, normal_, uniform_
from gradsh.engine.ops.selection import (
    clamp,
    clamp_,
    clamp_max,
    clamp_max_,
    clamp_min,
    clamp_min_,
    masked_fill,
    masked_fill_,
    maximum,
    minimum,
    where,
)
from gradsh.engine.ops.shape import (
    H,
    T,
    broadcast_to,
    chunk,
    contiguous,
    expand,
    expand_as,
    flatten,
    is_contiguous,
    mT,
    movedim,
    narrow,
    permute,
    reshape,
    reshape_as,
    select,
    split,
    split_with_sizes,
    squeeze,
    storage_offset,
    stride,
    t,
    transpose,
    unbind,
    unflatten,
    unsqueeze,
    view,
    view_as,
)
from gradsh.engine.ops.binning import histc
from gradsh.engine.ops.quantile import nanquantile, quantile
from gradsh.engine.ops.sorting import (argsort, bincount, kthvalue, median, mode, nanmedian, sort,
                                      topk, unique)
from gradsh.engine.ops.unary import (
    abs,
    abs_,
    acos,
    asin,
    atan,
    ceil,
    cos,
    cos_,
    cosh,
    erf,
    exp,
    exp2,
    exp_,
    expm1,
    floor,
    frac,
    log,
    log10,
    log1p,
    log2,
    log_,
    logit,
    nan_to_num,
    neg,
    neg_,
    positive,
    reciprocal,
    reciprocal_,
    relu,
    relu_,
    round,
    rsqrt,
    sgn,
    sigmoid,
    sigmoid_,
    sign,
    sin,
    sin_,
    sinh,
    sqrt,
    sqrt_,
    tan,
    tanh,
    tanh_,
    trunc,
)
from gradsh.engine.ops import arithmetic as _arithmetic
from gradsh.engine.ops import functional as _functional
from gradsh.engine.ops import indexing as _indexing
from gradsh.engine.ops import inplace_views as _inplace_views
from gradsh.engine.ops import inplace_forms as _inplace_forms
from gradsh.engine.ops import matrix_exp as _matrix_exp
from gradsh.engine.ops import numeric_extras as _numeric_extras
from gradsh.engine.ops import matrix_extras as _matrix_extras
from gradsh.engine.ops import elementwise_extras as _elementwise_extras
from gradsh.engine.ops import activations as _activations_module
from gradsh.engine.ops import scatter_views as _scatter_views
from gradsh.engine.ops import blas_extras as _blas_extras
from gradsh.engine.ops.distance_extras import logcumsumexp as _logcumsumexp
from gradsh.engine.ops import numerics as _numerics
from gradsh.engine.ops.sampling import random_
from gradsh.engine.ops import special as _special
from gradsh.engine.ops import unary as _unary
from gradsh.engine.tensor import Tensor
from gradsh.engine.tensor import Tensor, _GradMode, _once

__all__ = ["install_tensor_methods"]

# In-place forms, methods only, under their own names.
_ARITHMETIC_IN_PLACE = (
    "lerp_", "addcmul_", "addcdiv_", "true_divide_", "remainder_", "fmod_", "atan2_",
    "arctan2_", "xlogy_", "subtract_", "multiply_", "divide_",
)
# Methods with the function's name, from the families whose every function is also a method.
_NUMERICS_METHODS = (
    "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "asinh_", "acosh_", "atanh_",
    "arcsinh_", "arccosh_", "arctanh_", "erfc", "erfc_", "deg2rad", "rad2deg", "deg2rad_",
    "rad2deg_", "hypot", "hypot_", "logaddexp", "logaddexp2", "copysign", "copysign_", "fmax",
    "fmin", "fix", "fix_", "nansum", "nanmean", "cummax", "cummin", "isclose", "isneginf",
    "isposinf", "isreal", "signbit", "angle",
)
_FUNCTIONAL_METHODS = (
    "tile", "ravel", "fliplr", "flipud", "repeat_interleave", "tensor_split", "hsplit",
    "vsplit", "dsplit", "take_along_dim", "sum_to_size", "diff", "msort", "argwhere",
)
# The special functions PyTorch also has as methods (torch.special's others are functions only).
_SPECIAL_METHODS = (
    "lgamma", "lgamma_", "digamma", "digamma_", "polygamma_", "mvlgamma", "mvlgamma_", "erfinv",
    "erfinv_", "i0", "i0_", "sinc", "sinc_", "igamma", "igamma_", "igammac", "igammac_",
)
_INDEXING_IN_PLACE = ("index_add_", "index_fill_", "index_copy_", "masked_scatter_",
                      "index_put_")
_MATRIX_EXTRA_METHODS = ("rot90", "vdot", "diag_embed", "diagflat", "matrix_power", "cov",
                         "corrcoef", "is_same_size")
_UNARY_IN_PLACE = (
    "log2_", "log10_", "tan_", "rsqrt_", "sign_", "sgn_", "floor_", "ceil_", "trunc_",
    "round_", "frac_", "log1p_", "expm1_", "exp2_", "sinh_", "cosh_", "asin_", "acos_",
    "atan_", "arcsin_", "arccos_", "arctan_", "erf_", "nan_to_num_", "logit_", "negative_",
    "absolute_",
)


def _rtruediv(a: Tensor, other: TensorLike) -> Tensor:
    """Python's `2 / x`: x.reciprocal() * 2, hence MulBackward0 (as PyTorch's __rtruediv__)."""
    if isinstance(other, Tensor):
        return div(other, a)
    if ScalarOverloads.active and is_number(other):
        return div(scalar_filled(a, other), a)  # a formula's C++ `number / t`
    return mul(reciprocal(a), other)


def _reflected(op: Any) -> Any:
    op = unguarded(op)
    return lambda self, other: op(other, self)


def _method_eq(self: Tensor, other: Any) -> Tensor:
    """`t == ndarray` compares with the array's values (PyTorch's __eq__ takes an array where
    every other operator leaves it to NumPy)."""
    if isinstance(other, np.ndarray):
        if other.dtype not in dtypes._BY_NP:
            return NotImplemented
        other = Tensor._make(other, "cpu")
    return eq(self, other)


def _method_max(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return max(self, dim, keepdim)


def _method_min(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return min(self, dim, keepdim)


def _int(self: Tensor) -> int:
    if self.numel() != 1:
        raise TorchValueError("only one element tensors can be converted to Python scalars")
    if self._data.dtype.kind == "c":
        return int(real_scalar(self, "int64_t"))
    return int(self.item())


def _float(self: Tensor) -> float:
    if self.numel() != 1:
        raise TorchValueError("only one element tensors can be converted to Python scalars")
    # TORCH_WARN_ONCE, float() only, and not under no_grad (L-BFGS's float(closure()))
    if self.requires_grad and _GradMode.enabled and "scalar_grad" not in _once:
        _once.add("scalar_grad")
        warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
             "behavior.\nConsider using tensor.detach() first.")
    if self._data.dtype.kind == "c":
        return real_scalar(self, "double")
    return float(self.item())


def _contains(self: Tensor, element: Any) -> bool:
    if isinstance(element, (Tensor, int, float, bool)):
        return bool(eq(self, element).any().item())
    raise TorchRuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you "
                            f"passed in a {type(element)}.")


def _index_method(self: Tensor) -> int:
    if self.numel() != 1 or self.dtype.is_floating_point:
        raise TorchTypeError("only integer tensors of a single element can be converted to an "
                             "index")
    return int(self.item())


def _iter(self: Tensor) -> Any:
    if self.ndim == 0:
        raise TorchTypeError("iteration over a 0-d tensor")
    return iter(unbind(self, 0))


def _inplace_operator(op: Callable[..., Tensor]) -> Callable[[Tensor, Any], Tensor]:
    """`x += other`: the in-place op, or NotImplemented for an operand of the wrong type (as
    PyTorch's), so that Python raises "unsupported operand type(s) for +=: ..."."""
    op = unguarded(op)

    def inplace(self: Tensor, other: Any) -> Any:
        try:
            return op(self, other)
        except OperandTypeError:
            return NotImplemented

    return inplace


def _setitem(self: Tensor, key: Any, value: Any) -> None:
    setitem(self, key, value)


def _is_nonzero(self: Tensor) -> bool:
    if self.numel() != 1:
        raise TorchRuntimeError(ambiguous_bool_message(self.numel()))
    return bool(self.item())


def _permute_method(self: Tensor, *dims: Any) -> Tensor:
    return permute(self, *dims)


_METHODS: dict[str, Any] = {
    # operators
    "__add__": add,
    "__radd__": lambda self, other: add(self, other),
    "__iadd__": _inplace_operator(add_),
    "__sub__": sub,
    "__rsub__": lambda self, other: rsub(self, other),
    "__isub__": _inplace_operator(sub_),
    "__mul__": mul,
    "__rmul__": lambda self, other: mul(self, other),
    "__imul__": _inplace_operator(mul_),
    "__truediv__": div,
    "__rtruediv__": lambda self, other: _rtruediv(self, other),
    "__itruediv__": _inplace_operator(div_),
    "__floordiv__": floor_divide,
    "__rfloordiv__": _rfloordiv,
    "__ifloordiv__": _inplace_operator(floor_divide_),
    "__mod__": remainder,
    "__rmod__": _reflected(remainder),
    "__imod__": _inplace_operator(remainder_),
    "__pow__": pow,
    "__rpow__": _reflected(pow),
    "__ipow__": _inplace_operator(pow_),
    "__neg__": neg,
    "__pos__": positive,
    "__abs__": abs,
    "__matmul__": matmul,
    "__rmatmul__": _reflected(matmul),
    "__eq__": _method_eq,
    "__ne__": ne,
    "__lt__": lt,
    "__le__": le,
    "__gt__": gt,
    "__ge__": ge,
    "__and__": bitwise_and,
    "__rand__": _reflected(bitwise_and),
    "__or__": bitwise_or,
    "__ror__": _reflected(bitwise_or),
    "__xor__": bitwise_xor,
    "__rxor__": _reflected(bitwise_xor),
    "__invert__": _invert,
    "__iand__": _inplace_operator(bitwise_and_),
    "__ior__": _inplace_operator(bitwise_or_),
    "__ixor__": _inplace_operator(bitwise_xor_),
    "__lshift__": bitwise_left_shift,
    "__rlshift__": _reflected(bitwise_left_shift),
    "__rshift__": bitwise_right_shift,
    "__rrshift__": _reflected(bitwise_right_shift),
    "__ilshift__": _inplace_operator(bitwise_left_shift_),
    "__irshift__": _inplace_operator(bitwise_right_shift_),
    "bitwise_left_shift": bitwise_left_shift,
    "bitwise_right_shift": bitwise_right_shift,
    "bitwise_left_shift_": bitwise_left_shift_,
    "bitwise_right_shift_": bitwise_right_shift_,
    "__contains__": _contains,
    "__getitem__": index,
    "__setitem__": _setitem,
    "__iter__": _iter,
    "__int__": _int,
    "__float__": _float,
    "__complex__": lambda self: complex(self.item()),
    "__index__": _index_method,
    # arithmetic
    "add": add,
    "sub": sub,
    "subtract": sub,
    "mul": mul,
    "multiply": mul,
    "div": div,
    "divide": div,
    "true_divide": div,
    "floor_divide": floor_divide,
    "remainder": remainder,
    "fmod": fmod,
    "pow": pow,
    "neg": neg,
    "negative": neg,
    "reciprocal": reciprocal,
    "square": square,
    "eq": eq,
    "ne": ne,
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "logical_not": logical_not,
    "logical_and": logical_and,
    "greater": greater,
    "greater_equal": greater_equal,
    "less": less,
    "less_equal": less_equal,
    "not_equal": not_equal,
    "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or,
    "bitwise_xor": bitwise_xor,
    "positive": positive,
    "logical_or": logical_or,
    "logical_xor": logical_xor,
    "bitwise_not": bitwise_not,
    "bitwise_and_": bitwise_and_,
    "bitwise_or_": bitwise_or_,
    "bitwise_xor_": bitwise_xor_,
    "bitwise_not_": bitwise_not_,
    "isnan": isnan,
    "isinf": isinf,
    "isfinite": isfinite,
    "equal": equal,
    "allclose": allclose,
    # element-wise
    "exp": exp,
    "log": log,
    "log2": log2,
    "log10": log10,
    "sin": sin,
    "cos": cos,
    "tan": tan,
    "log1p": log1p,
    "expm1": expm1,
    "exp2": exp2,
    "sinh": sinh,
    "cosh": cosh,
    "asin": asin,
    "acos": acos,
    "atan": atan,
    "arcsin": asin,
    "arccos": acos,
    "arctan": atan,
    "erf": erf,
    "cumsum": cumsum,
    "cumprod": cumprod,
    "flip": flip,
    "repeat": repeat,
    "gather": gather,
    "index_select": index_select,
    "tril": tril,
    "triu": triu,
    "trace": trace,
    "addmm": addmm,
    "roll": roll,
    "atan2": atan2,
    "cross": cross,
    "arctan2": atan2,
    "lerp": lerp,
    "movedim": movedim,
    "moveaxis": movedim,
    "new_zeros": new_zeros,
    "new_ones": new_ones,
    "new_empty": new_empty,
    "new_full": new_full,
    "new_tensor": new_tensor,
    "all": all,
    "any": any,
    "sort": sort,
    "median": median,
    "nanmedian": nanmedian,
    "kthvalue": kthvalue,
    "quantile": quantile,
    "nanquantile": nanquantile,
    "mode": mode,
    "xlogy": xlogy,
    "diag": diag,
    "masked_select": masked_select,
    "nonzero": nonzero,
    "nan_to_num": nan_to_num,
    "argsort": argsort,
    "topk": topk,
    "bernoulli": bernoulli,
    "bernoulli_": bernoulli_,
    "addcmul": addcmul,
    "addcdiv": addcdiv,
    "frac": frac,
    "dist": dist,
    "count_nonzero": count_nonzero,
    "unique": unique,
    "bincount": bincount,
    "histc": histc,
    "uniform_": uniform_,
    "normal_": normal_,
    "random_": random_,
    "exponential_": exponential_,
    "cauchy_": cauchy_,
    "geometric_": geometric_,
    "log_normal_": log_normal_,
    "multinomial": multinomial,
    "heaviside": heaviside,
    "diagonal": diagonal,
    "unfold": unfold,
    "det": det,
    "slogdet": slogdet,
    "triangular_solve": triangular_solve,
    "logdet": logdet,
    "inverse": inverse,
    "pinverse": pinverse,
    "svd": svd,
    "cholesky": cholesky,
    "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse,
    "lu": tensor_lu, "lu_solve": lu_solve, "geqrf": geqrf, "orgqr": orgqr,  # (apis3's)
    "logit": logit,
    "take": take,
    "index_fill": index_fill,
    "scatter": scatter,
    "scatter_add": scatter_add,
    "scatter_reduce": scatter_reduce,
    "index_add": index_add,
    "index_copy": index_copy,
    "index_put": index_put,
    "masked_scatter": masked_scatter,
    "stride": stride,
    "storage_offset": storage_offset,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "sqrt": sqrt,
    "rsqrt": rsqrt,
    "abs": abs,
    "absolute": abs,
    "sign": sign,
    "sgn": sgn,
    "floor": floor,
    "ceil": ceil,
    "round": round,
    "trunc": trunc,
    "clamp": clamp,
    "clip": clamp,
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    "maximum": maximum,
    "minimum": minimum,
    "where": lambda self, condition, other: where(condition, self, other),
    "masked_fill": masked_fill,
    # reductions
    "sum": sum,
    "mean": mean,
    "max": _method_max,
    "min": _method_min,
    "amax": amax,
    "amin": amin,
    "argmax": argmax,
    "argmin": argmin,
    "prod": prod,
    "norm": norm,
    "var": var,
    "std": std,
    "logsumexp": logsumexp,
    # shape
    "view": view,
    "view_as": view_as,
    "reshape": reshape,
    "reshape_as": reshape_as,
    "flatten": flatten,
    "unflatten": unflatten,
    "expand": expand,
    "expand_as": expand_as,
    "broadcast_to": broadcast_to,
    "t": t,
    "transpose": transpose,
    "swapaxes": transpose,
    "swapdims": transpose,
    "permute": _permute_method,
    "unsqueeze": unsqueeze,
    "squeeze": squeeze,
    "contiguous": contiguous,
    "is_contiguous": is_contiguous,
    "select": select,
    "narrow": narrow,
    "split": split,
    "split_with_sizes": split_with_sizes,
    "chunk": chunk,
    "unbind": unbind,
    # linear algebra
    "matmul": matmul,
    "mm": mm,
    "mv": mv,
    "dot": dot,
    "inner": inner,
    "bmm": bmm,
    "baddbmm": baddbmm,
    "kron": kron,
    "as_strided": as_strided,
    "outer": outer,
    "ger": outer,
    # nn
    "softmax": dim_required(softmax, "softmax", method=True),
    "log_softmax": dim_required(log_softmax, "log_softmax", method=True),
    # copies, casts, devices, info
    "clone": clone,
    "to": to,
    "float": _cast(dtypes.float32),
    "double": _cast(dtypes.float64),
    "half": _cast(dtypes.float16),
    "bfloat16": _cast(dtypes.bfloat16),
    "long": _cast(dtypes.int64),
    "int": _cast(dtypes.int32),
    "short": _cast(dtypes.int16),
    "char": _cast(dtypes.int8),
    "byte": _cast(dtypes.uint8),
    "bool": _cast(dtypes.bool_),
    "type": tensor_type,
    "cuda": cuda,
    "cpu": cpu,
    "tolist": tolist,
    "size": size,
    "element_size": element_size,
    "data_ptr": data_ptr,
    "is_floating_point": is_floating_point,
    "is_complex": is_complex,
    "is_signed": is_signed,
    "dim_order": dim_order,
    "ndimension": lambda self: self.dim(),
    "nelement": numel,
    "type_as": type_as,
    "apply_": apply_,
    "map_": map_,
    # in place
    "add_": add_,
    "sub_": sub_,
    "mul_": mul_,
    "div_": div_,
    "pow_": pow_,
    "clamp_": clamp_,
    "clip_": clamp_,
    "clamp_min_": clamp_min_,
    "clamp_max_": clamp_max_,
    "exp_": exp_,
    "log_": log_,
    "sin_": sin_,
    "cos_": cos_,
    "tanh_": tanh_,
    "sigmoid_": sigmoid_,
    "relu_": relu_,
    "sqrt_": sqrt_,
    "abs_": abs_,
    "neg_": neg_,
    "reciprocal_": reciprocal_,
    "square_": square_,
    "zero_": zero_,
    "fill_": fill_,
    "copy_": copy_,
    "masked_fill_": masked_fill_,
    **{name: getattr(_unary, name) for name in _UNARY_IN_PLACE},
    **{name: getattr(_arithmetic, name) for name in _ARITHMETIC_IN_PLACE},
    **{name: getattr(_indexing, name) for name in _INDEXING_IN_PLACE},
    "scatter_": scatter_, "scatter_add_": scatter_add_, "scatter_reduce_": scatter_reduce_,
    **{name: getattr(_inplace_views, name) for name in _inplace_views.__all__},
    **{name: getattr(_inplace_forms, name) for name in _inplace_forms.__all__},
    **{name: getattr(_matrix_extras, name) for name in _MATRIX_EXTRA_METHODS},
    "matrix_exp": _matrix_exp.matrix_exp,
    **{name: getattr(_numeric_extras, name) for name in (
        "renorm", "renorm_", "histogram", "index_reduce", "index_reduce_")},
    **{name: getattr(_elementwise_extras, name) for name in _elementwise_extras.__all__
       if name not in ("unravel_index", "isin")},
    "hardshrink": _activations_module.hardshrink,
    "prelu": _activations_module.prelu,
    "is_nonzero": _is_nonzero,
    **{name: getattr(_scatter_views, name) for name in _scatter_views.__all__},
    **{name: getattr(_blas_extras, name) for name in _blas_extras.__all__},
    "logcumsumexp": _logcumsumexp,
    **{name: getattr(_numerics, name) for name in _NUMERICS_METHODS},
    **{name: getattr(_functional, name) for name in _FUNCTIONAL_METHODS},
    **{name: getattr(_special, name) for name in _SPECIAL_METHODS},
    "polygamma": lambda self, n: _special.polygamma(n, self),
    # autograd
    "backward": backward,
}


_UNGUARDED_METHODS = frozenset({"backward", "__getitem__", "__setitem__", "__iter__", "__int__",
                                "__float__", "__index__", "__contains__"})

# The binary operators: a TypeError makes them answer NotImplemented (see _guard)
_OPERATORS = frozenset({
    "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__",
    "__imul__", "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__",
    "__ifloordiv__", "__mod__", "__rmod__", "__imod__", "__pow__", "__rpow__", "__ipow__", "__matmul__", "__rmatmul__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__rand__", "__or__",
    "__ror__", "__xor__", "__rxor__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__",
})


def install_tensor_methods() -> None:
    """Attach _METHODS to Tensor, each wearing the method form of the argument guard, and the
    properties T, mT, H and is_cuda (gradsh.engine.ops calls this once, on import)."""
    for name, function in _METHODS.items():
        numpy_data = reads_numpy_data(function)
        function = unguarded(function)  # the method's own guard replaces the function's
        if name not in _UNGUARDED_METHODS:
            function = _guard(name.strip("_") if name.startswith("__") else name, function,
                              method=True, tensor_first=False, numpy_data=numpy_data,
                              operator=name in _OPERATORS)
        setattr(Tensor, name, function)
    Tensor.T = property(T)  # type: ignore[attr-defined]
    Tensor.itemsize = property(element_size)  # type: ignore[attr-defined]
    Tensor.nbytes = property(lambda self: self.numel() * self._data.itemsize)  # type: ignore
    for flag in ("is_sparse", "is_quantized", "is_mkldnn", "is_nested"):
        setattr(Tensor, flag, False)
    Tensor.mT = property(mT)  # type: ignore[attr-defined]
    Tensor.H = property(H)  # type: ignore[attr-defined]
    Tensor.is_cuda = property(lambda self: self.device.type == "cuda")  # type: ignore
    fastpath.install_operators()  # `*` and `+` through the C fast path, where it is on
    Tensor.is_meta = property(lambda self: self.device == "meta")  # type: ignore
