"""The nn functions PyTorch also exposes as torch.NAME (torch.conv2d, torch.batch_norm ...),
with the ATen signatures they have there: the same ops as torch.nn.functional, some with their
arguments in another order, the losses' reduction an int (0 none, 1 mean, 2 sum; PyTorch's
bindings default it to 0 there)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor

__all__ = [
    "conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
    "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d", "batch_norm",
    "instance_norm", "layer_norm", "group_norm", "embedding", "bilinear", "pixel_shuffle",
    "pixel_unshuffle", "pairwise_distance", "alpha_dropout", "feature_dropout", "celu", "selu",
    "prelu", "hardshrink", "threshold", "hinge_embedding_loss", "margin_ranking_loss",
    "cosine_embedding_loss", "triplet_margin_loss", "poisson_nll_loss",
    "scaled_dot_product_attention", "embedding_bag", "affine_grid_generator", "grid_sampler",
    "grid_sampler_2d", "channel_shuffle", "native_channel_shuffle", "feature_alpha_dropout",
]

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}

conv1d = ops.conv1d
conv2d = ops.conv2d
conv_transpose1d = ops.conv_transpose1d
conv_transpose2d = ops.conv_transpose2d
adaptive_avg_pool1d = ops.adaptive_avg_pool1d
bilinear = ops.bilinear
pixel_shuffle = ops.pixel_shuffle
pixel_unshuffle = ops.pixel_unshuffle
channel_shuffle = native_channel_shuffle = ops.channel_shuffle
pairwise_distance = ops.pairwise_distance
instance_norm = ops.instance_norm
scaled_dot_product_attention = ops.scaled_dot_product_attention
embedding_bag = ops.embedding_bag
affine_grid_generator = ops.affine_grid_generator
grid_sampler = grid_sampler_2d = ops.grid_sampler_2d


def _reduction(value: Any) -> str:
    return _REDUCTIONS.get(value, value) if isinstance(value, int) else value


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = (),  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False) -> Tensor:
    return ops.max_pool1d(input, kernel_size, stride or None,  # type: ignore[no-any-return]
                          padding, dilation, ceil_mode)


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = (),  # noqa: A002
                            padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False) -> Any:
    return ops.max_pool1d_with_indices(input, kernel_size, stride or None, padding, dilation,
                                       ceil_mode)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = (),  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False) -> Tensor:
    return ops.max_pool2d(input, kernel_size, stride or None,  # type: ignore[no-any-return]
                          padding, dilation, ceil_mode)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = (),  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    return ops.avg_pool1d(input, kernel_size, stride or None,  # type: ignore[no-any-return]
                          padding, ceil_mode, count_include_pad)


def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
               running_mean: Tensor | None, running_var: Tensor | None, training: bool,
               momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    return ops.batch_norm(input, running_mean, running_var,  # type: ignore[no-any-return]
                          weight, bias, training, momentum, eps)


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa
               bias: Tensor | None = None, eps: float = 1e-5,
               cudnn_enable: bool = True) -> Tensor:
    return ops.layer_norm(input, normalized_shape, weight, bias, eps)  # type: ignore


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5,
               cudnn_enabled: bool = True) -> Tensor:
    return ops.group_norm(input, num_groups, weight, bias, eps)  # type: ignore[no-any-return]


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """torch.embedding: the weight first; padding_idx -1 is none."""
    return ops.embedding(indices, weight,  # type: ignore[no-any-return]
                         None if padding_idx == -1 else padding_idx,
                         scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.alpha_dropout(input, p, train)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.feature_alpha_dropout(input, p, train)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """Whole channels dropped, one draw per (sample, channel) (ATen's feature_dropout)."""
    from gradsh.torch.nn import functional as F

    return F._feature_dropout(input, p, train, True)


def celu(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.celu(input, alpha)  # type: ignore[no-any-return]


def selu(input: Tensor) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.selu(input)  # type: ignore[no-any-return]


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.prelu(input, weight)  # type: ignore[no-any-return]


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.hardshrink(input, lambd)  # type: ignore[no-any-return]


def threshold(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    from gradsh.torch.nn import functional as F

    return F.threshold(input, threshold, value)  # type: ignore[no-any-return]


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         reduction: Any = 0) -> Tensor:
    return ops.hinge_embedding_loss(input, target, margin,  # type: ignore[no-any-return]
                                    _reduction(reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: Any = 0) -> Tensor:
    return ops.margin_ranking_loss(input1, input2, target,  # type: ignore[no-any-return]
                                   margin, _reduction(reduction))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor,
                          margin: float = 0.0, reduction: Any = 0) -> Tensor:
    return ops.cosine_embedding_loss(input1, input2, target,  # type: ignore[no-any-return]
                                     margin, _reduction(reduction))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, reduction: Any = 0) -> Tensor:
    return ops.triplet_margin_loss(anchor, positive, negative,  # type: ignore[no-any-return]
                                   margin, p, eps, swap, _reduction(reduction))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool,  # noqa: A002
                     eps: float, reduction: Any) -> Tensor:
    return ops.poisson_nll_loss(input, target, log_input,  # type: ignore[no-any-return]
                                full, eps, _reduction(reduction))
