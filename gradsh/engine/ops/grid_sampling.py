"""Spatial transformers: affine_grid_generator and grid_sampler_2d (F.affine_grid and
F.grid_sample call them)."""

from __future__ import annotations

from collections.abc import Sequence

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.grid_sampling import (
    AffineGridGeneratorBackward0,
    GridSampler2DBackward0,
)
from gradsh.engine.functions.grid_sampling_cubic import (
    GridSampler2DBackward0 as GridSampler2DBicubic,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["affine_grid_generator", "grid_sampler_2d"]

_MODES = {0: "bilinear", 1: "nearest", 2: "bicubic"}
_PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}


@guarded
def affine_grid_generator(theta: Tensor, size: Sequence[int], align_corners: bool) -> Tensor:
    theta = _check_tensor(theta, "affine_grid_generator", "theta")
    return AffineGridGeneratorBackward0.apply(  # type: ignore[no-any-return]
        theta, size=tuple(int(n) for n in size), align_corners=bool(align_corners))


@guarded
def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int,  # noqa: A002
                    padding_mode: int, align_corners: bool) -> Tensor:
    input = _check_tensor(input, "grid_sampler_2d")
    grid = _check_tensor(grid, "grid_sampler_2d", "grid", 2)
    if input.dtype is not grid.dtype:
        raise TorchRuntimeError(
            "grid_sampler(): expected input and grid to have same dtype, but input has "
            f"{input.dtype} and grid has {grid.dtype}")
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2:
        raise TorchRuntimeError(
            "grid_sampler(): expected 4D input and grid with same number of dimensions, but "
            f"got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if input.shape[0] != grid.shape[0]:
        raise TorchRuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    mode = _MODES[interpolation_mode]
    node = GridSampler2DBicubic if mode == "bicubic" else GridSampler2DBackward0
    return node.apply(  # type: ignore[no-any-return]
        input, grid, mode=mode, padding=_PADDINGS[padding_mode],
        align_corners=bool(align_corners))
