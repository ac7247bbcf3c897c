"""The margin and embedding losses and pairwise_distance, as ATen writes them: the composite
ones (poisson_nll, hinge_embedding, cosine_embedding, margin_ranking, triplet_margin) with the
same C++ operations, so that their graphs have PyTorch's nodes (a C++ `tensor + number` is
add(Tensor, Scalar), AddBackward1; `number - tensor` is empty_like(t).fill_(n).sub_(t)), and
soft_margin_loss / multi_margin_loss with nodes of their own."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.common import infer_size
from gradsh.engine.functions.grad_ops import ScalarOverloads
from gradsh.engine.functions.margin_losses import (
    MultiMarginLossBackward0,
    NormBackward1,
    SoftMarginLossBackward0,
)
from gradsh.engine.functions.multilabel_margin import MultilabelMarginLossBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import add, add_, mul, sub, sub_
from gradsh.engine.ops.comparison import eq, le
from gradsh.engine.ops.copies import fill_
from gradsh.engine.ops.creation import empty_like, zeros_like
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.reductions import mean, sum
from gradsh.engine.ops.selection import clamp_min, clamp_min_, masked_fill, minimum, where
from gradsh.engine.ops.shape import expand
from gradsh.engine.ops.unary import exp, log, neg, sqrt_
from gradsh.engine.tensor import Tensor, is_grad_enabled

__all__ = [
    "poisson_nll_loss", "soft_margin_loss", "hinge_embedding_loss", "cosine_embedding_loss",
    "margin_ranking_loss", "multi_margin_loss", "triplet_margin_loss", "pairwise_distance",
    "multilabel_margin_loss",
]

_EPSILON = 1e-12  # Loss.cpp's EPSILON


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    """apply_loss_reduction: mean() or sum() of the elementwise loss."""
    if reduction == "mean":
        return mean(loss)
    return sum(loss) if reduction == "sum" else loss


def _number_minus(value: float, t: Tensor) -> Tensor:
    """C++ `value - t`: empty_like(t).fill_(value).sub_(t) (SubBackward0)."""
    return sub_(fill_(empty_like(t), value), t)


def _not_differentiable(name: str, argument: str, t: Tensor | None) -> None:
    if t is not None and t.requires_grad and is_grad_enabled():
        raise TorchRuntimeError(f"The function '{name}' is not differentiable with respect to "
                                f"argument '{argument}'. This input cannot have requires_grad "
                                "True.")


@guarded
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True,  # noqa: A002
                     full: bool = False, eps: float = 1e-8,
                     reduction: str = "mean") -> Tensor:
    _check_tensor(target, "poisson_nll_loss", "target", 2)
    with ScalarOverloads.enabled():
        if log_input:
            loss = sub(exp(input), mul(target, input))
        else:
            loss = sub(input, mul(target, log(add(input, eps))))
        if full:
            stirling = add(sub(mul(target, log(target)), target),
                           mul(log(mul(target, 2 * math.pi)), 0.5))
            loss = add_(loss, masked_fill(stirling, le(target, 1), 0))
    return _reduce(loss, reduction)


@guarded
def soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                     reduction: str = "mean") -> Tensor:
    _check_tensor(target, "soft_margin_loss", "target", 2)
    _not_differentiable("soft_margin_loss", "target", target)
    if target.shape != input.shape:  # the target broadcasts into the input's shape
        shape = infer_size(input.shape, target.shape)
        if shape != input.shape:
            raise TorchRuntimeError(f"output with shape {list(input.shape)} doesn't match the "
                                    f"broadcast shape {list(shape)}")
        target = expand(target, input.shape)
    return SoftMarginLossBackward0.apply(input, target=target, reduction=reduction)


@guarded
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         reduction: str = "mean") -> Tensor:
    zeros = zeros_like(input)
    margin_clamp = clamp_min_(_number_minus(margin, input), 0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return _reduce(add(output_margin, output_self), reduction)


@guarded
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    targ_dim = target.ndim
    if targ_dim not in (0, 1):
        raise TorchRuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want, kind = (2, "1D") if targ_dim == 1 else (1, "0D")
    if input1.ndim != want:
        raise TorchRuntimeError(
            f"{kind} target tensor expects {want}D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}.")
    with ScalarOverloads.enabled():
        prod_sum = sum(mul(input1, input2), targ_dim)
        mag_square1 = add(sum(mul(input1, input1), targ_dim), _EPSILON)
        mag_square2 = add(sum(mul(input2, input2), targ_dim), _EPSILON)
        denom = sqrt_(mul(mag_square1, mag_square2))
        cos = prod_sum / denom
        zeros = zeros_like(cos)
        pos = _number_minus(1, cos)
        neg_part = clamp_min_(sub(cos, margin), 0)
        output = add(where(eq(target, 1), pos, zeros), where(eq(target, -1), neg_part, zeros))
    return _reduce(output, reduction)


@guarded
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    with ScalarOverloads.enabled():
        output = clamp_min_(add(mul(neg(target), sub(input1, input2)), margin), 0)
    return _reduce(output, reduction)


@guarded
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    innermost = max(x1.ndim, x2.ndim) - 1
    with ScalarOverloads.enabled():
        diff = add(sub(x1, x2), eps)
    dims = (innermost,) if innermost >= 0 else None
    return NormBackward1.apply(diff, ord=float(p), dim=dims, keepdim=keepdim)


@guarded
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                        swap: bool = False, reduction: str = "mean") -> Tensor:
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not a_dim == p_dim == n_dim:
        raise TorchRuntimeError(f"The anchor, positive, and negative tensors are expected to "
                                f"have the same number of dimensions, but got: anchor {a_dim}D, "
                                f"positive {p_dim}D, and negative {n_dim}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    with ScalarOverloads.enabled():
        output = clamp_min(sub(add(dist_pos, margin), dist_neg), 0)
    return _reduce(output, reduction)


@guarded
def multi_margin_loss(input: Tensor, target: Tensor, p: Any = 1,  # noqa: A002
                      margin: float = 1.0, weight: Tensor | None = None,
                      reduction: str = "mean") -> Tensor:
    if p not in (1, 2):
        raise TorchValueError("only p == 1 and p == 2 supported")
    _not_differentiable("multi_margin_loss", "weight", weight)
    ndims = input.ndim
    nframe, dim = (1, 1 if ndims == 0 else input.shape[0]) if ndims <= 1 else input.shape[:2]
    if not ((ndims == 2 and input.shape[1] != 0) or (ndims == 1 and input.shape[0] != 0)
            or ndims == 0):
        raise TorchRuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                                f"size, but got: {list(input.shape)}")
    if target.ndim > 1 or target.numel() != nframe:
        raise TorchRuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{nframe}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    if target.dtype.name != "int64":
        raise TorchRuntimeError(f"expected scalar type Long but found {target.dtype.legacy[:-6]}")
    if weight is not None and weight.numel() != dim:
        raise TorchRuntimeError(f"inconsistent weight size, expected {dim} but got "
                                f"{list(weight.shape)}")
    flat = target._data.reshape(-1)
    if flat.size and (int(flat.min()) < 0 or int(flat.max()) >= dim):
        raise TorchRuntimeError("target out of range")
    return MultiMarginLossBackward0.apply(input, target=target, p=p, margin=margin, weight=weight,
                                          reduction=reduction, scalar_out=target.ndim == 0)



@guarded
def multilabel_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                           reduction: str = "mean") -> Tensor:
    """The multi-label hinge loss: each row's target classes (up to the first -1) against the
    others (MultilabelMarginLossBackward0)."""
    input = _check_tensor(input, "multilabel_margin_loss")
    target = _check_tensor(target, "multilabel_margin_loss", "target", 2)
    if input.ndim > 2 or (input.ndim and input.shape[-1] == 0):
        raise TorchRuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                                f"size, but got: {list(input.shape)}")
    if tuple(target.shape) != tuple(input.shape):
        raise TorchRuntimeError(f"inconsistent target size: {list(target.shape)} for input of "
                                f"size: {list(input.shape)}")
    if target.dtype.name != "int64":
        raise TorchRuntimeError(f"expected scalar type Long but found {target.dtype.legacy[:-6]}")
    dim = input.shape[-1] if input.ndim else 1
    flat = target._data.reshape(-1)
    if flat.size and (int(flat.min()) < -1 or int(flat.max()) >= dim):
        raise TorchRuntimeError("multilabel_margin_loss: target out of range")
    return MultilabelMarginLossBackward0.apply(input, target=target,  # type: ignore
                                               reduction=reduction,
                                               scalar_out=input.ndim <= 1)
