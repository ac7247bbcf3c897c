"""More of torch.nn.functional: ctc_loss (and, as they come, the 3-d transposed convolution and
pooling forms), as torch/nn/functional.py defines them."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["ctc_loss", "conv_transpose3d"]

conv_transpose3d = _ops.conv_transpose3d


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    from gradsh.torch.nn._reduction import get_enum

    return _ops.ctc_loss(log_probs, targets, input_lengths,  # type: ignore[no-any-return]
                         target_lengths, blank, get_enum(reduction), zero_infinity)
