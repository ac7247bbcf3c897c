"""torch.nn.functional's resampling: interpolate (and the deprecated upsample forms),
pixel_shuffle, pixel_unshuffle and channel_shuffle, max_unpool1d and max_unpool2d, grid_sample and affine_grid, with PyTorch's
argument handling."""

from __future__ import annotations

import math
import warnings
from typing import Any

from gradsh.engine import ops as _ops
from gradsh.engine.tensor import Tensor

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle", "max_unpool1d",
           "max_unpool2d", "grid_sample", "affine_grid"]

pixel_shuffle = _ops.pixel_shuffle
pixel_unshuffle = _ops.pixel_unshuffle
channel_shuffle = native_channel_shuffle = _ops.channel_shuffle

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
    """F.interpolate: nearest, nearest-exact, area, linear, bilinear, bicubic and trilinear;
    antialias for bilinear and bicubic (not lanczos)."""
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
              (5, "nearest"): _ops.upsample_nearest3d,
              (3, "nearest-exact"): _ops._upsample_nearest_exact1d,
              (4, "nearest-exact"): _ops._upsample_nearest_exact2d,
              (5, "nearest-exact"): _ops._upsample_nearest_exact3d}.get((rank, mode))
    if chosen is not None:
        return chosen(input, output_size, scales)  # type: ignore[no-any-return]
    pool = {3: _ops.adaptive_avg_pool1d, 4: _ops.adaptive_avg_pool2d,
            5: _ops.adaptive_avg_pool3d}.get(rank) if mode == "area" else None
    if pool is not None:
        return pool(input, output_size)  # type: ignore[no-any-return]
    if (rank, mode) == (3, "linear"):
        return _ops.upsample_linear1d(input, output_size, align_corners,  # type: ignore
                                      scales)
    if (rank, mode) == (4, "bilinear") and not antialias:
        return _ops.upsample_bilinear2d(input, output_size, align_corners,  # type: ignore
                                        scales)
    if (rank, mode) == (5, "trilinear"):
        return _ops.upsample_trilinear3d(input, output_size, align_corners,  # type: ignore
                                         scales)
    if antialias and (rank, mode) == (4, "bilinear"):
        return _ops._upsample_bilinear2d_aa(input, output_size, align_corners,  # type: ignore
                                            scales)
    if antialias and (rank, mode) == (4, "bicubic"):
        return _ops._upsample_bicubic2d_aa(input, output_size, align_corners,  # type: ignore
                                           scales)
    if (rank, mode) == (4, "bicubic") and not antialias:
        return _ops.upsample_bicubic2d(input, output_size, align_corners,  # type: ignore
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


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any,  # noqa: A002
                 stride: Any = None, padding: Any = 0, output_size: Any = None) -> Tensor:
    """F.max_unpool1d: max_unpool2d of a trailing unit dimension, as PyTorch's."""
    kernel = list(_single(kernel_size))
    steps = list(_single(stride)) if stride is not None else kernel
    pads = list(_single(padding))
    size = _unpool_output_size(input, kernel, steps, pads, output_size)
    out = _ops.max_unpool2d(_ops.unsqueeze(input, -1), _ops.unsqueeze(indices, -1), size + [1])
    return _ops.squeeze(out, -1)  # type: ignore[no-any-return]


def _single(value: Any) -> tuple[int]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)  # type: ignore


_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners="
                  "False since 1.3.0. Please specify align_corners=True if the old behavior is "
                  "desired. See the documentation of grid_sample for details.")


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",  # noqa: A002
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """F.grid_sample: input sampled at the grid's normalised (x, y) points (2-D, bilinear or
    nearest; bicubic is not implemented in gradsh)."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    modes = {"bilinear": 0, "nearest": 1, "bicubic": 2}
    paddings = {"zeros": 0, "border": 1, "reflection": 2}
    return _ops.grid_sampler_2d(input, grid, modes[mode],  # type: ignore[no-any-return]
                                paddings[padding_mode], align_corners)


def affine_grid(theta: Tensor, size: list[int], align_corners: bool | None = None) -> Tensor:
    """F.affine_grid: the (N, H, W, 2) sampling grid of a batch of 2x3 affine matrices."""
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {theta.shape}.")
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(spatial_size) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _ops.affine_grid_generator(theta, size, align_corners)  # type: ignore
