"""TensorOps: the gradient helpers as differentiable ops, for create_graph formulas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.functions.common import xp_of
from gradsh.engine.functions.grad_ops import ScalarOverloads, _Namespace
from gradsh.engine.functions.higher_order import (
    DiagonalBackwardBackward0,
    IndexPutImplBackward0,
    LogSoftmaxBackwardDataBackward0,
    BinaryCrossEntropyBackwardBackward0,
    MseLossBackwardBackward0,
    NllLoss2DBackwardBackward0,
    NllLossBackwardBackward0,
    SelectBackwardBackward0,
    SigmoidBackwardBackward0,
    SliceBackwardBackward0,
    SoftmaxBackwardDataBackward0,
    StridedScatter,
    StridedView,
    TanhBackwardBackward0,
    ThresholdBackwardBackward0,
    ValueSelectingBackward,
    _ViewScatter,
)
from gradsh.engine.functions.selection import MaskedFillBackward1
from gradsh.engine.ops.activations import logsigmoid
from gradsh.engine.ops.arithmetic import cross, mul
from gradsh.engine.ops.comparison import isnan
from gradsh.engine.ops.copies import clone, copy_, to, zero_
from gradsh.engine.ops.creation import empty_like, eye, ones_like, zeros, zeros_like
from gradsh.engine.ops.indexing import (
    _index_fill_zero,
    _index_with_key,
    gather,
    index_add,
    index_select,
)
from gradsh.engine.ops.scatter import scatter_add
from gradsh.engine.ops.joining import cat, flip, pad, roll, stack
from gradsh.engine.ops.linalg import bmm, diag, mm, mv, outer, tril, triu
from gradsh.engine.ops.reductions import cumprod, cumsum, mean, prod, sum
from gradsh.engine.ops.selection import masked_fill, where
from gradsh.engine.ops.special import TENSOR_SPECIAL
from gradsh.engine.ops.shape import (
    expand,
    narrow,
    permute,
    reshape,
    select,
    slice,
    squeeze,
    t,
    transpose,
    unsqueeze,
    view,
)
from gradsh.engine.ops.unary import (
    abs,
    cos,
    cosh,
    erf,
    exp,
    log,
    log1p,
    reciprocal,
    rsqrt,
    sgn,
    sigmoid,
    sin,
    sinh,
    tanh,
)
from gradsh.engine.tensor import Tensor, TensorOps, _as_array

__all__ = ["install_tensor_ops"]


def install_tensor_ops() -> None:
    """TensorOps: the helpers of ArrayOps built from differentiable operations (create_graph),
    and the two creation functions the engine itself calls."""
    # What formulas call through F.ufunc (functions.pointwise.unary on arrays).
    ufuncs = {"cosh": cosh, "sinh": sinh, "rsqrt": rsqrt, "sigmoid": sigmoid, "tanh": tanh,
              "erf": erf, "logsigmoid": logsigmoid, "reciprocal": reciprocal, "log1p": log1p}

    def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        # at::sum_to: sum() to a scalar; else sum(dims, keepdim=True) and a view for the
        # leading dimensions
        if not shape:
            return sum(g)
        lead = g.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(
            i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1
        )
        if dims:
            g = sum(g, dim=dims, keepdim=True)
        return view(g, shape) if lead > 0 else g

    def unsqueeze_dims(g: Tensor, dims: tuple[int, ...], ndim: int) -> Tensor:
        for d in sorted(d % ndim for d in dims):
            g = unsqueeze(g, d)
        return g

    def detached(compute: Callable[..., Any], x: Tensor) -> Tensor:
        # NOTE: the few formulas without a differentiable form in gradsh (prod with zeros,
        # nll's double backward) give the right values without a graph of their own.
        return Tensor._make(_as_array(compute(x._data)), x.device)

    # CopySlices under create_graph: clone the gradient, hand a copy of its view part to the
    # in-place op's formula, copy the result back into the view: all differentiable.
    def view_split(g: Tensor, view_fn: Callable[[Any], Any]) -> tuple[Tensor, Tensor]:
        result = copy_(empty_like(g), g)  # new_empty_strided(...).copy_(grad)
        part = clone(StridedView.apply(result, view_fn=view_fn), memory_format="contiguous")
        return result, part

    def view_fill(result: Tensor, view_fn: Callable[[Any], Any], part: Tensor | None) -> Tensor:
        view = StridedView.apply(result, view_fn=view_fn)
        if part is None:
            zero_(view)
        else:
            copy_(view, part)
        return result

    def prod_others(x: Tensor, dim: int) -> Tensor:
        # the product of the other elements along dim, differentiably (exact with zeros):
        # each row of an n x n matrix holds x with its own element replaced by 1
        n = x.shape[dim]
        last = x.ndim - 1
        order = tuple(d for d in range(x.ndim) if d != dim) + (dim,)
        moved = permute(x, order) if dim != last else x
        rows = expand(unsqueeze(moved, -2), moved.shape[:-1] + (n, n))
        identity = eye(n, dtype=dtypes.bool_, device=x.device)
        others = prod(where(identity, 1.0, rows), -1)
        if dim == last:
            return others
        inverse = [0] * x.ndim
        for i, d in enumerate(order):
            inverse[d] = i
        return permute(others, tuple(inverse))

    def cumprod_zeros_grad(g: Tensor, x: Tensor, dim: int) -> Tensor:
        # ATen's cumprod_backward in grad mode with zeros in the input (the O(n^2) form, "Note
        # [Gradient formula for cumprod with zeros]"): for each k, the products of x with x_k
        # left out, summed against grad[k:] and copied into row k of a zeros tensor
        n = x.shape[dim]
        result = zeros(x.shape, dtype=g.dtype, device=g.device)
        ones_size = list(x.shape)
        ones_size[dim] = 1
        ones = expand(ones_like(zeros((1,), dtype=g.dtype, device=g.device)), tuple(ones_size))
        for k in range(n):
            if k == 0:
                omitted = cat([ones, cumprod(slice(x, dim, 1, n, 1), dim)], dim)
            else:
                until_k = prod(slice(x, dim, 0, k, 1), dim, True)
                if k == n - 1:
                    omitted = until_k
                else:
                    from_k1 = cumprod(slice(x, dim, k + 1, n, 1), dim)
                    omitted = cat([until_k, mul(expand(until_k, from_k1.shape), from_k1)], dim)
            copy_(select(result, dim, k), sum(mul(slice(g, dim, k, n, 1), omitted), dim))
        return result

    def value_selecting_backward(g: Tensor, dim: int, idx: Any, shape: tuple[int, ...],
                                 keepdim: bool) -> Tensor:
        indices = idx._data if isinstance(idx, Tensor) else idx
        if not keepdim:
            g = unsqueeze(g, dim)
            indices = xp_of(indices).expand_dims(indices, dim)
        base = zeros(shape, dtype=g.dtype, device=g.device)
        return ValueSelectingBackward.apply(base, g, dim=dim, indices=indices)

    def view_backward(g: Tensor, shape: tuple[int, ...], view_fn: Callable[[Any], Any],
                      kind: str, args: tuple[Any, ...]) -> Tensor:
        if kind == "select":
            cls: type[_ViewScatter] = SelectBackwardBackward0
            op = lambda t: select(t, *args)  # noqa: E731
        else:
            cls = SliceBackwardBackward0
            dim, start, end, step = args
            op = lambda t: slice(t, dim, start, end, step)  # noqa: E731
        return cls.apply(g, shape=shape, view_fn=view_fn, view_op=op)

    def scalar_sum(g: Tensor, dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
        return sum(g, dim=dims, keepdim=keepdim) if dims else (
            sum(g, dim=tuple(range(g.ndim)), keepdim=True) if keepdim else sum(g))

    def scalar_mean(g: Tensor, dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
        if dims:
            return mean(g, dim=dims, keepdim=keepdim)
        if keepdim:
            return reshape(mean(g), (1,) * g.ndim)
        return mean(g)

    _Namespace.install(
        TensorOps,
        cross=cross,
        expand=expand,
        reshape=reshape,
        t=t,
        transpose=transpose,
        permute=permute,
        squeeze=squeeze,
        unsqueeze=unsqueeze,
        log=log,
        exp=exp,
        sin=sin,
        cos=cos,
        abs=abs,
        sgn=sgn,
        isnan=isnan,
        to_bool=lambda g: bool(g._data),
        count_true=lambda g: int(g._data.sum()),
        count_zeros=lambda g: int((g._data == 0).sum()),
        floor_divide=lambda a, b: Tensor._make(_as_array(xp_of(a._data).floor_divide(
            a._data, b._data)), a.device),
        trunc_divide=lambda a, b: Tensor._make(_as_array(xp_of(a._data).trunc(
            a._data / b._data)), a.device),
        where=lambda c, a, b: where(c, a, b),
        masked_fill=lambda g, mask, value: masked_fill(g, mask, value),
        evenly_distribute=lambda g, x, mask: MaskedFillBackward1.apply(
            zeros_like(x), g / sum(mask), mask=mask),
        zeros_like=lambda g: zeros_like(g),
        ones_like=ones_like,
        empty_like=empty_like,
        zeros=lambda shape, like: zeros(shape, dtype=like.dtype, device=like.device),
        cast=lambda g, dtype: to(g, dtype),
        to_copy=lambda g, dtype, device: to(g, dtype=dtype, device=device),
        sum_to=sum_to,
        sum=scalar_sum,
        mean=scalar_mean,
        unsqueeze_dims=unsqueeze_dims,
        mm=mm,
        mv=mv,
        bmm=bmm,
        outer=outer,
        narrow=narrow,
        select=select,
        view_backward=view_backward,
        # NOTE: AsStridedBackward0 (views after an in-place change) has no double backward.
        view_scatter=lambda g, shape, view_fn: StridedScatter.apply(g, shape=shape,
                                                                       view_fn=view_fn),
        index_put_acc=lambda g, shape, key: IndexPutImplBackward0.apply(
            zeros(shape, dtype=g.dtype, device=g.device), g, key=key),
        index_fill_zero=lambda g, key: _index_fill_zero(g, key),
        index=lambda g, key: _index_with_key(g, key),
        value_selecting_backward=value_selecting_backward,
        tanh_backward=lambda g, y: TanhBackwardBackward0.apply(g, y),
        sigmoid_backward=lambda g, y: SigmoidBackwardBackward0.apply(g, y),
        threshold_backward=lambda g, y, th: ThresholdBackwardBackward0.apply(g, y,
                                                                                 threshold=th),
        softmax_backward=lambda g, y, dim: SoftmaxBackwardDataBackward0.apply(g, y, dim=dim),
        log_softmax_backward=lambda g, y, dim: LogSoftmaxBackwardDataBackward0.apply(
            g, y, dim=dim),
        mse_loss_backward=lambda g, x, t, red: MseLossBackwardBackward0.apply(
            g, x, t, reduction=red),
        bce_backward=lambda g, x, t, w, red: BinaryCrossEntropyBackwardBackward0.apply(
            g, x, t, weight=w, reduction=red),
        nll_loss_backward=lambda g, x, target, node: (
            NllLoss2DBackwardBackward0 if x.ndim == 4 else NllLossBackwardBackward0).apply(
            g, x, target=target, node=node),
        detached=detached,
        ufunc=lambda name, g: ufuncs[name](g),
        special=lambda name, *args: TENSOR_SPECIAL[name](*args),
        cat=lambda parts, dim: cat(parts, dim),
        stack=lambda parts, dim: stack(parts, dim),
        flip=flip,
        roll=lambda g, shifts, dims: roll(g, shifts, dims),
        cumsum=lambda g, dim: cumsum(g, dim),
        triangle=lambda g, k, upper: (triu if upper else tril)(g, k),
        diagonal_matrix=lambda g, rows, cols: mul(
            eye(rows, cols, dtype=g.dtype, device=g.device), g),
        as_operand=lambda t: t,
        as_array=lambda t: t._data,
        gather=lambda g, dim, index: gather(g, dim, index),
        index_select=lambda g, dim, index: index_select(g, dim, index),
        index_add=index_add,
        scatter_add=scatter_add,
        constant_pad=lambda g, padding, shape: pad(g, padding),
        diagonal=lambda g, k: diag(g, k),
        diagonal_scatter=lambda g, shape, k: DiagonalBackwardBackward0.apply(
            g, shape=shape, k=k),
        prod_others=prod_others,
        cumprod_zeros_grad=cumprod_zeros_grad,
        view_split=view_split,
        view_fill=view_fill,
    )
    TensorOps.formula_mode = staticmethod(  # type: ignore[attr-defined]
        ScalarOverloads.enabled)
