"""The loss modules: each holds its reduction (and weights) and calls its F function."""

from __future__ import annotations

from collections.abc import Callable

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn import _reduction
from gradsh.torch.nn import functional as F
from gradsh.torch.nn.modules.module import Module

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "CrossEntropyLoss",
           "GaussianNLLLoss", "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss",
           "MarginRankingLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss",
           "PoissonNLLLoss", "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiLabelMarginLoss"]


class _Loss(Module):
    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _reduction.legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class KLDivLoss(_Loss):
    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input: bool = True, full: bool = False,
                 size_average: bool | None = None, eps: float = 1e-8,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:  # noqa: A002
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)


class SoftMarginLoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                             reduction=self.reduction)


class _MarginLoss(_Loss):
    """The losses with one `margin` (and the usual reduction arguments)."""

    default_margin = 0.0

    def __init__(self, margin: float | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = self.default_margin if margin is None else margin


class HingeEmbeddingLoss(_MarginLoss):
    default_margin = 1.0

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class MarginRankingLoss(_MarginLoss):
    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError("MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.dim()}D instead")
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                   weight=self.weight, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError("TripletMarginLoss: expected margin to be greater than 0, got "
                             f"{margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                 margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        if margin <= 0:
            raise ValueError("TripletMarginWithDistanceLoss: expected margin to be greater than "
                             f"0, got {margin} instead")
        from gradsh.torch.nn.modules.distance import PairwiseDistance

        self.distance_function = (distance_function if distance_function is not None
                                  else PairwiseDistance())
        self.margin, self.swap = margin, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)
