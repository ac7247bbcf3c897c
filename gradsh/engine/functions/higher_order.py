"""Nodes only higher-order graphs hold (the backward of a backward), and their array forms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.common import _numel, _quiet, _times, result_dtype, xp_of
from gradsh.engine.functions.linalg import _array_diagonal_scatter
from gradsh.engine.functions.losses import NllLossBackward0, _all_positions, nll_rows
from gradsh.engine.tensor import Array, Function, Shape, Tensor
from gradsh.engine.threads import elementwise

__all__ = [
    "TanhBackwardBackward0", "SigmoidBackwardBackward0", "ThresholdBackwardBackward0",
    "SoftmaxBackwardDataBackward0", "LogSoftmaxBackwardDataBackward0", "MseLossBackwardBackward0",
    "NllLossBackwardBackward0", "NllLoss2DBackwardBackward0", "SelectBackwardBackward0", "SliceBackwardBackward0", "StridedView",
    "StridedScatter", "IndexPutImplBackward0", "ValueSelectingBackward",
    "DiagonalBackwardBackward0", "BinaryCrossEntropyBackwardBackward0",
]


def _in_place_ok(grad: Any, t: Any) -> bool:
    """Whether `grad * t` may be written into the temporary `t` (a NumPy array of the result's
    shape and dtype): the same operations, one allocation instead of one per operation."""
    return (t.__class__ is np.ndarray and grad.__class__ is np.ndarray and t.ndim > 0
            and grad.shape == t.shape and grad.dtype == t.dtype)


def _tanh_backward_array(grad: Array, y: Array) -> Array:
    if y.dtype in REDUCED_FLOAT_NP:  # in float32, rounded once, as PyTorch's kernel for Half
        wide = _tanh_backward_array(grad.astype(np.float32), y.astype(np.float32))
        return wide.astype(y.dtype)
    exact = pointwise.tanh_backward(grad, y)
    if exact is not None:
        return exact
    t = _times(y, y)
    if _in_place_ok(grad, t):
        elementwise(np.subtract, 1, t, out=t)
        return elementwise(np.multiply, grad, t, out=t)
    return grad * (1 - t)


def _sigmoid_backward_array(grad: Array, y: Array) -> Array:
    if y.dtype == dtypes.BF16_NP:  # in float32, rounded once: ATen's kernel for BFloat16 (for Half it
        # computes step by step in Half, as the formula below does on float16 arrays)
        wide = _sigmoid_backward_array(grad.astype(np.float32), y.astype(np.float32))
        return wide.astype(y.dtype)
    exact = pointwise.sigmoid_backward(grad, y)
    if exact is not None:
        return exact
    t = elementwise(np.subtract, 1, y) if y.__class__ is np.ndarray else 1 - y
    if _in_place_ok(grad, t):
        elementwise(np.multiply, t, y, out=t)
        return elementwise(np.multiply, grad, t, out=t)
    return grad * (t * y)


def _threshold_backward_array(grad: Array, y: Array, threshold: float) -> Array:
    if threshold == 0 and threshold.__class__ is int:  # (relu's: an int 0, as its backward passes)
        return pointwise.zero_below(y, grad, True)
    return pointwise.zero_where(y <= threshold, grad)


def _softmax_backward_array(grad: Array, y: Array, dim: int) -> Array:
    if y.dtype in REDUCED_FLOAT_NP:  # in float32, rounded once, as PyTorch's kernel for Half
        wide = _softmax_backward_array(grad.astype(np.float32), y.astype(np.float32), dim)
        return wide.astype(y.dtype)
    exact = pointwise.softmax_backward(grad, y, dim)
    if exact is not None:
        return exact
    if y.ndim == 0:
        return grad * 0
    return y * (grad - (grad * y).sum(axis=dim, keepdims=True))


def _log_softmax_backward_array(grad: Array, y: Array, dim: int) -> Array:
    if y.dtype in REDUCED_FLOAT_NP:  # in float32, rounded once, as PyTorch's kernel for Half
        wide = _log_softmax_backward_array(grad.astype(np.float32), y.astype(np.float32), dim)
        return wide.astype(y.dtype)
    exact = pointwise.log_softmax_backward(grad, y, dim)
    if exact is not None:
        return exact
    if y.ndim == 0:
        return grad * 0
    return grad - xp_of(y).exp(y) * grad.sum(axis=dim, keepdims=True)


def _mse_backward_array(grad: Array, x: Array, t: Array, reduction: str) -> Array:
    scale = 2.0 / x.size if reduction == "mean" and x.size else 2.0
    with _quiet():
        return (scale * (x - t)) * grad


class TanhBackwardBackward0(Function):
    node_name = "TanhBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor) -> Array:
        self.save("grad_output", grad)
        self.save("output", result)
        return _tanh_backward_array(grad._data, result._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        return (
            F.tanh_backward(g, y) if a else None,
            g * (-2.0 * y * self.saved("grad_output", F)) if b else None,
        )


class SigmoidBackwardBackward0(Function):
    node_name = "SigmoidBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor) -> Array:
        self.save("grad_output", grad)
        self.save("output", result)
        return _sigmoid_backward_array(grad._data, result._data)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        return (
            F.sigmoid_backward(g, y) if a else None,
            g * self.saved("grad_output", F) * (-2.0 * y + 1.0) if b else None,
        )


class ThresholdBackwardBackward0(Function):
    node_name = "ThresholdBackwardBackward0"

    def forward(self, grad: Tensor, result: Tensor, threshold: float) -> Array:
        self.threshold = threshold
        self.save("self", result)
        return _threshold_backward_array(grad._data, result._data, threshold)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("self", F)
        return (
            F.threshold_backward(g, y, self.threshold) if a else None,
            F.zeros_like(g) if b else None,
        )


class SoftmaxBackwardDataBackward0(Function):
    node_name = "SoftmaxBackwardDataBackward0"

    def forward(self, grad: Tensor, result: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("grad_output", grad)
        self.save("output", result)
        return _softmax_backward_array(grad._data, result._data, dim)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        go = self.saved("grad_output", F)
        ga = F.softmax_backward(g, y, self.dim) if a else None
        gb = None
        if b:
            gb = g * go - g * F.sum(go * y, (self.dim,), True) - go * F.sum(g * y, (self.dim,),
                                                                           True)
        return ga, gb


class LogSoftmaxBackwardDataBackward0(Function):
    node_name = "LogSoftmaxBackwardDataBackward0"

    def forward(self, grad: Tensor, result: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("grad_output", grad)
        self.save("output", result)
        return _log_softmax_backward_array(grad._data, result._data, dim)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        y = self.saved("output", F)
        go = self.saved("grad_output", F)
        ga = (g - F.sum(g * F.exp(y), (self.dim,), True)) if a else None
        gb = (-g * F.exp(y) * F.sum(go, (self.dim,), True)) if b else None
        return ga, gb


class MseLossBackwardBackward0(Function):
    node_name = "MseLossBackwardBackward0"

    def forward(self, grad: Tensor, x: Tensor, t: Tensor, reduction: str) -> Array:
        self.reduction = reduction
        self.save("grad_output", grad)
        self.save("self", x)
        self.save("target", t)
        dtype = result_dtype(grad, x, t)
        return _mse_backward_array(grad._data, x._data, t._data, reduction).astype(dtype.np)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        go = self.saved("grad_output", F)
        scale = 2.0 / _numel(x.shape) if self.reduction == "mean" else 2.0
        g_grad = None
        if need_grad:
            g_grad = F.sum(g * (scale * (x - t)), None, False) if self.reduction != "none" \
                else g * (scale * (x - t))
        g_x = (scale * go) * g if need_x else None
        g_t = -(scale * go) * g if need_t else None
        return g_grad, g_x, g_t


def _bce_backward_array(grad: Array, x: Array, t: Array, w: Array | None,
                        reduction: str) -> Array:
    """binary_cross_entropy_backward as the CPU kernel computes it: grad * (x - t) /
    max((1 - x) x, 1e-12), then times the weight, then divided by N for the mean."""
    xp = xp_of(x)
    with _quiet():
        out = grad * (x - t) / xp.maximum((1 - x) * x, x.dtype.type(1e-12))
        if w is not None:
            out = out * w
        return out / x.size if reduction == "mean" else out


class BinaryCrossEntropyBackwardBackward0(Function):
    """binary_cross_entropy_backward(grad_output, self, target, weight) as a node; its backward
    is FunctionsManual's binary_cross_entropy_double_backward (self), _grad_output and _target,
    formula for formula. The weight is no input (PyTorch gives it no gradient here)."""

    node_name = "BinaryCrossEntropyBackwardBackward0"

    def forward(self, grad: Tensor, x: Tensor, t: Tensor, weight: Tensor | None,
                reduction: str) -> Array:
        self.weight, self.reduction = weight, reduction
        self.save("grad_output", grad)
        self.save("self", x)
        self.save("target", t)
        dtype = result_dtype(grad, x, t)
        w = None if weight is None else weight._data
        return xp_of(x._data).asarray(
            _bce_backward_array(grad._data, x._data, t._data, w, reduction), dtype=dtype.np)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_grad, need_x, need_t = self.needs_input_grad
        go, x, t = self.saved("grad_output", F), self.saved("self", F), self.saved("target", F)
        w = None if self.weight is None else F.as_operand(self.weight)
        eps = 1e-12
        g_grad = g_x = g_t = None
        with _quiet():
            if need_grad:
                g_grad = self._scaled((x - t) / ((x + eps) * (1 - x + eps)) * g, w, x)
            if need_x:
                curvature = (x * x - 2 * x * t + t) / ((x + eps) ** 2 * (1 - x + eps) ** 2)
                g_x = self._scaled(curvature * (g * go), w, x)
            if need_t:
                weighted = -g * go if w is None else -g * go * w
                denominator = (1 - x) * x
                clamped = F.where(denominator < eps, eps, denominator)
                g_t = self._scaled(weighted / clamped, None, x)
        return g_grad, g_x, g_t

    def _scaled(self, value: Any, w: Any, x: Any) -> Any:
        value = value if w is None else value * w
        return value / _numel(x.shape) if self.reduction == "mean" else value


def _nll_backward_array(grad: Array, target: Array, node: NllLossBackward0,
                        shape: Shape) -> Array:
    xp = xp_of(grad)
    # written as (samples, classes) rows (nll_rows), then put back in the input's layout
    rows_shape = (_numel(shape) // shape[1], shape[1]) if len(shape) > 1 else (1, shape[0])
    flat = xp.zeros(rows_shape, dtype=grad.dtype)
    t = target.reshape(-1)
    if node.every_target_counted:  # forward found every target a class: none is ignored
        valid = None
        rows, cols = _all_positions(flat.shape[0]), t
    else:
        valid = t != node.ignore_index
        rows = xp.arange(flat.shape[0])[valid]
        cols = t[valid]
    if node.reduction == "none":
        g = grad.reshape(-1)[valid]
    elif node.reduction == "sum":
        g = grad
    else:
        g = grad / node.total_weight  # (NumPy's warnings are off engine-wide: see _quiet)
    if valid is None and node.reduction != "none":
        # every weight is 1: -w * g is g times -1 in each place (the same product, NaN's
        # sign included, which a negation would flip), without indexing the weights
        flat[rows, cols] = g * -1
    else:
        w = node.weight[cols].astype(grad.dtype, copy=False)  # (a new array: indexed)
        flat[rows, cols] = -w * g
    if len(shape) == 4:  # (N, H, W, C) back to (N, C, H, W)
        moved = (shape[0], shape[2], shape[3], shape[1])
        return xp.ascontiguousarray(xp.moveaxis(flat.reshape(moved), -1, 1))
    return flat.reshape(shape)


class NllLossBackwardBackward0(Function):
    node_name = "NllLossBackwardBackward0"

    def forward(self, grad: Tensor, x: Tensor, target: Tensor, node: Any) -> Array:
        # edges: grad_output and self; the target is not differentiable
        self.node = node
        self.save("target", target)
        return _nll_backward_array(grad._data, target._data, node, x.shape)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        target = self.saved("target", F)
        t = target._data if isinstance(target, Tensor) else target
        node = self.node
        g_grad = F.detached(lambda v: _nll_pick(v, t, node), g) if a else None
        return g_grad, (F.zeros_like(g) if b else None)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    node_name = "NllLoss2DBackwardBackward0"


def _nll_pick(g: Array, target: Array, node: Any) -> Array:
    flat = nll_rows(g)
    t = target.reshape(-1)
    xp = xp_of(g)
    valid = t != node.ignore_index
    safe = xp.where(valid, t, 0)
    w = xp.where(valid, node.weight[safe], 0).astype(g.dtype)
    with _quiet():
        picked = xp.where(valid, -flat[xp.arange(flat.shape[0]), safe] * w, 0).astype(g.dtype)
        if node.reduction == "none":
            return picked.reshape(node.unreduced_shape(g.shape))
        total, _ = node._reduce(picked, w, valid, False)
        return xp.asarray(total if node.reduction == "sum" else total / node.total_weight)


def _array_scatter_view(grad: Array, shape: Shape, view_fn: Callable[[Array], Array]) -> Array:
    result = xp_of(grad).zeros(shape, dtype=grad.dtype)
    view_fn(result)[...] = grad
    return result


class _ViewScatter(Function):
    """select_backward / slice_backward: the gradient placed into zeros of the input's shape.
    Its own backward takes the same view of the incoming gradient."""

    def forward(self, grad: Tensor, shape: Shape, view_fn: Callable[[Array], Array],
                view_op: Callable[[Tensor], Tensor]) -> Array:
        self.view_fn_, self.view_op = view_fn, view_op
        return _array_scatter_view(grad._data, shape, view_fn)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        return (self.view_op(g) if F.as_tensor else self.view_fn_(g),)


class SelectBackwardBackward0(_ViewScatter):
    node_name = "SelectBackwardBackward0"


class SliceBackwardBackward0(_ViewScatter):
    node_name = "SliceBackwardBackward0"


class StridedView(Function):
    """Any view given by its view_fn (the views of views that in-place changes leave behind):
    the differentiable forward of AsStridedBackward0's formula."""

    node_name = "AsStridedBackward0"
    is_view = True

    def forward(self, a: Tensor, view_fn: Callable[[Array], Array]) -> Array:
        self.view_fn_, self.base_shape = view_fn, a.shape
        return view_fn(a._data)

    def view_fn(self, array: Array) -> Array:
        return self.view_fn_(array)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.view_scatter(grad, self.base_shape, self.view_fn_),)


class StridedScatter(Function):
    """AsStridedBackward0's formula: the gradient placed into zeros of the base's shape."""

    node_name = "AsStridedScatterBackward0"

    def forward(self, grad: Tensor, shape: Shape, view_fn: Callable[[Array], Array]) -> Array:
        self.view_fn_ = view_fn
        return _array_scatter_view(grad._data, shape, view_fn)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (StridedView.apply(g, view_fn=self.view_fn_),)
        return (self.view_fn_(g),)


def _array_index_put_acc(grad: Array, shape: Shape, key: tuple[Any, ...]) -> Array:
    result = xp_of(grad).zeros(shape, dtype=grad.dtype)
    xp_of(grad).add.at(result, key, grad)
    return result


class IndexPutImplBackward0(Function):
    """The gradient of indexing placed (accumulating) into zeros: IndexBackward0's formula,
    `_index_put_impl_(zeros, indices, grad, accumulate=True)` (edges: the zeros, the values)."""

    node_name = "IndexPutImplBackward0"

    def forward(self, zeros: Tensor, grad: Tensor, key: tuple[Any, ...]) -> Array:
        self.key = key
        return _array_index_put_acc(grad._data, zeros.shape, key)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (g if a else None, F.index(g, self.key) if b else None)


def _array_value_selecting(grad: Array, dim: int, indices: Array, shape: Shape,
                           keepdim: bool) -> Array:
    xp = xp_of(grad)
    result = xp.zeros(shape, dtype=grad.dtype)
    idx = indices if keepdim else xp.expand_dims(indices, dim)
    g = grad if keepdim else xp.expand_dims(grad, dim)
    xp.put_along_axis(result, idx, g, axis=dim)
    return result


def _array_scatter_fill(g: Array, dim: int, indices: Array) -> Array:
    out = g.copy()
    xp_of(out).put_along_axis(out, indices, 0, axis=dim)
    return out


def _gather(g: Array, dim: int, indices: Array, keepdim: bool) -> Array:
    idx = indices if keepdim else xp_of(indices).expand_dims(indices, dim)
    out = xp_of(g).take_along_axis(g, idx, axis=dim)
    return out if keepdim else out.squeeze(dim)


class ValueSelectingBackward(Function):
    """max(dim)/min(dim)'s backward: `zeros.scatter(dim, indices, grad)` (edges: the zeros,
    the gradient unsqueezed at dim), as value_selecting_reduction_backward."""

    node_name = "ScatterBackward0"

    def forward(self, zeros: Tensor, grad: Tensor, dim: int, indices: Array) -> Array:
        self.dim, self.indices = dim, indices
        return _array_value_selecting(grad._data, dim, indices, zeros.shape, True)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.detached(lambda v: _array_scatter_fill(v, self.dim, self.indices), g) if a else None,
            F.detached(lambda v: _gather(v, self.dim, self.indices, True), g) if b else None,
        )


class DiagonalBackwardBackward0(Function):
    """The backward of diag(matrix) when it is differentiated again: g on a zero matrix's
    diagonal."""

    node_name = "DiagonalBackwardBackward0"

    def forward(self, g: Tensor, shape: Shape, k: int) -> Array:
        self.k = k
        return _array_diagonal_scatter(g._data, shape, k)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal(grad, self.k),)
