"""torch.nn.CTCLoss (PyTorch keeps it in torch/nn/modules/loss.py)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.loss import _Loss

__all__ = ["CTCLoss"]


class CTCLoss(_Loss):
    __constants__ = ["blank", "reduction"]

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Any,
                target_lengths: Any) -> Tensor:
        from gradsh.torch.nn import functional as F

        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)

