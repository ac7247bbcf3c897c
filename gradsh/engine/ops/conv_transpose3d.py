"""conv_transpose3d, with ATen's argument checks for transposed convolutions (in its order and
words; the 1-D and 2-D ones are in convolution.py)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.conv_transpose3d import ConvolutionTranspose3dBackward0
from gradsh.engine.functions.convolution3d import Geometry3d
from gradsh.engine.ops.convolution import _tuple, _unbatched
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["conv_transpose3d"]

_AXES = ("depth", "height", "width")


def _check(input: Tensor, weight: Tensor, bias: Tensor | None,  # noqa: A002
           stride: tuple[int, ...], padding: tuple[int, ...], extra: tuple[int, ...],
           dilation: tuple[int, ...], groups: int) -> list[int]:
    """The checks; the output's spatial sizes."""
    if weight.ndim != input.ndim:
        raise TorchRuntimeError(
            f"expected stride to be a single integer value or a list of {weight.ndim - 2} values "
            f"to match the convolution dimensions, but got stride={list(stride)}")
    for bad, message in (
            (input.dtype is not weight.dtype,
             f"expected scalar type {input.dtype.short} but found {weight.dtype.short}"),
            (any(s <= 0 for s in stride), "non-positive stride is not supported"),
            (any(p < 0 for p in padding), "negative padding is not supported"),
            (groups <= 0, "non-positive groups is not supported")):
        if bad:
            raise TorchRuntimeError(message)
    if any(o >= s and o >= d for o, s, d in zip(extra, stride, dilation, strict=True)):
        got = " ".join(f"{name}_{axis}: {value}" for name, values in (
            ("output_padding", extra), ("stride", stride), ("dilation", dilation))
            for axis, value in zip(_AXES, values, strict=True))
        raise TorchRuntimeError("output padding must be smaller than either stride or dilation, "
                                f"but got {got}")
    out_channels = weight.shape[1] * groups
    weight_text = f"weight of size {list(weight.shape)}"
    for bad, message in (
            (weight.shape[0] % groups,
             f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
             f"but got {weight_text.replace('size ', 'size [')}] instead"),
            (input.shape[1] != weight.shape[0],
             f"Given transposed=1, {weight_text}, expected input{list(input.shape)} to have "
             f"{weight.shape[0]} channels, but got {input.shape[1]} channels instead"),
            (bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels),
             f"Given transposed=1, {weight_text}, expected bias to be 1-dimensional with "
             f"{out_channels} elements, but got bias of size "
             f"{list(bias.shape) if bias is not None else []} instead"),
            (bias is not None and bias.dtype is not input.dtype,
             f"expected scalar type {input.dtype.short} but found "
             f"{bias.dtype.short if bias is not None else ''}")):
        if bad:
            raise TorchRuntimeError(message)
    sizes = [(n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, s, p, d, k, o in zip(
        input.shape[2:], stride, padding, dilation, weight.shape[2:], extra, strict=True)]
    if any(n < 1 for n in sizes):
        raise TorchRuntimeError(
            "Given input size per channel: (" + " x ".join(map(str, input.shape[2:]))
            + "). Calculated output size per channel: (" + " x ".join(map(str, sizes))
            + "). Output size is too small")
    return sizes


@guarded
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    if _unbatched("conv_transpose3d", input, weight, 3):
        return squeeze(conv_transpose3d(unsqueeze(input, 0), weight, bias,  # type: ignore
                                        stride, padding, output_padding, groups, dilation), 0)
    stride_t, padding_t, dilation_t, extra = (_tuple(v, 3, n) for v, n in (
        (stride, "stride"), (padding, "padding"), (dilation, "dilation"),
        (output_padding, "output_padding")))
    sizes = _check(input, weight, bias, stride_t, padding_t, extra, dilation_t, groups)
    out_shape = (input.shape[0], weight.shape[1] * groups, *sizes)
    geo = Geometry3d(stride_t, padding_t, dilation_t, groups)  # type: ignore[arg-type]
    placeholder = bias if bias is not None else zeros(0, dtype=input.dtype, device=input.device)
    return ConvolutionTranspose3dBackward0.apply(  # type: ignore[no-any-return]
        input, weight, placeholder, geo=geo, has_bias=bias is not None, out_shape=out_shape)
