"""torch.nn.functional: the engine's activations, losses and layers under PyTorch's names."""

from __future__ import annotations

import math
import warnings
from builtins import sum as builtins_sum
from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.ops import activations as _activations
from gradsh.engine.dtypes import DType
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch._missing import module_getattr
from gradsh.torch.nn import _reduction as _reduction_module
from gradsh.torch.nn import grad  # noqa: F401  (F.grad is torch.nn.grad, as PyTorch's)
from gradsh.torch.nn._reduction import resolve as _reduction
from gradsh.torch.nn.functional_attention import *  # noqa: F403  (attention, listed there)
from gradsh.torch.nn.functional_attention import __all__ as _attention_names
from gradsh.torch.nn.functional_sampling import *  # noqa: F403  (interpolate, listed there)
from gradsh.torch.nn.functional_sampling import __all__ as _sampling_names
from gradsh.torch.nn.functional_extra import *  # noqa: F403  (dropout3d ..., listed there)
from gradsh.torch.nn.functional_extra import __all__ as _extra_names
from gradsh.torch.nn.functional_more import *  # noqa: F403  (ctc_loss ..., listed there)
from gradsh.torch.nn.functional_more import __all__ as _more_names

__getattr__ = module_getattr("torch.nn.functional")

_FROM_OPS = """
cosine_similarity dropout elu elu_ gelu hardsigmoid hardtanh hardtanh_ leaky_relu
leaky_relu_ linear logsigmoid mish normalize one_hot pad relu6 relu_ selu_ celu_ sigmoid silu
softplus tanh threshold_
""".split()
_FROM_ACTIVATIONS = """
celu glu hardshrink hardswish prelu selu softshrink softsign tanhshrink threshold
""".split()
_FROM_LAYERS = """
adaptive_avg_pool1d adaptive_avg_pool2d avg_pool1d avg_pool2d batch_norm bilinear conv1d conv2d
conv_transpose1d conv_transpose2d
embedding group_norm layer_norm avg_pool3d max_pool1d max_pool1d_with_indices max_pool2d
max_pool2d_with_indices
adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool1d_with_indices
adaptive_max_pool2d_with_indices rms_norm conv3d max_pool3d max_pool3d_with_indices
adaptive_avg_pool3d pdist
""".split()

__all__ = [*_FROM_OPS, *_FROM_LAYERS, *_FROM_ACTIVATIONS, "relu", "softmax", "log_softmax",
           "softmin", "gumbel_softmax",
           "softmax2d", "dropout1d", "dropout2d", "alpha_dropout", "feature_alpha_dropout",
           "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "cross_entropy", "kl_div", "l1_loss", "mse_loss",
           "nll_loss", "smooth_l1_loss", "huber_loss", "unfold", "instance_norm", "embedding_bag",
           "local_response_norm", "fold", "poisson_nll_loss",
           "gaussian_nll_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
           "hinge_embedding_loss", "cosine_embedding_loss", "margin_ranking_loss",
           "multi_margin_loss", "pairwise_distance", "triplet_margin_loss", "rrelu", "rrelu_",
           *_attention_names, *_extra_names, *_more_names,
           *_sampling_names]

_module = globals()
for _name in (*_FROM_OPS, *_FROM_LAYERS):
    _module[_name] = getattr(_ops, _name)
for _name in _FROM_ACTIVATIONS:
    _module[_name] = getattr(_activations, _name)
del _module, _name


relu = _ops.functional_relu
rrelu = _ops.functional_rrelu
rrelu_ = _ops.rrelu_


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,  # noqa: A002
           stride: Any = 1) -> Tensor:
    """F.unfold: the columns of input's sliding blocks (im2col, Im2ColBackward0)."""
    return _ops.im2col(input, kernel_size, dilation, padding, stride)  # type: ignore[no-any-return]


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,  # noqa: A002
         padding: Any = 0, stride: Any = 1) -> Tensor:
    """F.fold: columns added back into images (col2im, Col2ImBackward0)."""
    return _ops.col2im(input, output_size, kernel_size, dilation,  # type: ignore[no-any-return]
                       padding, stride)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype: DType | None = None) -> Tensor:
    return _ops.softmax(input, dim, dtype)  # type: ignore[no-any-return]


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
                dtype: DType | None = None) -> Tensor:
    return _ops.log_softmax(input, dim, dtype)  # type: ignore[no-any-return]


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype: DType | None = None) -> Tensor:
    return _ops.softmin(input, dim, dtype)  # type: ignore[no-any-return]


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """softmax((logits + g) / tau) with Gumbel noise g = -log(Exp(1)) drawn as PyTorch draws
    it; hard=True returns the one-hot argmax with the soft sample's gradient (straight-through)."""
    if eps != 1e-10:
        import warnings

        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    with no_grad():
        gumbels = _ops.neg(_ops.log(_ops.exponential_(_ops.empty_like(logits))))
    y_soft = _ops.softmax(_ops.div(_ops.add(logits, gumbels), tau), dim)
    if not hard:
        return y_soft
    index = _ops.max(y_soft, dim, keepdim=True)[1]
    y_hard = _ops.scatter_(_ops.zeros_like(logits), dim, index, value=1.0)
    return _ops.add(_ops.sub(y_hard, _ops.detach(y_soft)), y_soft)


def _feature_dropout(input: Tensor, p: float, training: bool,  # noqa: A002
                     batched: bool, inplace: bool = False) -> Tensor:
    """Whole channels dropped: one draw per (sample, channel), as ATen's feature_dropout (with
    inplace, ATen's feature_dropout_: the mask multiplied in with mul_)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not batched and inplace:
        # PyTorch unsqueeze_s the input in place first; gradsh has no in-place view ops
        _activations._not_inplace("unbatched feature dropout", inplace)
    if p == 0 or not training or input.numel() == 0:
        return input
    if not batched:
        return _ops.squeeze(_feature_dropout(_ops.unsqueeze(input, 0), p, training, True), 0)
    multiply = _ops.mul_ if inplace else _ops.mul
    if p == 1:
        return multiply(input, _ops.zeros((), dtype=input.dtype))
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    with no_grad():
        noise = _ops.bernoulli_(_ops.new_empty(input, shape), 1 - p)
        noise = _ops.div_(noise, 1 - p)
    return multiply(input, noise)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    if input.ndim not in (2, 3):
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a "
                           f"{input.ndim}D input. Note that dropout1d exists to provide channel-"
                           "wise dropout on inputs with 1 spatial dimension, a channel dimension, "
                           "and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, input.ndim == 3, inplace)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    import warnings

    if input.ndim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is "
                      "deprecated and will result in an error in a future release. To retain "
                      "the behavior and silence this warning, please use dropout instead. Note "
                      "that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension "
                      "(i.e. 3D or 4D inputs).", stacklevel=2)
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-"
                      "wise 1D dropout behavior is desired - input is interpreted as shape (N, "
                      "C, L), where C is the channel dim. This behavior will change in a future "
                      "release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, True, inplace)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                  inplace: bool = False) -> Tensor:
    """Dropout that keeps SELU's mean and variance: dropped entries become -alpha*scale, then
    an affine correction (ATen's _dropout_impl with alpha=True)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                          inplace: bool = False) -> Tensor:
    """alpha_dropout of whole channels: one draw per (sample, channel), as ATen's
    feature_alpha_dropout."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _alpha_dropout(input, p, training, inplace, feature=True)


def _alpha_dropout(input: Tensor, p: float, training: bool,  # noqa: A002
                   inplace: bool, feature: bool) -> Tensor:
    """ATen's _dropout_impl<feature, alpha=true>: the noise (per entry, or per (sample,
    channel) with feature) drawn with bernoulli_(1 - p), then input * a noise + b."""
    if p == 0 or not training or input.numel() == 0:
        return input
    if feature and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        return (_ops.mul_ if inplace else _ops.mul)(input, _ops.zeros((), dtype=input.dtype))
    alpha = 1.7580993408473766
    a = 1.0 / ((alpha * alpha * p + 1) * (1 - p)) ** 0.5
    with no_grad():
        if feature:
            shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
            noise = _ops.bernoulli_(_ops.new_empty(input, shape), 1 - p)
        else:
            noise = _ops.bernoulli_(_ops.empty_like(input), 1 - p)
        b = _ops.mul(_ops.add(noise, -1), alpha * a)
        b = _ops.add(b, alpha * a * p)
        noise = _ops.mul(noise, a)
    if inplace:
        return _ops.add_(_ops.mul_(input, noise), b)
    return _ops.add(_ops.mul(input, noise), b)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,  # noqa: A002
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if use_input_stats:
        spatial = 1
        for n in input.shape[2:]:
            spatial *= n
        if spatial == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input "
                             f"size {input.size()}")
    return _ops.instance_norm(input, weight, bias, running_mean,  # type: ignore
                              running_var, use_input_stats, momentum, eps)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4,  # noqa: A002
                        beta: float = 0.75, k: float = 1.0) -> Tensor:
    """PyTorch's Python version: the squares averaged over `size` neighbouring channels
    (avg_pool2d for 3-D inputs, avg_pool3d above), then input / (k + alpha avg)^beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = _ops.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = _ops.avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def softmax2d(input: Tensor) -> Tensor:  # noqa: A002
    return softmax(input, -3)


# ---------------------------------------------------------------------------------------------
# Losses, with PyTorch's full signatures (the deprecated size_average and reduce included)
# ---------------------------------------------------------------------------------------------


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
            reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    return _ops.l1_loss(input, target,  # type: ignore[no-any-return]
                        _reduction_enum(size_average, reduce, reduction))


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    return _ops.mse_loss(input, target,  # type: ignore[no-any-return]
                         _reduction_enum(size_average, reduce, reduction))


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    return _ops.smooth_l1_loss(input, target,  # type: ignore[no-any-return]
                               _reduction_enum(size_average, reduce, reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
               delta: float = 1.0, weight: Tensor | None = None) -> Tensor:
    if weight is None:
        return _ops.huber_loss(input, target,  # type: ignore[no-any-return]
                               _reduction_enum(None, None, reduction), delta)
    # PyTorch's weighted form: the unreduced loss times the weight, then reduced
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = _ops.mul(_ops.huber_loss(input, target, "none", delta), weight)
    if reduction == "none":
        return loss  # type: ignore[no-any-return]
    if reduction in ("sum", "mean"):
        return (_ops.sum if reduction == "sum" else _ops.mean)(loss)  # type: ignore
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    return _ops.nll_loss(input, target, weight, ignore_index,  # type: ignore[no-any-return]
                         _reduction_enum(size_average, reduce, reduction))


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    if size_average is not None or reduce is not None or reduction.__class__ is not str \
            or reduction not in _PLAIN_REDUCTIONS:
        reduction = _reduction_enum(size_average, reduce, reduction)
    return _ops.cross_entropy(input, target, weight, ignore_index,  # type: ignore
                              reduction, label_smoothing)


def binary_cross_entropy(input: Tensor, target: Tensor,  # noqa: A002
                         weight: Tensor | None = None, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    return _ops.binary_cross_entropy(input, target, weight,  # type: ignore[no-any-return]
                                     _reduction_enum(size_average, reduce, reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    return _ops.binary_cross_entropy_with_logits(  # type: ignore[no-any-return]
        input, target, weight, _reduction_enum(size_average, reduce, reduction), pos_weight)


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    legacy = size_average is not None or reduce is not None
    if legacy or reduction != "batchmean":
        resolved = _reduction_enum(size_average, reduce, reduction)
        if legacy or reduction == "elementwise_mean":  # PyTorch warns about 'mean' only
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "reduction: 'mean' divides")
                return _ops.kl_div(input, target, resolved,  # type: ignore[no-any-return]
                                   log_target)
        reduction = resolved
    return _ops.kl_div(input, target, reduction, log_target)  # type: ignore[no-any-return]


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True,  # noqa: A002
                     full: bool = False, size_average: bool | None = None, eps: float = 1e-8,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return _ops.poisson_nll_loss(input, target, log_input, full, eps,  # type: ignore
                                 reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float,  # noqa: A002
                      full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """PyTorch's Python version: var checked and broadcast, clamped to eps without grad."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _ops.ones_like(input)
    elif bool(_ops.any(var < 0)):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = _ops.unsqueeze(var, -1)
        elif not (input.ndim == var.ndim and builtins_sum(
                y for x, y in zip(input.size(), var.size(), strict=True) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (_ops.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


_reduction_enum = _reduction_module.resolve_enum  # the losses ATen gets an enum for
_PLAIN_REDUCTIONS = frozenset(("mean", "sum", "none"))  # (what resolve_enum returns as it is)


def soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                     size_average: bool | None = None, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    return _ops.soft_margin_loss(input, target,  # type: ignore[no-any-return]
                                 _reduction_enum(size_average, reduce, reduction))


def multilabel_soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                                weight: Tensor | None = None, size_average: bool | None = None,
                                reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """PyTorch's Python version: -(t logsigmoid(x) + (1 - t) logsigmoid(-x)), mean over the
    classes, then the reduction."""
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    return _ops.hinge_embedding_loss(input, target, margin,  # type: ignore[no-any-return]
                                     _reduction_enum(size_average, reduce, reduction))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    return _ops.cosine_embedding_loss(input1, input2, target, margin,  # type: ignore
                                      _reduction_enum(size_average, reduce, reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    reduction = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _ops.margin_ranking_loss(input1, input2, target, margin,  # type: ignore
                                    reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1,  # noqa: A002
                      margin: float = 1.0, weight: Tensor | None = None,
                      size_average: bool | None = None, reduce: bool | None = None,
                      reduction: str = "mean") -> Tensor:
    reduction = _reduction_enum(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _ops.multi_margin_loss(input, target, p, margin, weight,  # type: ignore
                                  reduction)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    return _ops.pairwise_distance(x1, x2, p, eps, keepdim)  # type: ignore[no-any-return]


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6, swap: bool = False,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    reduction = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _ops.triplet_margin_loss(anchor, positive, negative,  # type: ignore
                                    margin, p, eps, swap, reduction)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,  # noqa: A002
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """F.embedding_bag: PyTorch's argument handling (2-D input as fixed-length bags), then
    torch.embedding_bag."""
    import warnings

    if weight.dtype is _ops.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         "is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets)}")
        offsets = _ops.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    modes = {"sum": 0, "mean": 1, "max": 2}
    if mode not in modes:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _ops.renorm_embedding_rows(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    return _ops.embedding_bag(weight, input, offsets, scale_grad_by_freq,  # type: ignore
                              modes[mode], sparse, per_sample_weights, include_last_offset,
                              padding_idx)[0]


from gradsh.torch._builtins import as_torchs as _as_torchs  # noqa: E402

_as_torchs(globals(), "torch.nn.functional")  # PyTorch's C functions as builtins (their reprs)
