"""More of torch.nn.functional, as PyTorch's Python composes them: dropout3d, lp_pool1d/2d,
triplet_margin_with_distance_loss."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["dropout3d", "lp_pool1d", "lp_pool2d", "triplet_margin_with_distance_loss",
           "multilabel_margin_loss"]


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    from gradsh.torch.nn.functional import _feature_dropout

    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    return _feature_dropout(input, p, training, input.ndim == 5, inplace)


def _lp_finish(out: Tensor, norm_type: float, count: int) -> Tensor:
    magnitude = _ops.mul(_ops.sign(out), _ops.relu(_ops.abs(out)))
    return _ops.pow(_ops.mul(magnitude, count), 1.0 / norm_type)  # type: ignore[no-any-return]


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int,  # noqa: A002
              stride: Any = None, ceil_mode: bool = False) -> Tensor:
    if isinstance(norm_type, (int, float)) and abs(norm_type) == float("inf"):
        if norm_type > 0:
            return _ops.max_pool1d(_ops.abs(input), kernel_size, stride, 0, 1,  # type: ignore
                                   ceil_mode)
        return _ops.neg(_ops.max_pool1d(_ops.neg(_ops.abs(input)), kernel_size,  # type: ignore
                                        stride, 0, 1, ceil_mode))
    out = _ops.avg_pool1d(_ops.pow(input, norm_type), kernel_size,
                          stride if stride is not None else None, 0, ceil_mode)
    return _lp_finish(out, norm_type, kernel_size)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any,  # noqa: A002
              stride: Any = None, ceil_mode: bool = False) -> Tensor:
    kw, kh = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    if isinstance(norm_type, (int, float)) and abs(norm_type) == float("inf"):
        if norm_type > 0:
            return _ops.max_pool2d(_ops.abs(input), kernel_size, stride, 0, 1,  # type: ignore
                                   ceil_mode)
        return _ops.neg(_ops.max_pool2d(_ops.neg(_ops.abs(input)), kernel_size,  # type: ignore
                                        stride, 0, 1, ceil_mode))
    out = _ops.avg_pool2d(_ops.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_finish(out, norm_type, kw * kh)


def triplet_margin_with_distance_loss(
        anchor: Tensor, positive: Tensor, negative: Tensor, *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> Tensor:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative "
            f"{n_dim}D inputs")
    distance = distance_function if distance_function is not None else _ops.pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = _ops.minimum(dist_neg, distance(positive, negative))
    loss = _ops.clamp_min(_ops.sub(_ops.add(dist_pos, margin), dist_neg), 0)
    if reduction == "sum":
        return _ops.sum(loss)  # type: ignore[no-any-return]
    if reduction == "mean":
        return _ops.mean(loss)  # type: ignore[no-any-return]
    return loss  # type: ignore[no-any-return]


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Any = None,  # noqa: A002
                           reduce: Any = None, reduction: str = "mean") -> Tensor:
    from gradsh.torch.nn._reduction import resolve_enum

    return _ops.multilabel_margin_loss(input, target,  # type: ignore[no-any-return]
                                       resolve_enum(size_average, reduce, reduction))
