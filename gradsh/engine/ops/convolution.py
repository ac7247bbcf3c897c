"""The convolutions: conv1d and conv2d, with PyTorch's argument checks and padding='same', and
the transposed ones, conv_transpose1d and conv_transpose2d."""

from __future__ import annotations

from typing import Any

from gradsh.engine import autocast
from gradsh.engine.exceptions import TorchRuntimeError, warn
from gradsh.engine.functions.convolution import (
    ConvGeometry,
    ConvolutionBackward0,
    ConvolutionTransposeBackward0,
    Pair,
)
from gradsh.engine.ops.arguments import _c_name, _check_tensor
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.joining import pad
from gradsh.engine.ops.shape import squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"]


def _tuple(value: Any, n: int, name: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    values = tuple(int(v) for v in value)
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise TorchRuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the "
            f"convolution dimensions, but got {name}={list(values)}")
    return values


def _same_padding(weight: Tensor, dilation: tuple[int, ...], stride: tuple[int, ...],
                  dims: int) -> tuple[tuple[int, ...], list[int] | None]:
    """padding='same': symmetric where the total is even; else the extra row/column goes after,
    through a zero-padded copy of the input (ATen warns about that copy)."""
    if any(s != 1 for s in stride):
        raise TorchRuntimeError("padding='same' is not supported for strided convolutions")
    symmetric, extra = [], []
    for d, k in zip(dilation, weight.shape[2:], strict=True):
        total = d * (k - 1)
        symmetric.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        warn("Using padding='same' with even kernel lengths and odd dilation may require a "
             "zero-padded copy of the input be created")
        pad: list[int] = []
        for e in reversed(extra):
            pad += [0, e]
        return tuple(symmetric), pad
    return tuple(symmetric), None


def _unbatched(name: str, input: Tensor, weight: Tensor, dims: int) -> bool:  # noqa: A002
    """The checks every convolution makes first; whether the input lacks its batch dimension
    (the convolution then runs on it unsqueezed and squeezes the result)."""
    _check_tensor(input, name)
    _check_tensor(weight, name, "weight", 2)
    if input.ndim not in (dims + 1, dims + 2):
        raise TorchRuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
            f"input of size: {list(input.shape)}")
    return input.ndim == dims + 1


def _convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,  # noqa: A002
                 padding: Any, dilation: Any, groups: int, dims: int) -> Tensor:
    if _unbatched(f"conv{dims}d", input, weight, dims):
        out = _convolution(unsqueeze(input, 0), weight, bias, stride, padding, dilation,
                           groups, dims)
        return squeeze(out, 0)
    stride_t = _tuple(stride, dims, "stride")
    dilation_t = _tuple(dilation, dims, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding_t: tuple[int, ...] = (0,) * dims
        elif padding == "same":
            padding_t, extra = _same_padding(weight, dilation_t, stride_t, dims)
            if extra is not None:
                input = pad(input, extra)
        else:
            raise TorchRuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding_t = _tuple(padding, dims, "padding")
    if weight.ndim != input.ndim:
        raise TorchRuntimeError(
            f"expected stride to be a single integer value or a list of {weight.ndim - 2} values "
            f"to match the convolution dimensions, but got stride={list(stride_t)}")
    _check_conv(input, weight, bias, stride_t, padding_t, dilation_t, groups)
    geo = ConvGeometry(_pair(stride_t, 1), _pair(padding_t, 0), _pair(dilation_t, 1), groups)
    placeholder = bias if bias is not None else zeros(0, dtype=input.dtype, device=input.device)
    return ConvolutionBackward0.apply(input, weight, placeholder, geo=geo,
                                      has_bias=bias is not None)


def _pair(values: tuple[int, ...], fill: int) -> Pair:
    """A 1-D convolution's values as 2-D ones (height 1, no stride or padding there)."""
    return (values[0], values[1]) if len(values) == 2 else (fill, values[0])


def _check_conv(input: Tensor, weight: Tensor, bias: Tensor | None,  # noqa: A002
                stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
                groups: int) -> None:
    # (ATen's _convolution compares the bias's type with the input's first)
    if bias is not None and bias.dtype is not input.dtype:
        raise TorchRuntimeError(f"Input type ({_c_name(input.dtype)}) and bias type "
                                f"({_c_name(bias.dtype)}) should be the same")
    if input.dtype is not weight.dtype:
        raise TorchRuntimeError(f"expected scalar type {input.dtype.short} but found "
                                f"{weight.dtype.short}")
    if any(s <= 0 for s in stride):
        raise TorchRuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise TorchRuntimeError("negative padding is not supported")
    if groups <= 0:
        raise TorchRuntimeError("non-positive groups is not supported")
    channels = weight.shape[1] * groups
    if input.shape[1] != channels or weight.shape[0] % groups:
        raise TorchRuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
            f"input{list(input.shape)} to have {channels} channels, but got {input.shape[1]} "
            "channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise TorchRuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding, strict=True)]
    extent = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:], strict=True)]
    if any(e > n for e, n in zip(extent, padded, strict=True)):
        raise TorchRuntimeError(
            "Calculated padded input size per channel: (" + " x ".join(map(str, padded))
            + "). Kernel size: (" + " x ".join(map(str, extent)) + "). Kernel size can't be "
            "greater than actual input size")


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
           stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    input, weight, bias = autocast.lower(input, weight, bias)  # noqa: A001
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
           stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    input, weight, bias = autocast.lower(input, weight, bias)  # noqa: A001
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def _conv_transpose(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,  # noqa
                    padding: Any, output_padding: Any, groups: int, dilation: Any,
                    dims: int) -> Tensor:
    if _unbatched(f"conv_transpose{dims}d", input, weight, dims):
        out = _conv_transpose(unsqueeze(input, 0), weight, bias, stride, padding,
                              output_padding, groups, dilation, dims)
        return squeeze(out, 0)
    stride_t, padding_t, dilation_t = (_tuple(v, dims, n) for v, n in (
        (stride, "stride"), (padding, "padding"), (dilation, "dilation")))
    extra = _tuple(output_padding, dims, "output_padding")
    if input.dtype is not weight.dtype:
        raise TorchRuntimeError(f"expected scalar type {input.dtype.short} but found "
                                f"{weight.dtype.short}")
    if input.shape[1] != weight.shape[0]:
        raise TorchRuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[0]} channels, but got {input.shape[1]} "
            "channels instead")
    if any(o >= s and o >= d for o, s, d in zip(extra, stride_t, dilation_t, strict=True)):
        # ATen checks a 1-D convolution as a 2-D one of height 1
        values = (_pair(extra, 0), _pair(stride_t, 1), _pair(dilation_t, 1))
        got = " ".join(f"{name}_{axis}: {pair[i]}" for name, pair in zip(
            ("output_padding", "stride", "dilation"), values, strict=True)
            for i, axis in enumerate(("height", "width")))
        raise TorchRuntimeError("output padding must be smaller than either stride or dilation, "
                                f"but got {got}")
    sizes = [(n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, s, p, d, k, o in zip(
        input.shape[2:], stride_t, padding_t, dilation_t, weight.shape[2:], extra, strict=True)]
    out_shape = (input.shape[0], weight.shape[1] * groups, *sizes)
    geo = ConvGeometry(_pair(stride_t, 1), _pair(padding_t, 0), _pair(dilation_t, 1), groups)
    placeholder = bias if bias is not None else zeros(0, dtype=input.dtype, device=input.device)
    return ConvolutionTransposeBackward0.apply(input, weight, placeholder, geo=geo,
                                               has_bias=bias is not None, out_shape=out_shape)


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    input, weight, bias = autocast.lower(input, weight, bias)  # noqa: A001
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    input, weight, bias = autocast.lower(input, weight, bias)  # noqa: A001
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)
