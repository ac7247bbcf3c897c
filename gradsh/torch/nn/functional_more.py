"""More of torch.nn.functional: ctc_loss, conv_transpose3d, max_unpool3d, adaptive_max_pool3d
and lp_pool3d, as torch/nn/functional.py defines them."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["ctc_loss", "conv_transpose3d", "max_unpool3d", "adaptive_max_pool3d",
           "adaptive_max_pool3d_with_indices", "lp_pool3d", "fractional_max_pool2d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
           "fractional_max_pool3d_with_indices"]

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


def _fractional(input: Tensor, kernel_size: Any, output_size: Any,  # noqa: A002
                output_ratio: Any, samples: Tensor | None, dims: int) -> tuple[Tensor, Tensor]:
    """F.fractional_max_pool{2,3}d_with_indices: the output size from the ratio, the samples
    drawn (torch.rand(N, C, dims) in the input's dtype) unless given."""
    name = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if dims == 2 and len(output_ratio) > 2:  # (PyTorch takes len() of a number too)
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple "
                             "of Ints.")
        ratio = output_ratio if isinstance(output_ratio, (list, tuple)) else [output_ratio] * dims
        output_size = [int(input.size(d - dims) * ratio[d]) for d in range(dims)]
    if samples is None:
        n_batch = 1 if input.dim() == dims + 1 else input.size(0)
        samples = _ops.rand(n_batch, input.size(-dims - 1), dims, dtype=input.dtype,
                            device=input.device)
    pool = (_ops.fractional_max_pool2d_samples if dims == 2
            else _ops.fractional_max_pool3d_samples)
    return pool(input, kernel_size, output_size, samples)  # type: ignore[no-any-return]


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size: Any,  # noqa: A002
                                       output_size: Any = None, output_ratio: Any = None,
                                       return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> Any:
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size: Any,  # noqa: A002
                                       output_size: Any = None, output_ratio: Any = None,
                                       return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> Any:
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)


def fractional_max_pool2d(input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Any:
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return out if return_indices else out[0]


def fractional_max_pool3d(input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Any:
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return out if return_indices else out[0]
