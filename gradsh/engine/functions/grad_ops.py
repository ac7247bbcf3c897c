"""ArrayOps, what backward formulas call besides operators; create_graph's scalar flag."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from gradsh.engine import backend
from gradsh.engine.dtypes import DType, is_float_array_dtype
from gradsh.engine.functions.cascade_sum import _mean_array, torch_sum
from gradsh.engine.functions.common import _quiet, iterator_layout, preserve_layout, xp_of
from gradsh.engine.functions.linalg import matrix_product, product
from gradsh.engine.functions.higher_order import (
    _array_index_put_acc,
    _array_scatter_view,
    _array_value_selecting,
    _log_softmax_backward_array,
    _bce_backward_array,
    _mse_backward_array,
    _nll_backward_array,
    _sigmoid_backward_array,
    _softmax_backward_array,
    _tanh_backward_array,
    _threshold_backward_array,
)
from gradsh.engine.functions.indexing import _scatter_array
from gradsh.engine.functions.linalg import _array_diagonal_scatter
from gradsh.engine.functions.reductions import _cumsum_array, _exclusive_products
from gradsh.engine.functions.pointwise import UNARY, unary
from gradsh.engine.functions.special import ARRAY_SPECIAL
from gradsh.engine.functions.unary import _sign_array
from gradsh.engine.tensor import Array, ArrayOps, Shape
from gradsh.engine.vecmath.layout import writable_alias

__all__ = ["ScalarOverloads"]


def _array_unsqueeze_dims(grad: Array, dims: tuple[int, ...], ndim: int) -> Array:
    for d in sorted(d % ndim for d in dims):
        grad = xp_of(grad).expand_dims(grad, d)
    return grad


def _array_sum_to(grad: Array, shape: Shape) -> Array:
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead))
    if 1 in shape:  # (a generator only where a size-1 dimension may be summed: a bias's never)
        axes += tuple(i + lead for i, n in enumerate(shape) if n == 1 and grad.shape[i + lead] != 1)
    if axes:
        grad = torch_sum(grad, axes, True, grad.dtype)
    return grad.reshape(shape)


def _array_view_split(grad: Array, view_fn: Callable[[Array], Array]) -> tuple[Array, Array]:
    result = grad.copy()
    return result, view_fn(result).copy()


def _array_view_fill(result: Array, view_fn: Callable[[Array], Array], part: Array | None) -> Array:
    view = view_fn(result)
    if isinstance(view, np.ndarray) and not view.flags.writeable:  # overlapping windows
        view = writable_alias(view)
    view[...] = 0 if part is None else part
    return result


def _array_index_fill_zero(grad: Array, key: tuple[Any, ...]) -> Array:
    result = grad.copy()
    result[key] = 0
    return result


def _array_sum(g: Array, dims: tuple[int, ...] | None, keepdim: bool) -> Array:
    axis = dims if dims else None
    dtype = g.dtype if is_float_array_dtype(g.dtype) else np.int64
    return xp_of(g).asarray(torch_sum(g, axis, keepdim, dtype))


def _array_mean(g: Array, dims: tuple[int, ...] | None, keepdim: bool) -> Array:
    axis = dims if dims else None
    with _quiet():
        return xp_of(g).asarray(_mean_array(g, axis, keepdim, g.dtype))


def _array_masked_fill(g: Array, mask: Array, value: float) -> Array:
    xp = xp_of(g)
    shape = np.broadcast_shapes(g.shape, mask.shape)
    return xp.where(mask, xp.zeros((), dtype=g.dtype) + value, xp.broadcast_to(g, shape))


def _array_narrow(g: Array, dim: int, start: int, length: int) -> Array:
    key = (slice(None),) * dim + (slice(start, start + length),)
    return g[key]


def _array_index_add(base: Array, dim: int, index: Array, source: Array) -> Array:
    xp = xp_of(base)
    out = base.copy()
    xp.add.at(xp.moveaxis(out, dim, 0), index.reshape(-1), xp.moveaxis(source, dim, 0))
    return out


def _array_select(g: Array, dim: int, index: int) -> Array:
    return g[(slice(None),) * dim + (index, Ellipsis)]


def _array_to_copy(g: Array, dtype: DType | None, device: str) -> Array:
    if dtype is not None and g.dtype != dtype.np:
        if g.dtype.kind == "c" and not dtype.is_complex:
            g = g.real  # _to_copy_backward: a real input's gradient is the real part
        g = g.astype(dtype.np)
    return backend.to_device(g, device)


class _Namespace:
    """Fill ArrayOps and TensorOps with one call per helper."""

    @staticmethod
    def install(target: type, **helpers: Callable[..., Any]) -> None:
        for name, helper in helpers.items():
            setattr(target, name, staticmethod(helper))


_Namespace.install(
    ArrayOps,
    expand=lambda g, shape: xp_of(g).broadcast_to(g, shape),
    reshape=lambda g, shape: g.reshape(shape),
    t=lambda g: g.T,
    transpose=lambda g, d0, d1: xp_of(g).swapaxes(g, d0, d1) if g.ndim else g,
    permute=lambda g, dims: xp_of(g).transpose(g, dims),
    squeeze=lambda g, d: g.reshape(g.shape[:d] + g.shape[d + 1:]) if g.ndim else g,
    unsqueeze=lambda g, d: xp_of(g).expand_dims(g, d),
    log=lambda g: unary("log", g),
    exp=lambda g: unary("exp", g),
    sin=lambda g: unary("sin", g),
    cos=lambda g: unary("cos", g),
    abs=lambda g: xp_of(g).abs(g),
    sgn=_sign_array,
    isnan=lambda g: xp_of(g).isnan(g),
    to_bool=lambda g: bool(g),
    count_true=lambda g: int(g.sum()),
    count_zeros=lambda g: int((g == 0).sum()),
    floor_divide=lambda a, b: xp_of(a).floor_divide(a, b),
    trunc_divide=lambda a, b: xp_of(a).trunc(a / b),
    where=lambda c, a, b: xp_of(c).where(c, a, b),
    masked_fill=_array_masked_fill,
    evenly_distribute=lambda g, x, mask: xp_of(x).where(mask, g / int(mask.sum()),
                                                        xp_of(x).zeros((), dtype=g.dtype)),
    zeros_like=lambda g: xp_of(g).zeros_like(g),
    ones_like=lambda g: xp_of(g).ones_like(g),
    zeros=lambda shape, like: xp_of(like).zeros(shape, dtype=like.dtype),
    cast=lambda g, dtype: (g.real if g.dtype.kind == "c" and not dtype.is_complex else g
                           ).astype(dtype.np),
    to_copy=_array_to_copy,
    sum_to=_array_sum_to,
    sum=_array_sum,
    mean=_array_mean,
    unsqueeze_dims=_array_unsqueeze_dims,
    mm=matrix_product,
    mv=product,
    bmm=product,
    outer=lambda a, b: xp_of(a).outer(a, b),
    cross=lambda a, b, dim: xp_of(a).cross(*xp_of(a).broadcast_arrays(a, b), axis=dim),
    narrow=_array_narrow,
    select=_array_select,
    view_backward=lambda g, shape, view_fn, kind, args: _array_scatter_view(g, shape, view_fn),
    view_scatter=_array_scatter_view,
    index_put_acc=_array_index_put_acc,
    index_fill_zero=_array_index_fill_zero,
    index=lambda g, key: g[key],
    value_selecting_backward=lambda g, dim, idx, shape, keepdim: _array_value_selecting(
        g, dim, idx, shape, keepdim),
    # (TensorIterator ops of the gradient and the saved tensor, laid out as its output)
    tanh_backward=lambda g, y: iterator_layout(_tanh_backward_array(g, y), g, y),
    sigmoid_backward=lambda g, y: iterator_layout(_sigmoid_backward_array(g, y), g, y),
    threshold_backward=lambda g, y, threshold: iterator_layout(
        _threshold_backward_array(g, y, threshold), g, y),
    softmax_backward=_softmax_backward_array,
    log_softmax_backward=_log_softmax_backward_array,
    mse_loss_backward=_mse_backward_array,
    bce_backward=_bce_backward_array,
    nll_loss_backward=lambda g, x, target, node: _nll_backward_array(g, target, node, x.shape),
    detached=lambda fn, x: fn(x),
    ufunc=lambda name, g: unary(name, g) if name in UNARY else getattr(xp_of(g), name)(g),
    special=lambda name, *args: ARRAY_SPECIAL[name](*args),
    cat=lambda parts, dim: xp_of(parts[0]).concatenate(parts, axis=dim),
    stack=lambda parts, dim: xp_of(parts[0]).stack(parts, axis=dim),
    # (flip writes into empty_like(grad): a copy in grad's layout, not NumPy's reversed view)
    flip=lambda g, dims: preserve_layout(xp_of(g).flip(g, dims).copy(order="K"), g),
    roll=lambda g, shifts, dims: xp_of(g).roll(g, shifts, dims) if dims else xp_of(g).roll(
        g.reshape(-1), shifts[0]).reshape(g.shape),
    cumsum=_cumsum_array,
    triangle=lambda g, k, upper: (xp_of(g).triu if upper else xp_of(g).tril)(g, k),
    diagonal_matrix=lambda g, rows, cols: _array_diagonal_scatter(
        xp_of(g).broadcast_to(g, (min(rows, cols),)), (rows, cols), 0),
    as_operand=lambda t: t._data,
    as_array=lambda t: t,
    gather=lambda g, dim, index: g.reshape(-1)[index] if index.ndim == 0 else (
        xp_of(g).take_along_axis(g[tuple(slice(None) if d == dim else slice(0, index.shape[d])
                                         for d in range(g.ndim))], index, axis=dim)),
    index_select=lambda g, dim, index: xp_of(g).take(g, index.reshape(-1), axis=dim),
    index_add=_array_index_add,
    scatter_add=lambda base, dim, index, src: _scatter_array(base, dim % base.ndim, index, src,
                                                             add=True),
    constant_pad=lambda g, pad, shape: xp_of(g).pad(g, [(0, 0)] * (g.ndim - len(pad) // 2) + [
        (pad[i], pad[i + 1]) for i in range(0, len(pad), 2)][::-1]),
    diagonal=lambda g, k: xp_of(g).diagonal(g, k).copy(),
    diagonal_scatter=_array_diagonal_scatter,
    prod_others=_exclusive_products,
    view_split=_array_view_split,
    view_fill=_array_view_fill,
)


class ScalarOverloads:
    """While a backward formula runs under create_graph, `tensor * number` is PyTorch's C++
    `mul(Tensor, Scalar)` (MulBackward1), not Python's wrapped-number MulBackward0."""

    active: bool = False

    @classmethod
    @contextmanager
    def enabled(cls) -> Iterator[None]:
        previous = cls.active
        cls.active = True
        try:
            yield
        finally:
            cls.active = previous
