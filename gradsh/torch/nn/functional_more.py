"""More of torch.nn.functional: ctc_loss, conv_transpose3d, max_unpool3d, adaptive_max_pool3d
and lp_pool3d, as torch/nn/functional.py defines them."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["ctc_loss", "conv_transpose3d", "max_unpool3d", "adaptive_max_pool3d",
           "adaptive_max_pool3d_with_indices", "lp_pool3d"]

conv_transpose3d = _ops.conv_transpose3d
adaptive_max_pool3d = _ops.adaptive_max_pool3d
adaptive_max_pool3d_with_indices = _ops.adaptive_max_pool3d_with_indices


def _triple(value: Any) -> list[int]:
    return list(value) if isinstance(value, (list, tuple)) else [value] * 3


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any,  # noqa: A002
                 stride: Any = None, padding: Any = 0, output_size: Any = None) -> Tensor:
    """F.max_unpool3d: MaxPool3d's values put back at their indices, zeros elsewhere."""
    from gradsh.torch.nn.functional_sampling import _unpool_output_size

    kernel = _triple(kernel_size)
    steps = _triple(stride) if stride is not None else kernel
    pads = _triple(padding)
    size = _unpool_output_size(input, kernel, steps, pads, output_size)
    return _ops.max_unpool3d(input, indices, size, steps, pads)  # type: ignore[no-any-return]


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any,  # noqa: A002
              stride: Any = None, ceil_mode: bool = False) -> Tensor:
    """F.lp_pool3d: (sum over each window of x ** p) ** (1 / p), through avg_pool3d."""
    kd, kw, kh = _triple(kernel_size)
    from gradsh.torch.nn.functional_extra import _lp_finish

    if isinstance(norm_type, (int, float)) and abs(norm_type) == float("inf"):
        largest = norm_type > 0  # the largest magnitude; else the smallest, through negation
        magnitude = _ops.abs(input) if largest else _ops.neg(_ops.abs(input))
        pooled = _ops.max_pool3d(magnitude, kernel_size, stride, 0, 1, ceil_mode)
        return pooled if largest else _ops.neg(pooled)  # type: ignore[no-any-return]
    out = _ops.avg_pool3d(_ops.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_finish(out, norm_type, kd * kw * kh)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    from gradsh.torch.nn._reduction import get_enum

    return _ops.ctc_loss(log_probs, targets, input_lengths,  # type: ignore[no-any-return]
                         target_lengths, blank, get_enum(reduction), zero_infinity)
