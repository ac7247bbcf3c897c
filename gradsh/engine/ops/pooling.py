"""Pooling: max_pool1d/2d (with indices), avg_pool1d/2d, adaptive_avg_pool1d/2d, with
PyTorch's argument checks. The 1-D forms are the 2-D ones on an unsqueezed input, as in ATen."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.pooling import (
    AdaptiveAvgPool2DBackward0,
    AvgPool2DBackward0,
    MaxPool2DWithIndicesBackward0,
    Pair,
    Window,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.reductions import mean
from gradsh.engine.ops.shape import squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = [
    "max_pool1d", "max_pool2d", "max_pool1d_with_indices", "max_pool2d_with_indices",
    "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
]


def _pair(value: Any) -> Pair:
    if isinstance(value, int):
        return value, value
    values = tuple(int(v) for v in value)
    return (values[0], values[0]) if len(values) == 1 else (values[0], values[1])


def _window(kernel_size: Any, stride: Any, padding: Any, dilation: Any,
            ceil_mode: bool) -> Window:
    kernel = _pair(kernel_size)
    return Window(kernel, _pair(stride) if stride not in (None, (), []) else kernel,
                  _pair(padding), _pair(dilation), ceil_mode)


def _check_pool(x: Tensor, win: Window, max_pool: bool = False) -> None:
    if max_pool and x.ndim not in (3, 4):  # (max_pool2d's own check comes first)
        raise TorchRuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    # pool2d_shape_check: only a 4-D input's batch may be empty
    if x.ndim not in (3, 4) or 0 in x.shape[x.ndim - 3:]:
        raise TorchRuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                                f"batch size for input, but got:{list(x.shape)}")
    if any(s == 0 for s in win.stride):
        raise TorchRuntimeError("stride should not be zero")
    for k, p, d in zip(win.kernel, win.padding, win.dilation, strict=True):
        if p > (d * (k - 1) + 1) // 2:
            raise TorchRuntimeError(
                "pad should be at most half of effective kernel size, but got pad="
                f"{p}, kernel_size={k} and dilation={d}")
    h, w = x.shape[-2:]
    oh, ow = win.out_size(h, w)
    if oh < 1 or ow < 1:
        c = x.shape[-3]
        raise TorchRuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                                f"({c}x{oh}x{ow}). Output size is too small")


def _check_1d(name: str, input: Tensor, batch_words: str) -> None:  # noqa: A002
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(f"{name}: Expected 2D or 3D {batch_words} tensor with optional "
                                f"0 dim batch size for input, but got:{list(input.shape)}")


def _one(value: Any) -> int:
    return value if isinstance(value, int) else int(tuple(value)[0])


# ---------------------------------------------------------------------------------------------
# Max pooling
# ---------------------------------------------------------------------------------------------


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "max_pool2d")
    window = _window(kernel_size, stride, padding, dilation, ceil_mode)
    _check_pool(input, window, max_pool=True)
    node_out = MaxPool2DWithIndicesBackward0.apply(input, window=window)
    indices = _last_indices(node_out, input, window)
    return node_out, indices


def _last_indices(out: Tensor, input: Tensor, window: Window) -> Tensor:  # noqa: A002
    """The indices tensor of the max pooling that produced `out` (recomputed when the node was
    not recorded, as under no_grad)."""
    node = out.grad_fn
    if isinstance(node, MaxPool2DWithIndicesBackward0):
        return Tensor._make(node.indices, input.device)
    probe = MaxPool2DWithIndicesBackward0()
    probe.needs_input_grad = (False,)
    probe.forward(input, window)
    return Tensor._make(probe.indices, input.device)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    input = _check_tensor(input, "max_pool2d")
    window = _window(kernel_size, stride, padding, dilation, ceil_mode)
    _check_pool(input, window, max_pool=True)
    return MaxPool2DWithIndicesBackward0.apply(input, window=window)


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "max_pool1d")
    _check_1d("max_pool1d", input, "(batch mode)")
    k = _one(kernel_size)
    s = _one(stride) if stride not in (None, (), []) else k
    out, indices = max_pool2d_with_indices(unsqueeze(input, -2), (1, k), (1, s),
                                           (0, _one(padding)), (1, _one(dilation)), ceil_mode)
    return squeeze(out, -2), squeeze(indices, -2)


def _check_max_pool1d(input: Tensor, kernel_size: Any, stride: Any, padding: Any,  # noqa: A002
                      dilation: Any, ceil_mode: bool) -> None:
    """ATen's max_pool1d (the op without indices) and its check_max_pool1d, in their order,
    before the pooling they share with max_pool1d_with_indices."""
    input = _check_tensor(input, "max_pool1d")
    shape = input.shape
    if not (input.ndim == 2 and shape[0] and shape[1] or input.ndim == 3 and shape[1]
            and shape[2]):
        raise TorchRuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with "
                                f"optional 0 dim batch size for input, but got:{list(shape)}")
    k = _one(kernel_size)
    s = _one(stride) if stride not in (None, (), []) else k
    p, d = _one(padding), _one(dilation)
    for value, what, bound in ((k, "kernel_size", "greater than zero"),
                               (s, "stride", "greater than zero"),
                               (p, "padding", "non-negative")):
        if value < 0 or value == 0 and bound != "non-negative":
            raise TorchRuntimeError(f"max_pool1d() {what} must be {bound}, but got {value}")
    if p > k // 2:
        raise TorchRuntimeError(f"max_pool1d() padding should be at most half of kernel size, "
                                f"but got padding={p} and kernel_size={k}")
    if d <= 0:
        raise TorchRuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    width = _window((1, k), (1, s), (0, p), (1, d), ceil_mode).out_size(1, shape[-1])[1]
    if width <= 0:
        raise TorchRuntimeError(f"max_pool1d() Invalid computed output size: {width}")


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    if not return_indices:
        _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    out, indices = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


# ---------------------------------------------------------------------------------------------
# Average pooling
# ---------------------------------------------------------------------------------------------


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    input = _check_tensor(input, "avg_pool2d")
    window = _window(kernel_size, stride, padding, 1, ceil_mode)
    _check_pool(input, window)
    if divisor_override is not None and divisor_override == 0:
        raise TorchRuntimeError("divisor must be not zero")
    return AvgPool2DBackward0.apply(input, window=window, count_include_pad=count_include_pad,
                                    divisor_override=divisor_override)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    input = _check_tensor(input, "avg_pool1d")
    _check_1d("avg_pool1d", input, "(batch mode)")
    k = _one(kernel_size)
    s = _one(stride) if stride not in (None, (), []) else k
    out = avg_pool2d(unsqueeze(input, -2), (1, k), (1, s), (0, _one(padding)), ceil_mode,
                     count_include_pad)
    return squeeze(out, -2)


# ---------------------------------------------------------------------------------------------
# Adaptive average pooling
# ---------------------------------------------------------------------------------------------


def _output_pair(output_size: Any, h: int, w: int) -> Pair:
    if isinstance(output_size, int):
        return output_size, output_size
    oh, ow = (tuple(output_size) * 2)[:2] if len(tuple(output_size)) == 1 else tuple(
        output_size)
    return (h if oh is None else int(oh)), (w if ow is None else int(ow))


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "adaptive_avg_pool2d")
    if input.ndim not in (3, 4):
        raise TorchRuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                                f"{list(input.shape)}")
    h, w = input.shape[-2:]
    out = _output_pair(output_size, h, w)
    if out == (1, 1):
        return mean(input, dim=(-1, -2), keepdim=True)
    for i in (input.ndim - 2, input.ndim - 1):  # (ATen checks the two spatial ones only)
        if input.shape[i] == 0:
            raise TorchRuntimeError(
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(input.shape)} with dimension {i} being "
                "empty")
    if not input.dtype.is_floating_point:
        raise TorchRuntimeError(f'"adaptive_avg_pool2d" not implemented for '
                                f"'{input.dtype.short}'")
    return AdaptiveAvgPool2DBackward0.apply(input, output_size=out)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "adaptive_avg_pool1d")
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional "
                                "tensor for argument #1 'self' (while checking arguments for "
                                "adaptive_avg_pool1d)")
    out = adaptive_avg_pool2d(unsqueeze(input, -2), (1, _one(output_size)))
    return squeeze(out, -2)
