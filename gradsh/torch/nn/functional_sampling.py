"""torch.nn.functional's resampling: interpolate (and the deprecated upsample forms),
pixel_shuffle and pixel_unshuffle, max_unpool2d, with PyTorch's argument handling; and
gumbel_softmax."""

from __future__ import annotations

import math
import warnings
from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle",
           "pixel_unshuffle", "max_unpool2d", "gumbel_softmax"]

pixel_shuffle = _ops.pixel_shuffle
pixel_unshuffle = _ops.pixel_unshuffle

_LINEAR_MODES = ("linear", "bilinear", "bicubic", "trilinear")


def _sizes_and_scales(input: Tensor, size: Any, scale_factor: Any,  # noqa: A002
                      recompute_scale_factor: bool | None, mode: str
                      ) -> tuple[list[int] | None, list[float] | None]:
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    output_size: list[int] | None = None
    scale_factors: list[float] | None = None
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size "
                    f"of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    "and output size in (o1, o2, ...,oK) format.")
            output_size = list(size)
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, "
                    f"but got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, "
                    "C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor and scale_factors is not None:
        output_size = [math.floor(float(input.size(i + 2)) * scale_factors[i])
                       for i in range(dim)]
        scale_factors = None
    return output_size, scale_factors


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """F.interpolate: nearest, nearest-exact, area, linear and bilinear (bicubic, trilinear,
    antialiasing and 3-D inputs are not implemented in gradsh)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    output_size, scales = _sizes_and_scales(input, size, scale_factor, recompute_scale_factor,
                                            mode)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    rank = input.dim()
    chosen = {(3, "nearest"): _ops.upsample_nearest1d, (4, "nearest"): _ops.upsample_nearest2d,
              (3, "nearest-exact"): _ops._upsample_nearest_exact1d,
              (4, "nearest-exact"): _ops._upsample_nearest_exact2d}.get((rank, mode))
    if chosen is not None:
        return chosen(input, output_size, scales)  # type: ignore[no-any-return]
    if mode == "area" and rank in (3, 4):
        pool = _ops.adaptive_avg_pool1d if rank == 3 else _ops.adaptive_avg_pool2d
        return pool(input, output_size)  # type: ignore[no-any-return]
    if (rank, mode) == (3, "linear"):
        return _ops.upsample_linear1d(input, output_size, align_corners,  # type: ignore
                                      scales)
    if (rank, mode) == (4, "bilinear") and not antialias:
        return _ops.upsample_bilinear2d(input, output_size, align_corners,  # type: ignore
                                        scales)
    for got, wanted, needs in ((3, "bilinear", 4), (3, "trilinear", 5), (4, "linear", 3),
                               (4, "trilinear", 5), (5, "linear", 3), (5, "bilinear", 4)):
        if (rank, mode) == (got, wanted):
            raise NotImplementedError(f"Got {got}D input, but {wanted} mode needs {needs}D "
                                      "input")
    if rank in (3, 4, 5) and mode in ("nearest", "nearest-exact", "area", "bicubic",
                                      "trilinear", "bilinear", "lanczos"):
        from gradsh.torch._missing import NotImplementedInGradsh

        raise NotImplementedInGradsh(f"gradsh does not implement F.interpolate with mode="
                                     f"'{mode}' on a {rank}-D input yet")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported"
        f" (got {rank}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | "
        f"lanczos | area | nearest-exact (got {mode})")


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
             mode: str = "nearest", align_corners: bool | None = None) -> Tensor:
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None,  # noqa: A002
                     scale_factor: Any = None) -> Tensor:
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None,  # noqa: A002
                      scale_factor: Any = None) -> Tensor:
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _unpool_output_size(input: Tensor, kernel_size: list[int],  # noqa: A002
                        stride: list[int], padding: list[int],
                        output_size: Any) -> list[int]:
    input_size = input.size()
    default_size = [(input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d]
                    - 2 * padding[d] for d in range(len(kernel_size))]
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError(f"output_size should be a sequence containing {len(kernel_size)} or "
                         f"{len(kernel_size) + 2} elements, but it has a length of "
                         f"'{len(output_size)}'")
    for d in range(len(kernel_size)):
        min_size, max_size = default_size[d] - stride[d], default_size[d] + stride[d]
        if not min_size < output_size[d] < max_size:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f"{min_size} and {max_size})")
    return list(output_size)


def _pair(value: Any) -> tuple[int, int]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)  # type: ignore


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any,  # noqa: A002
                 stride: Any = None, padding: Any = 0, output_size: Any = None) -> Tensor:
    """F.max_unpool2d: MaxPool2d's values put back at their indices, zeros elsewhere."""
    kernel = list(_pair(kernel_size))
    steps = list(_pair(stride)) if stride is not None else kernel
    pads = list(_pair(padding))
    size = _unpool_output_size(input, kernel, steps, pads, output_size)
    return _ops.max_unpool2d(input, indices, size)  # type: ignore[no-any-return]


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """Samples of the Gumbel-softmax distribution (one-hot in the forward pass when hard,
    with the soft sample's gradient: y_hard - y_soft.detach() + y_soft)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_ops.log(_ops.exponential_(_ops.empty_like(logits)))
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = _ops.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft
