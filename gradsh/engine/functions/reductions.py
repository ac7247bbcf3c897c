"""Nodes of reductions: sum, mean, prod, max/min, logsumexp, norm, var, std, cumsum ..."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import dtypes, threads
from gradsh.engine.dtypes import DType, is_float_array_dtype
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions import complex_kernels, pointwise
from gradsh.engine.functions.complex_nodes import complex_valued
from gradsh.engine.functions.cascade_sum import _GRAIN, _mean_array, torch_sum
from gradsh.engine.functions.common import (
    _numel,
    _quiet,
    _times,
    broadcast_shapes,
    c_order,
    float_result_dtype,
    laid_out,
    result_dtype,
    xp_of,
)
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.functions.unary import _sign_array
from gradsh.engine.tensor import RESULT, Array, ArrayOps, Function, Shape, Tensor
from gradsh.engine.vecmath import norms
from gradsh.engine.vecmath.layout import coalesce, iteration_order
from gradsh.engine.vecmath.vecreduce import inner_reduce128

__all__ = [
    "SumBackward0", "SumBackward1", "MeanBackward0", "MeanBackward1", "ProdBackward0",
    "ProdBackward1", "MaxBackward1", "MinBackward1", "MaxBackward0", "MinBackward0",
    "AmaxBackward0", "AminBackward0", "LogsumexpBackward0", "LinalgVectorNormBackward0",
    "VarBackward0", "StdBackward0", "DistBackward0", "CumsumBackward0", "CumprodBackward0",
    "VarMeanBackward0", "StdMeanBackward0",
]


def _sum_dtype(a: Tensor) -> DType:
    # Integer and bool sums accumulate in int64, as PyTorch's sum does.
    return a.dtype if a.dtype.category >= 2 else dtypes.int64


def _restore_reduced(F: Any, grad: Any, dims: tuple[int, ...] | None, keepdim: bool,
                     ndim: int) -> Any:
    """A reduced gradient with its reduced dimensions back as size 1 (keepdim form)."""
    if keepdim or ndim == 0:
        return grad
    if dims is None:
        dims = tuple(range(ndim))
    return F.unsqueeze_dims(grad, dims, ndim)


def _reshape_reduced(F: Any, t: Any, dims: tuple[int, ...], keepdim: bool, shape: Shape) -> Any:
    """restore_reduced_dims: the reduced result reshaped with size 1 at the reduced dims."""
    if keepdim:
        return t
    return F.reshape(t, tuple(1 if d in dims else n for d, n in enumerate(shape)))


class SumBackward0(Function):
    node_name = "SumBackward0"

    def forward(self, a: Tensor, dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        return torch_sum(a._data, None, False, (dtype or _sum_dtype(a)).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.expand(grad, self.self_sizes),)


class SumBackward1(Function):
    node_name = "SumBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False,
                dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        return torch_sum(a._data, dim or None, keepdim, (dtype or _sum_dtype(a)).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, len(self.self_sizes))
        return (F.expand(grad, self.self_sizes),)


class MeanBackward0(Function):
    node_name = "MeanBackward0"

    def forward(self, a: Tensor, dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.numel = a.numel()
        with _quiet():
            return _mean_array(a._data, None, False, (dtype or a.dtype).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # mean_backward: sum_backward(...) / numel (expand first, then divide)
        with _quiet():
            return (F.expand(grad, self.self_sizes) / self.numel,)


class MeanBackward1(Function):
    node_name = "MeanBackward1"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool = False,
                dtype: DType | None = None) -> Array:
        self.self_sizes = a.shape
        self.dim = dim
        self.keepdim = keepdim
        with _quiet():
            return _mean_array(a._data, dim or None, keepdim, (dtype or a.dtype).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        count = 1
        for d in self.dim:
            count *= self.self_sizes[d] if self.self_sizes else 1
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, len(self.self_sizes))
        with _quiet():
            return (F.expand(grad, self.self_sizes) / count,)


def _exclusive_products(x: Array, axis: int) -> Array:
    """For each element, the product of the others along `axis` (exact with zeros)."""
    xp = xp_of(x)
    ones_shape = list(x.shape)
    ones_shape[axis] = 1
    one = xp.ones(ones_shape, dtype=x.dtype)
    before = xp.cumprod(xp.concatenate([one, x], axis=axis), axis=axis)
    before = xp.take(before, range(x.shape[axis]), axis=axis)
    flipped = xp.flip(x, axis=axis)
    after = xp.cumprod(xp.concatenate([one, flipped], axis=axis), axis=axis)
    after = xp.flip(xp.take(after, range(x.shape[axis]), axis=axis), axis=axis)
    return before * after


def _float_prod(x: Array, dim: int | None, keepdim: bool) -> np.ndarray | None:
    """prod of a C-contiguous float32/float64 array as ATen's kernel multiplies (measured, bit
    for bit): over trailing elements (the last dim, or all) vecreduce.inner_reduce128 with
    AVX2's vector (8 floats, 4 doubles); over another dim, each output's elements in order.
    None elsewhere, and for one output of GRAIN_SIZE or more elements at several threads."""
    if x.__class__ is not np.ndarray or x.dtype not in (np.float32, np.float64) \
            or not x.flags.c_contiguous or x.size == 0 or x.ndim == 0:
        return None
    with _quiet():
        if dim is None or all(n == 1 for n in x.shape[dim % x.ndim + 1:]):
            count = x.size if dim is None else x.shape[dim % x.ndim]
            if x.size == count and count >= _GRAIN and threads.torch_threads() > 1:
                return None
            lanes = 8 if x.dtype == np.float32 else 4
            out = inner_reduce128(x.reshape(-1, count), np.multiply, 1.0, lanes)
        else:
            d = dim % x.ndim
            moved = np.moveaxis(x, d, 0)
            out = moved[0].copy()
            for row in moved[1:]:
                out = out * row
        if dim is None:
            return out.reshape(())
        shape = list(x.shape)
        if keepdim:
            shape[dim % x.ndim] = 1
        else:
            del shape[dim % x.ndim]
        return out.reshape(shape)


class ProdBackward0(Function):
    node_name = "ProdBackward0"

    def forward(self, a: Tensor) -> Array:
        self.save("self", a)
        self.save("result", RESULT)
        exact = _float_prod(a._data, None, False) if _sum_dtype(a).np == a._data.dtype else None
        if exact is not None:
            return exact
        with _quiet():
            return a._data.prod(dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if x.ndim == 0:
            return (grad,)
        result = self.saved("result", F)
        zeros = F.count_zeros(x)
        if zeros == 0:
            with _quiet():
                return (grad * (result / x),)
        if zeros > 1 and F is ArrayOps:
            # ATen's prod_backward: two zeros or more outside grad mode give zeros_like (+0.,
            # where the product of the others would give -0. for a negative factor)
            return (F.zeros_like(x),)
        # NOTE: with zeros, result / x is 0/0: use the product of the other elements, over
        # the flattened input, then viewed back (ATen's order: the graph ends in a view)
        return (F.reshape(grad * F.prod_others(F.reshape(x, (-1,)), 0), x.shape),)


class ProdBackward1(Function):
    node_name = "ProdBackward1"

    def forward(self, a: Tensor, dim: int, keepdim: bool = False) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        exact = _float_prod(a._data, dim, keepdim) if _sum_dtype(a).np == a._data.dtype else None
        if exact is not None:
            return exact
        with _quiet():
            return a._data.prod(axis=dim, keepdims=keepdim, dtype=_sum_dtype(a).np)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        if x.ndim == 0:
            return (grad,)
        result = self.saved("result", F)
        grad = _restore_reduced(F, grad, (self.dim,), self.keepdim, x.ndim)
        result = _restore_reduced(F, result, (self.dim,), self.keepdim, x.ndim)
        if F.count_zeros(x) == 0:
            with _quiet():
                return (grad * (result / x),)
        return (grad * F.prod_others(x, self.dim),)


class _FullExtremum(Function):
    """max()/min() over all elements: ties share the gradient evenly (evenly_distribute)."""

    reduce: ClassVar[str]

    def forward(self, a: Tensor) -> Array:
        if a.numel() == 0:
            raise TorchRuntimeError(
                f"{self.reduce}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        self.save("self", a)
        self.save("result", RESULT)
        xp = xp_of(a._data)
        fn = xp.max if self.reduce == "max" else xp.min
        return fn(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        result = self.saved("result", F)
        mask = F.isnan(x) if F.to_bool(F.isnan(result)) else x == result
        # evenly_distribute_backward: zeros.masked_fill_(mask, grad / mask.sum())
        return (F.evenly_distribute(grad, x, mask),)


class MaxBackward1(_FullExtremum):
    node_name = "MaxBackward1"
    reduce = "max"


class MinBackward1(_FullExtremum):
    node_name = "MinBackward1"
    reduce = "min"


def _arg_extremum(data: Array, dim: int | None, keepdim: bool, reduce: str) -> Array:
    """argmax/argmin with PyTorch's NaN rule (a NaN is the extremum; first occurrence wins)."""
    xp = xp_of(data)
    if is_float_array_dtype(data.dtype):
        nan = xp.isnan(data)
        if bool(nan.any()):
            work = xp.where(nan, -xp.inf if reduce == "min" else xp.inf, data)
            if dim is None:
                index = xp.argmax(nan.reshape(-1)) if bool(nan.any()) else None
                return xp.asarray(index, dtype=xp.int64)
            idx = (xp.argmax if reduce == "max" else xp.argmin)(work, axis=dim, keepdims=keepdim)
            any_nan = nan.any(axis=dim, keepdims=keepdim)
            first_nan = xp.argmax(nan, axis=dim, keepdims=keepdim)
            return xp.where(any_nan, first_nan, idx).astype(xp.int64)
    fn = xp.argmax if reduce == "max" else xp.argmin
    if dim is None:
        return xp.asarray(fn(data.reshape(-1)), dtype=xp.int64)
    return fn(data, axis=dim, keepdims=keepdim).astype(xp.int64)


class _DimExtremum(Function):
    """max(dim)/min(dim): the values; the indices are computed alongside (no grad)."""

    reduce: ClassVar[str]

    def forward(self, a: Tensor, dim: int, keepdim: bool, indices: Array) -> Array:
        self.dim, self.keepdim, self.self_sizes = dim, keepdim, a.shape
        self.save("indices", Tensor._make(indices, a.device))
        if a.ndim == 0:
            return a._data.copy()
        idx = indices if keepdim else xp_of(indices).expand_dims(indices, dim)
        values = xp_of(a._data).take_along_axis(a._data, idx, axis=dim)
        return values if keepdim else values.squeeze(dim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        indices = self.saved("indices", F)
        if len(self.self_sizes) == 0:
            return (grad,)
        return (F.value_selecting_backward(grad, self.dim, indices, self.self_sizes,
                                           self.keepdim),)


class MaxBackward0(_DimExtremum):
    node_name = "MaxBackward0"
    reduce = "max"


class MinBackward0(_DimExtremum):
    node_name = "MinBackward0"
    reduce = "min"


class _AmaxAmin(Function):
    reduce: ClassVar[str]

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        xp = xp_of(a._data)
        fn = xp.max if self.reduce == "max" else xp.min
        return fn(a._data, axis=dim if dim else None, keepdims=keepdim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        dims = self.dim or tuple(range(x.ndim))
        # restore_reduced_dims is a reshape here (not unsqueezes)
        result = _reshape_reduced(F, self.saved("result", F), dims, self.keepdim, x.shape)
        grad = _reshape_reduced(F, grad, dims, self.keepdim, x.shape)
        mask = x == result
        # scale_grad_by_count: a product, so a NaN gradient stays NaN off the extremum too
        with _quiet():
            return ((grad / F.sum(mask, dims, True)) * mask,)


class AmaxBackward0(_AmaxAmin):
    node_name = "AmaxBackward0"
    reduce = "max"


class AminBackward0(_AmaxAmin):
    node_name = "AminBackward0"
    reduce = "min"


class LogsumexpBackward0(Function):
    node_name = "LogsumexpBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...], keepdim: bool) -> Array:
        self.dim, self.keepdim = dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data.astype(float_result_dtype(a).np, copy=False)
        xp = xp_of(x)
        with _quiet():
            # logsumexp_out_impl: amax (infinities masked to 0), exp, sum, log, add
            m = xp.max(x, axis=dim, keepdims=True) if x.size else xp.zeros((1,) * x.ndim, x.dtype)
            m = xp.where(xp.isinf(m), x.dtype.type(0), m)
            total = torch_sum(pointwise.unary("exp", x - m), dim, True, x.dtype)
            out = pointwise.unary("log", total) + m
        return out if keepdim else out.squeeze(axis=dim) if x.ndim else out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        result = _restore_reduced(F, self.saved("result", F), self.dim, self.keepdim, x.ndim)
        grad = _restore_reduced(F, grad, self.dim, self.keepdim, x.ndim)
        return (grad * F.exp(x - result),)


class LinalgVectorNormBackward0(Function):
    node_name = "LinalgVectorNormBackward0"

    def forward(self, a: Tensor, ord: float, dim: tuple[int, ...] | None,  # noqa: A002
                keepdim: bool) -> Array:
        self.ord, self.dim, self.keepdim = ord, dim, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data
        if x.dtype.kind == "c":  # the norm of complex values is their magnitudes' (real)
            self.complex_input = True
            x = complex_kernels.abs_(x)
        xp = xp_of(x)
        axis = dim if dim else None
        reduced = tuple(d % x.ndim for d in dim) if dim else tuple(range(x.ndim))
        if all(x.shape[d] == 1 for d in reduced):
            # linalg_vector_norm over dimensions of size 1: abs(x) (x != 0 for ord 0), no pow
            out = xp.abs(x) if ord != 0 else (x != 0).astype(x.dtype)
            return out if keepdim else out.reshape(
                tuple(n for d, n in enumerate(x.shape) if d not in reduced))
        if ord == 2 and x.__class__ is np.ndarray:
            exact = norms.norm2(x, dim, keepdim)
            if exact is not None:
                return exact
        if ord not in (0, 2, math.inf, -math.inf) and x.__class__ is np.ndarray:
            exact = norms.norm_p(x, ord, dim, keepdim, threads.torch_threads())
            if exact is not None:
                return exact
        with _quiet():
            ax = xp.abs(x)
            if ord == 2:
                out = xp.sqrt(xp.sum(ax * ax, axis=axis, keepdims=keepdim))
            elif ord == 1:
                out = xp.sum(ax, axis=axis, keepdims=keepdim)
            elif ord == math.inf:
                out = xp.max(ax, axis=axis, keepdims=keepdim)
            elif ord == -math.inf:
                out = xp.min(ax, axis=axis, keepdims=keepdim)
            elif ord == 0:
                out = xp.sum(ax != 0, axis=axis, keepdims=keepdim).astype(x.dtype)
            else:
                out = xp.sum(ax ** ord, axis=axis, keepdims=keepdim) ** (1.0 / ord)
        return xp.asarray(out, dtype=x.dtype)

    complex_input = False

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if self.complex_input:
            raise TorchNotImplementedError("gradsh does not implement the gradient of the norm "
                                           "of a complex tensor yet")
        # norm_backward, formula for formula
        x = self.saved("self", F)
        norm = self.saved("result", F)
        dims = self.dim or ()
        if not self.keepdim and x.ndim != 0 and dims:
            grad = F.unsqueeze_dims(grad, dims, x.ndim)
            norm = F.unsqueeze_dims(norm, dims, x.ndim)
        if self.ord == 0:
            return (None,)  # PyTorch returns an undefined gradient: x.grad stays None
        return (_norm_backward(F, grad, x, norm, self.ord, dims),)


def _norm_backward(F: Any, grad: Any, x: Any, norm: Any, p: float, dims: tuple[int, ...]) -> Any:
    """FunctionsManual's norm_backward, formula for formula (its graph under create_graph is
    PyTorch's), for p != 0; grad and norm already have x's dimensions."""
    with _quiet():
        if p == 1:
            return F.sgn(x) * grad
        if p == 2:
            # NOTE: the gradient at the zero vector is 0 (masked), not NaN.
            return grad * F.masked_fill(x / norm, norm == 0, 0.0)
        if math.isinf(p):
            ax = F.abs(x)
            mask = (ax == norm) | F.isnan(ax)
            return F.sgn(x) * ((grad / F.sum(mask, dims or None, True)) * mask)
        if p < 1:
            scaled = F.sgn(x) * F.masked_fill(_pow(F, F.abs(x), p - 1), x == 0, 0.0)
            return scaled * grad * _pow(F, norm, 1 - p)
        if p < 2:
            scaled = F.sgn(x) * _pow(F, F.abs(x), p - 1)
        else:
            scaled = x * _pow(F, F.abs(x), p - 2)
        return scaled * F.masked_fill(grad / _pow(F, norm, p - 1), norm == 0, 0.0)


def _pow(F: Any, x: Any, exponent: float) -> Any:
    """x.pow(exponent) in a backward formula: on arrays ATen's pow_tensor_scalar kernel (its
    shortcuts and Sleef's powf: NumPy's power differs in the last bit), else `**`."""
    if not F.as_tensor:
        exact = pointwise.pow_scalar(x, exponent)
        if exact is not None:
            return exact
    return x ** exponent


def _reduced_count(shape: Shape, dims: tuple[int, ...] | None) -> int:
    count = 1
    for d in dims if dims else range(len(shape)):
        count *= shape[d]
    return count


def _var_array(x: Array, dims: tuple[int, ...] | None, correction: float, keepdim: bool,
               take_sqrt: bool = False) -> Array:
    """var (or std) as PyTorch's CPU kernels compute it (see _var_all, _var_dims)."""
    if x.__class__ is np.ndarray and x.dtype in (np.float32, np.float64) and x.size:
        reduced = tuple(range(x.ndim)) if not dims else dims
        if all(n == 1 for d, n in enumerate(x.shape) if d not in reduced):  # one output
            shape = tuple(1 if d in reduced else n for d, n in enumerate(x.shape)) if keepdim \
                else tuple(n for d, n in enumerate(x.shape) if d not in reduced)
            return np.full(shape, _var_all(x, correction, take_sqrt), dtype=x.dtype)
        if x.dtype == np.float32:
            return _var_dims(x, dims, correction, keepdim, take_sqrt)
        if pointwise.is_float64(x):
            return _var_dims64(x, reduced, correction, keepdim, take_sqrt)[0]
    var = _var_numpy(x, dims, correction, keepdim)
    return xp_of(var).sqrt(var) if take_sqrt else var


def _var_all(x: np.ndarray, correction: float, take_sqrt: bool) -> Any:
    """std_var_all_cpu: the mean in x's dtype (mean()), then the squared distances to it added
    up in float64, in iteration order (one running sum per loop call, added into the thread's),
    divided, square-rooted in float64 and only then rounded to x's dtype."""
    mean = float(_mean_array(x, None, False, x.dtype))
    values = x.astype(np.float64) - mean
    values *= values
    count = threads.torch_threads()
    if x.size <= _GRAIN or count == 1:
        total = _loop_sums(values, 0, x.size)
    else:  # at::parallel_reduce: one range per thread, their sums added to 0 in turn
        used = min(count, -(-x.size // _GRAIN))
        chunk = -(-x.size // used)
        total = 0.0
        for begin in range(0, x.size, chunk):
            total += _loop_sums(values, begin, min(x.size, begin + chunk))
    var = total / max(0.0, x.size - correction) if x.size - correction > 0 else (
        math.nan if total == 0 or math.isnan(total) else math.inf)
    return math.sqrt(var) if take_sqrt and not math.isnan(var) else var


def _loop_sums(values: np.ndarray, begin: int, end: int) -> float:
    """serial_for_each over [begin, end) of an input-only iteration: each 2-D step sums its
    elements from 0.0, and the steps' sums are added to the thread's sum from 0.0."""
    dims = _input_iteration(values)
    flat = _in_iteration_order(values, dims)
    size0 = dims[0][0] if dims else 1
    size1 = dims[1][0] if len(dims) > 1 else 1
    steps = []
    offset = begin
    while offset < end:  # DimCounter's steps: a partial row, rows, whole blocks
        inner = offset % size0
        if inner or end - offset < size0:
            step = min(size0 - inner, end - offset)
        else:
            rows = min(size1 - (offset // size0) % size1, (end - offset) // size0)
            step = rows * size0
        steps.append(step)
        offset += step
    sums = []
    start = begin
    for step in steps:
        sums.append(float(np.cumsum(flat[start:start + step])[-1]))
        start += step
    total = 0.0
    for value in sums:
        total += value
    return total


def _input_iteration(x: np.ndarray) -> list[tuple[int, int]]:
    """(size, stride) of a one-operand TensorIterator's dimensions, fastest first."""
    keep = [d for d in range(x.ndim) if x.shape[d] != 1]
    sizes = [x.shape[d] for d in keep]
    strides = [[x.strides[d] // x.itemsize for d in keep]]
    order = iteration_order(sizes, strides)
    merged_sizes, (merged,) = coalesce([sizes[d] for d in order], [[strides[0][d] for d in order]])
    return list(zip(merged_sizes, merged))


def _in_iteration_order(x: np.ndarray, dims: list[tuple[int, int]]) -> np.ndarray:
    view = np.lib.stride_tricks.as_strided(
        x, shape=tuple(n for n, _ in reversed(dims)),
        strides=tuple(s * x.itemsize for _, s in reversed(dims)))
    return view.reshape(-1)


def _var_dims(x: np.ndarray, dims: tuple[int, ...], correction: float, keepdim: bool,
              take_sqrt: bool) -> np.ndarray:
    """std_var_kernel: Welford in float64 per output, the result rounded to float32. Computed
    here in float64 by two passes, which rounds to the same float32 except when the float64
    value lies within about 1e-9 of a float32 ulp of a rounding boundary."""
    x64 = x.astype(np.float64)
    mean = np.mean(x64, axis=dims, keepdims=True)
    centered = x64 - mean
    total = np.sum(centered * centered, axis=dims, keepdims=keepdim)
    n = _reduced_count(x.shape, dims)
    with _quiet():
        var = total / (n - correction if n - correction > 0 else 0.0)
        return (np.sqrt(var) if take_sqrt else var).astype(np.float32)


def _var_dims64(x: np.ndarray, dims: tuple[int, ...], correction: float, keepdim: bool,
                take_sqrt: bool) -> tuple[np.ndarray, np.ndarray]:
    """std_var_kernel on float64: each output's Welford sequence over its elements in memory
    order (the reduced dims from the largest stride to the smallest), as binary_kernel_reduce
    runs it (vecmath/kernels_double.welford_var); a single output of GRAIN_SIZE elements or
    more is split among the threads, the pieces combined. (var or std, mean)."""
    reduced = sorted({d % x.ndim for d in dims}, key=lambda d: -abs(x.strides[d]))
    kept = [d for d in range(x.ndim) if d not in reduced]
    moved = np.transpose(x, reduced + kept)
    count = int(np.prod([x.shape[d] for d in reduced], dtype=np.int64))
    values = moved.reshape((count,) + tuple(x.shape[d] for d in kept))
    pieces = 1
    if not kept or all(x.shape[d] == 1 for d in kept):
        if count >= _GRAIN and threads.torch_threads() > 1:
            pieces = min(threads.torch_threads(), -(-count // _GRAIN))
    out, mean = pointwise.D.welford_var(values, correction, take_sqrt, pieces)
    if keepdim:
        shape = tuple(1 if d in reduced else n for d, n in enumerate(x.shape))
        out, mean = out.reshape(shape), mean.reshape(shape)
    return out, mean


def _var_numpy(x: Array, dims: tuple[int, ...] | None, correction: float, keepdim: bool) -> Array:
    xp = xp_of(x)
    axis = dims if dims else None
    with _quiet():
        mean = _mean_array(x, axis, True, x.dtype)
        centered = x - mean
        total = xp.sum(centered * centered, axis=axis, keepdims=keepdim)
        n = _reduced_count(x.shape, dims)
        return xp.asarray(total / max(n - correction, 0), dtype=x.dtype)


class VarBackward0(Function):
    node_name = "VarBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, correction: float,
                keepdim: bool) -> Array:
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        self.save("self", a)
        return _var_array(a._data, dim, correction, keepdim)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (_var_backward(F, grad, self.saved("self", F), self.dim, self.correction,
                              self.keepdim),)


def _var_backward(F: Any, grad: Any, x: Any, dim: tuple[int, ...] | None, correction: float,
                  keepdim: bool) -> Any:
    # var_backward: (2 / (N - correction)) * grad * (self - self.mean(dim, keepdim=True))
    with _quiet():
        if x.ndim == 0 or dim is None:
            dof = _numel(x.shape) - correction
            if dof <= 0:
                # PyTorch returns a constant: inf (with grad's sign) off the mean, nan on it
                # (linear in grad: its graph continues, the factor is a constant)
                return grad * F.detached(lambda v: _var_dof_zero(v), x)
            return _times(_times(grad, 2.0 / dof), x - F.mean(x, None, False))
        if not keepdim and x.ndim > 1 and dim:
            grad = F.unsqueeze_dims(grad, dim, x.ndim)
        n = 1
        for d in dim:  # _safe_size over the listed dims: 1 for an explicit empty list
            n *= x.shape[d]
        scale = 2.0 / (n - correction) if n - correction != 0 else math.inf
        return _times(_times(grad, scale), x - F.mean(x, dim, True))


def _var_dof_zero(x: Array) -> Array:
    """inf off the mean, nan on it (0 * inf)."""
    xp = xp_of(x)
    off_mean = xp.abs(_sign_array(x - _mean_array(x, None, False, x.dtype)))
    return off_mean * x.dtype.type(math.inf)


class StdBackward0(Function):
    node_name = "StdBackward0"

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, correction: float,
                keepdim: bool) -> Array:
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        self.save("self", a)
        self.save("result", RESULT)
        return _var_array(a._data, dim, correction, keepdim, take_sqrt=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        result = self.saved("result", F)
        with _quiet():
            grad_var = F.masked_fill(grad / (result * 2), result == 0, 0.0)
        return (_var_backward(F, grad_var, self.saved("self", F), self.dim, self.correction,
                              self.keepdim),)


class VarMeanBackward0(MultiOutputFunction):
    """var_mean: (var, mean) from one node, as PyTorch records it; var_mean_backward is
    var_backward of the first gradient plus mean_backward of the second."""

    node_name = "VarMeanBackward0"
    take_sqrt: ClassVar[bool] = False

    def forward(self, a: Tensor, dim: tuple[int, ...] | None, correction: float,
                keepdim: bool) -> tuple[Array, Array]:
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        self.self_sizes = a.shape
        self.save("self", a)
        x = a._data
        if x.dtype in dtypes.REDUCED_FLOAT_NP:
            # (opmath: both outputs computed in float32 and rounded once, as var and std are;
            # Function.apply widens single-output nodes, half_opmath.py)
            with _quiet():
                wide = Tensor._make(x.astype(np.float32), a.device)
                first, mean = type(self).forward(self, wide, dim, correction, keepdim)
                self.save("self", a)
                return first.astype(x.dtype), mean.astype(x.dtype)
        if (pointwise.is_float64(x) or x.__class__ is np.ndarray and x.dtype == np.float32) \
                and x.size:
            # var_mean's kernel is Welford's for every output, the mean its own (not sum / n),
            # accumulated in float64 for float32 data and rounded once
            first, mean = _var_dims64(x.astype(np.float64, copy=False),
                                      dim or tuple(range(x.ndim)), correction,
                                      keepdim, self.take_sqrt)
            return first.astype(x.dtype, copy=False), mean.astype(x.dtype, copy=False)
        first = _var_array(a._data, dim, correction, keepdim, take_sqrt=self.take_sqrt)
        with _quiet():
            mean = _mean_array(a._data, dim or None, keepdim, a.dtype.np)
        return first, mean

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        g_first, g_mean = grads
        x = self.saved("self", F)
        g_self = None if g_first is None else self.first_backward(F, g_first, x)
        if g_mean is not None:
            count = _numel(self.self_sizes) if not self.dim else math.prod(
                self.self_sizes[d] for d in self.dim)
            g_mean = _restore_reduced(F, g_mean, self.dim or None, self.keepdim,
                                      len(self.self_sizes))
            with _quiet():
                aux = F.expand(g_mean, self.self_sizes) / count
                g_self = aux if g_self is None else g_self + aux
        return (g_self,)

    def first_backward(self, F: Any, grad: Any, x: Any) -> Any:
        return _var_backward(F, grad, x, self.dim, self.correction, self.keepdim)


class StdMeanBackward0(VarMeanBackward0):
    """std_mean: (std, mean) from one node; std_backward of the first gradient."""

    node_name = "StdMeanBackward0"
    take_sqrt = True
    outputs_saved = ("result0", None)

    def first_backward(self, F: Any, grad: Any, x: Any) -> Any:
        result = self.saved("result0", F)
        with _quiet():
            grad_var = F.masked_fill(grad / (result * 2), result == 0, 0.0)
        return _var_backward(F, grad_var, x, self.dim, self.correction, self.keepdim)


class DistBackward0(Function):
    """dist(a, b, p) = the p-norm of a - b."""

    node_name = "DistBackward0"

    def forward(self, a: Tensor, b: Tensor, p: float) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        self.save("self", a)
        self.save("other", b)
        self.save("result", RESULT)
        self.p = p
        dtype = result_dtype(a, b).np
        signed = a._data.astype(dtype) - b._data.astype(dtype)
        if signed.__class__ is np.ndarray and p not in (0, math.inf, -math.inf):
            # at::norm(self - other, p): linalg_vector_norm's kernels on the difference
            exact = (norms.norm2(signed, None, False) if p == 2 else
                     norms.norm_p(signed, p, None, False, threads.torch_threads()))
            if exact is not None:
                return exact
        diff = xp_of(signed).abs(signed).reshape(-1)
        xp = xp_of(diff)
        with _quiet():
            if p == 0:
                value = (diff != 0).sum()
            elif math.isinf(p):
                value = diff.max() if p > 0 else diff.min()
            else:
                value = (diff.astype(np.float64) ** p).sum() ** (1 / p)
        return xp.asarray(value, dtype=diff.dtype)  # (of complex operands: real)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_b = self.needs_input_grad
        d = self.saved("self", F) - self.saved("other", F)
        if complex_valued(d):
            raise TorchNotImplementedError("gradsh does not implement the gradient of dist of "
                                           "complex tensors yet")
        norm = self.saved("result", F)
        p = self.p
        if p == 0:  # PyTorch's norm backward gives no tensor for p = 0, and says so
            raise TorchRuntimeError("Expected a proper Tensor but got None (or an undefined "
                                    "Tensor in C++) for argument #0 'self'")
        g = _norm_backward(F, grad, d, norm, p, ())  # derivatives.yaml: norm_backward of a - b
        with _quiet():
            return (g if need_a else None, -g if need_b else None)


class CumsumBackward0(Function):
    node_name = "CumsumBackward0"

    def forward(self, a: Tensor, dim: int, dtype: DType) -> Array:
        self.dim, self.ndim = dim, a.ndim
        x = a._data
        if x.ndim == 0:
            return x.astype(dtype.np)
        out = _cumsum_array(x.astype(dtype.np, copy=False), dim)
        if dtype.is_floating_point:  # PyTorch's running sum starts from +0.0: never -0.0
            out = out + out.dtype.type(0)
        return c_order(out)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if not self.ndim:
            return (grad,)
        return (F.flip(F.cumsum(F.flip(grad, (self.dim,)), self.dim), (self.dim,)),)


def _cumsum_array(x: Array, dim: int, product: bool = False) -> Array:
    """cumsum (or cumprod) along dim as PyTorch's CPU kernel: the running sum of a float32
    tensor is kept in float64 (its accumulate type on the CPU), each value rounded to float32;
    float16's and bfloat16's in float32."""
    xp = xp_of(x)
    accumulate = xp.cumprod if product else xp.cumsum
    if xp is np and x.dtype == np.float32:
        return accumulate(x, axis=dim, dtype=np.float64).astype(np.float32)
    if xp is np and x.dtype in dtypes.REDUCED_FLOAT_NP:
        return accumulate(x.astype(np.float32), axis=dim).astype(x.dtype)
    return accumulate(x, axis=dim, dtype=x.dtype)


def _cumprod_grad_array(grad: Array, x: Array, dim: int) -> Array:
    """d/dx of cumprod along dim, exact with zeros: grad_i = sum over k >= i of grad_k times
    the product of x_j for j <= k, j != i (the products built row by row)."""
    xp = xp_of(x)
    xm, gm = xp.moveaxis(x, dim, -1), xp.moveaxis(grad, dim, -1)
    n = xm.shape[-1]
    others = xp.broadcast_to(xm[..., None, :], xm.shape + (n,)).copy()  # [..., i, j]
    eye = xp.eye(n, dtype=bool)
    others[..., eye] = 1  # x_j with x_i replaced by 1
    prefix = xp.cumprod(others, axis=-1)  # [..., i, k]: prod over j <= k of x_j (j != i)
    upper = xp.triu(xp.ones((n, n), dtype=bool))  # k >= i
    out = (prefix * upper * gm[..., None, :]).sum(axis=-1)
    return xp.moveaxis(out.astype(grad.dtype, copy=False), -1, dim)


class CumprodBackward0(Function):
    node_name = "CumprodBackward0"

    def forward(self, a: Tensor, dim: int, dtype: DType) -> Array:
        self.dim, self.ndim = dim, a.ndim
        self.save("self", a)
        self.save("result", RESULT)
        x = a._data
        if x.ndim == 0:
            return x.astype(dtype.np)
        return _cumsum_array(x.astype(dtype.np, copy=False), dim, product=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x, out = self.saved("self", F), self.saved("result", F)
        if not self.ndim:
            return (grad,)
        if F.count_zeros(x) == 0:
            flipped = F.flip(F.cumsum(F.flip(out * grad, (self.dim,)), self.dim), (self.dim,))
            with _quiet():
                return (flipped / x,)
        if F.as_tensor:  # create_graph: ATen's differentiable O(n^2) form
            return (F.cumprod_zeros_grad(grad, x, self.dim % self.ndim),)
        return (F.detached(lambda g: _cumprod_grad_array(g, F.as_array(x), self.dim), grad),)


# reductions over dimensions (and the running products) write a fresh contiguous result, its
# size-1 dimensions' strides included; NumPy's keep the input's order (sum and mean already
# give ATen's layout)
for _name in ("ProdBackward1", "MaxBackward0", "MinBackward0", "AmaxBackward0", "AminBackward0",
              "LogsumexpBackward0", "LinalgVectorNormBackward0", "VarBackward0", "StdBackward0",
              "VarMeanBackward0", "StdMeanBackward0", "CumprodBackward0"):
    laid_out("row_major")(globals()[_name])
