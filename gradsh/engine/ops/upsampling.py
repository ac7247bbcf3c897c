"""Upsampling: ATen's upsample_nearest1d/2d, _upsample_nearest_exact1d/2d, upsample_linear1d,
upsample_bilinear2d, upsample_bicubic2d, upsample_nearest3d, _upsample_nearest_exact3d,
upsample_trilinear3d and the antialiased _upsample_bilinear2d_aa and _upsample_bicubic2d_aa
(F.interpolate picks one by mode, rank and antialias); pixel_shuffle and
pixel_unshuffle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gradsh.engine import backend, dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.joining import _channels_last
from gradsh.engine.functions.upsampling3d import (
    UpsampleNearest3DBackward0,
    UpsampleNearestExact3DBackward0,
    UpsampleTrilinear3DBackward0,
)
from gradsh.engine.functions.upsampling_aa import (
    UpsampleBicubic2DAaBackward0,
    UpsampleBilinear2DAaBackward0,
)
from gradsh.engine.functions.upsampling_cubic import UpsampleBicubic2DBackward0
from gradsh.engine.functions.upsampling import (
    ChannelShuffleBackward0,
    UpsampleBilinear2DBackward0,
    UpsampleLinear1DBackward0,
    UpsampleNearest1DBackward0,
    UpsampleNearest2DBackward0,
    UpsampleNearestExact1DBackward0,
    UpsampleNearestExact2DBackward0,
    PixelShuffleBackward0,
    PixelUnshuffleBackward0,
    MaxUnpool2DBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["upsample_nearest1d", "upsample_nearest2d", "_upsample_nearest_exact1d",
           "_upsample_nearest_exact2d", "upsample_linear1d", "upsample_bilinear2d",
           "upsample_bicubic2d", "upsample_nearest3d", "_upsample_nearest_exact3d",
           "upsample_trilinear3d", "_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa",
           "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "max_unpool2d"]


def _output_size(x: Tensor, dims: int, output_size: Sequence[int] | None,
                 scale_factors: Sequence[float] | None) -> tuple[tuple[int, ...],
                                                                 tuple[float | None, ...]]:
    """upsample::compute_output_size: the size given, or floor(input * scale) per dim (the
    scales are then what the kernel divides by)."""
    if x.ndim != dims + 2:
        raise TorchRuntimeError(f"Expected {dims + 2}D input tensor, but got {x.ndim}D")
    if output_size is not None:
        if scale_factors is not None:
            raise TorchRuntimeError("Must specify exactly one of output_size and "
                                    "scale_factors")
        sizes = tuple(int(n) for n in output_size)
        scales: tuple[float | None, ...] = (None,) * dims
    elif scale_factors is not None:
        sizes = tuple(int(n * float(s)) for n, s in zip(x.shape[2:], scale_factors,
                                                        strict=True))
        scales = tuple(float(s) for s in scale_factors)
    else:
        raise TorchRuntimeError("Must specify exactly one of output_size and scale_factors")
    if any(n <= 0 for n in sizes):
        names = ("D", "H", "W")[-dims:]

        def listed(values: Sequence[int]) -> str:
            return ", ".join(f"{name}: {n}" for name, n in zip(names, values))
        joint = " and output" if dims == 1 else " output"
        raise TorchRuntimeError(
            f"Input and output sizes should be greater than 0, but got input "
            f"({listed(x.shape[2:])}){joint} ({listed(sizes)})")
    return sizes, scales


def _nearest(node: type, name: str, dims: int) -> Any:
    @guarded(name=name)
    def upsample(input: Tensor, output_size: Sequence[int] | None = None,  # noqa: A002
                 scale_factors: Sequence[float] | None = None) -> Tensor:
        input = _check_tensor(input, name)
        sizes, scales = _output_size(input, dims, output_size, scale_factors)
        if not (input.dtype.is_floating_point or input.dtype is dtypes.uint8):
            raise not_implemented_for(_kernel_name(name, input, sizes), input.dtype)
        return node.apply(input, output_size=sizes, scales=scales)  # type: ignore[attr-defined]
    return upsample


def _kernel_name(name: str, x: Tensor, sizes: tuple[int, ...]) -> str:
    """The dispatch name in ATen's "not implemented for" error: the index computation's, or
    for bilinear the channels-last kernel's where upsample_bilinear2d picks that kernel."""
    if name == "upsample_bicubic2d":
        return "compute_indices_weights_cubic"
    if name.endswith("_aa"):
        return "compute_index_ranges_weights"
    if "nearest" in name:
        if "2d" in name and (_channels_last(x._data) and x.shape[1] > 3 or sum(sizes) <= 128):
            return "upsample_nearest2d_channels_last"
        return "compute_indices_weights_nearest"
    if name == "upsample_bilinear2d":
        if _channels_last(x._data) and x.shape[1] > 3 or sum(sizes) <= 128:
            return "upsample_bilinear2d_channels_last"
    return "compute_indices_weights_linear"


def _linear(node: type, name: str, dims: int) -> Any:
    @guarded(name=name)
    def upsample(input: Tensor, output_size: Sequence[int] | None,  # noqa: A002
                 align_corners: bool, scale_factors: Sequence[float] | None = None) -> Tensor:
        input = _check_tensor(input, name)
        sizes, scales = _output_size(input, dims, output_size, scale_factors)
        if name.endswith("_aa") and input.dtype is dtypes.uint8:
            raise TorchRuntimeError(f"gradsh does not implement {name} on uint8 yet")
        if not input.dtype.is_floating_point or (
                name.endswith("_aa") and input.dtype not in (dtypes.float32, dtypes.float64)):
            raise not_implemented_for(_kernel_name(name, input, sizes), input.dtype)
        return node.apply(input, output_size=sizes,  # type: ignore[attr-defined]
                          align_corners=bool(align_corners), scales=scales)
    return upsample


upsample_nearest1d = _nearest(UpsampleNearest1DBackward0, "upsample_nearest1d", 1)
upsample_nearest2d = _nearest(UpsampleNearest2DBackward0, "upsample_nearest2d", 2)
_upsample_nearest_exact1d = _nearest(UpsampleNearestExact1DBackward0,
                                     "_upsample_nearest_exact1d", 1)
_upsample_nearest_exact2d = _nearest(UpsampleNearestExact2DBackward0,
                                     "_upsample_nearest_exact2d", 2)
upsample_linear1d = _linear(UpsampleLinear1DBackward0, "upsample_linear1d", 1)
upsample_bilinear2d = _linear(UpsampleBilinear2DBackward0, "upsample_bilinear2d", 2)
upsample_bicubic2d = _linear(UpsampleBicubic2DBackward0, "upsample_bicubic2d", 2)
upsample_nearest3d = _nearest(UpsampleNearest3DBackward0, "upsample_nearest3d", 3)
_upsample_nearest_exact3d = _nearest(UpsampleNearestExact3DBackward0,
                                     "_upsample_nearest_exact3d", 3)
upsample_trilinear3d = _linear(UpsampleTrilinear3DBackward0, "upsample_trilinear3d", 3)
_upsample_bilinear2d_aa = _linear(UpsampleBilinear2DAaBackward0, "_upsample_bilinear2d_aa", 2)
_upsample_bicubic2d_aa = _linear(UpsampleBicubic2DAaBackward0, "_upsample_bicubic2d_aa", 2)


@guarded
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r): PixelShuffleBackward0."""
    input = _check_tensor(input, "pixel_shuffle")
    r = int(upscale_factor)
    if input.ndim < 3:
        raise TorchRuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but "
                                f"got input with {input.ndim} dimension(s)")
    if r <= 0:
        raise TorchRuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if input.shape[-3] % (r * r):
        raise TorchRuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={input.shape[-3]} is not divisible "
            f"by {r * r}")
    return PixelShuffleBackward0.apply(input, factor=r)


@guarded
def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """(b, groups * k, *): channel g * k + i to i * groups + g (ChannelShuffleBackward0)."""
    input = _check_tensor(input, "channel_shuffle")
    groups = int(groups)
    if input.ndim <= 2:
        raise TorchRuntimeError("channel_shuffle expects input with > 2 dims, but got input "
                                f"with sizes {list(input.shape)}")
    if groups <= 0:
        raise TorchRuntimeError("Number of groups to divide channels in must be positive. "
                                f"Value of groups:{groups}")
    if input.shape[1] % groups:
        raise TorchRuntimeError(f"Number of channels must be divisible by groups. Got "
                                f"{input.shape[1]} channels and {groups} groups.")
    return ChannelShuffleBackward0.apply(input, groups=groups)


@guarded
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W): PixelUnshuffleBackward0."""
    input = _check_tensor(input, "pixel_unshuffle")
    r = int(downscale_factor)
    if input.ndim < 3:
        raise TorchRuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, "
                                f"but got input with {input.ndim} dimension(s)")
    if r <= 0:
        raise TorchRuntimeError("pixel_unshuffle expects a positive downscale_factor, but got "
                                f"{r}")
    for name, size in (("height", input.shape[-2]), ("width", input.shape[-1])):
        if size % r:
            raise TorchRuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({-2 if name == 'height' else -1})={size} is not divisible by {r}")
    return PixelUnshuffleBackward0.apply(input, factor=r)


@guarded
def max_unpool2d(input: Tensor, indices: Tensor, output_size: Sequence[int]) -> Tensor:  # noqa
    """ATen's max_unpool2d: each value to its index in an (output_size) plane of zeros."""
    input = _check_tensor(input, "max_unpool2d")
    indices = _check_tensor(indices, "max_unpool2d", "indices", 2)
    if indices.dtype is not dtypes.int64:
        raise TorchRuntimeError(f"elements in indices should be type int64 but got: "
                                f"{indices.dtype.short}")
    sizes = tuple(int(n) for n in output_size)
    if len(sizes) != 2:
        raise TorchRuntimeError(f"There should be exactly two elements (height, width) in "
                                f"output_size, but got {len(sizes)} elements.")
    if input.ndim not in (3, 4):
        raise TorchRuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got "
                                f"a tensor with {input.ndim} dimensions.")
    if tuple(input.shape) != tuple(indices.shape):
        raise TorchRuntimeError(f"Expected shape of indices to be same as that of the input "
                                f"tensor ({list(input.shape)}) but got indices tensor with "
                                f"shape: {list(indices.shape)}")
    flat = backend.to_host(indices._data)
    plane = sizes[0] * sizes[1]
    if flat.size and (flat.min() < 0 or flat.max() >= plane):
        bad = int(flat[(flat < 0) | (flat >= plane)].reshape(-1)[0])
        raise TorchRuntimeError(f"Found an invalid max index: {bad} (output volumes are of "
                                f"size {sizes[0]}x{sizes[1]}")
    return MaxUnpool2DBackward0.apply(input, indices=indices._data, output_size=sizes)
