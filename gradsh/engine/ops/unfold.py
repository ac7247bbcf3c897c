"""Sliding windows: x.unfold(dim, size, step), F.unfold (im2col) and F.fold (col2im), with
PyTorch's checks and texts."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.functions.unfold import (
    Col2ImBackward0,
    Im2ColBackward0,
    UnfoldBackward0,
    _blocks,
)
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["unfold", "im2col", "col2im"]

Pair = tuple[int, int]


@guarded
def unfold(a: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """x.unfold(dimension, size, step): the windows of `size` every `step` along dimension, as
    a view with one more dimension (UnfoldBackward0)."""
    a = _check_tensor(a, "unfold")
    dim = wrap_dim(dimension, max(a.ndim, 1))
    length = a.shape[dim] if a.ndim else 1
    if size > length:
        raise TorchRuntimeError(f"maximum size for tensor at dimension {dim} is {length} but "
                                f"size is {size}")
    if size < 0:
        raise TorchRuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise TorchRuntimeError(f"step is {step} but must be > 0")
    return UnfoldBackward0.apply(a, dim=dim, size=size, step=step)


def _pair(value: Any) -> Pair:
    if isinstance(value, int):
        return value, value
    first, second = value
    return int(first), int(second)


def _check_parameters(kernel: Pair, dilation: Pair, padding: Pair, stride: Pair) -> None:
    """The positivity checks of im2col and col2im, in their order."""
    if min(kernel) <= 0:
        raise TorchRuntimeError("kernel size should be greater than zero, but got kernel_height: "
                                f"{kernel[0]} kernel_width: {kernel[1]}")
    if min(stride) <= 0:
        raise TorchRuntimeError("stride should be greater than zero, but got stride_height: "
                                f"{stride[0]} stride_width: {stride[1]}")
    if min(dilation) <= 0:
        raise TorchRuntimeError("dilation should be greater than zero, but got dilation_height: "
                                f"{dilation[0]} dilation_width: {dilation[1]}")
    if min(padding) < 0:
        raise TorchRuntimeError(f"padding should be non-negative, but got pad_height: "
                                f"{padding[0]} pad_width: {padding[1]}")


def _check_rank(x: Tensor, full: int) -> None:
    """A batch (4-d for im2col, 3-d for col2im) or one sample, one dimension fewer."""
    if x.ndim < full - 1:
        raise TorchIndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, "
                              f"{x.ndim - 1}], but got {x.ndim})")
    if x.ndim > full or any(size == 0 for size in x.shape[x.ndim - full + 1:]):
        raise TorchRuntimeError(
            f"Expected {full - 1}D or {full}D (batch mode) tensor with possibly 0 batch size "
            f"and other non-zero dimensions for input, but got: {list(x.shape)}")


@guarded
def im2col(input: Tensor, kernel_size: Any, dilation: Any = 1,  # noqa: A002
           padding: Any = 0, stride: Any = 1) -> Tensor:
    """F.unfold: (N, C, H, W) (or (C, H, W)) to the columns of its sliding blocks,
    (N, C * kh * kw, L) (Im2ColBackward0)."""
    x = _check_tensor(input, "unfold")
    params = tuple(_pair(p) for p in (kernel_size, dilation, padding, stride))
    kernel, dil, pad, strd = params
    _check_parameters(kernel, dil, pad, strd)
    _check_rank(x, 4)
    image = x.shape[-2:]
    blocks = _blocks(image, kernel, dil, pad, strd)
    if min(blocks) < 1:
        raise TorchRuntimeError(
            f"Given input with spatial size ({image[0]}, {image[1]}), kernel_size=({kernel[0]}, "
            f"{kernel[1]}), dilation=({dil[0]}, {dil[1]}), padding=({pad[0]}, {pad[1]}), "
            f"calculated shape of the array of sliding blocks as ({blocks[0]}, {blocks[1]}), "
            "but its components must be at least one.")
    return Im2ColBackward0.apply(x, kernel=kernel, dilation=dil, padding=pad, stride=strd)


@guarded
def col2im(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,  # noqa: A002
           padding: Any = 0, stride: Any = 1) -> Tensor:
    """F.fold: columns (N, C * kh * kw, L) (or without N) added back into (N, C, H, W) images
    (Col2ImBackward0)."""
    x = _check_tensor(input, "fold")
    output = _pair(output_size)
    kernel, dil, pad, strd = (_pair(p) for p in (kernel_size, dilation, padding, stride))
    _check_parameters(kernel, dil, pad, strd)
    _check_rank(x, 3)
    columns, count = x.shape[-2], x.shape[-1]
    area = kernel[0] * kernel[1]
    if columns % area:
        raise TorchRuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={columns} and kernel_size=({kernel[0]}, "
            f"{kernel[1]}).")
    blocks = _blocks(output, kernel, dil, pad, strd)
    if blocks[0] * blocks[1] != count:
        raise TorchRuntimeError(
            f"Given output_size=({output[0]}, {output[1]}), kernel_size=({kernel[0]}, "
            f"{kernel[1]}), dilation=({dil[0]}, {dil[1]}), padding=({pad[0]}, {pad[1]}), "
            f"stride=({strd[0]}, {strd[1]}), expected size of input's dimension 2 to match the "
            f"calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
            f"{blocks[0] * blocks[1]}, but got input.size(2)={count}.")
    return Col2ImBackward0.apply(x, output=output, kernel=kernel, dilation=dil, padding=pad,
                                 stride=strd)
