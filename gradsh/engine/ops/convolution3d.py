"""conv3d, with the argument checks the other convolutions make."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.convolution3d import Convolution3dBackward0
from gradsh.engine.ops.convolution import _check_conv, _same_padding, _tuple, _unbatched
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.joining import pad
from gradsh.engine.ops.shape import squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["conv3d"]


@guarded
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
           stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    if _unbatched("conv3d", input, weight, 3):
        return squeeze(conv3d(unsqueeze(input, 0), weight, bias, stride, padding,  # type: ignore
                              dilation, groups), 0)
    stride_t = _tuple(stride, 3, "stride")
    dilation_t = _tuple(dilation, 3, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding_t: tuple[int, ...] = (0, 0, 0)
        elif padding == "same":
            padding_t, extra = _same_padding(weight, dilation_t, stride_t, 3)
            if extra is not None:
                input = pad(input, extra)
        else:
            raise TorchRuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding_t = _tuple(padding, 3, "padding")
    if weight.ndim != input.ndim:
        raise TorchRuntimeError(
            f"expected stride to be a single integer value or a list of {weight.ndim - 2} values "
            f"to match the convolution dimensions, but got stride={list(stride_t)}")
    _check_conv(input, weight, bias, stride_t, padding_t, dilation_t, groups)
    placeholder = bias if bias is not None else zeros(0, dtype=input.dtype, device=input.device)
    return Convolution3dBackward0.apply(  # type: ignore[no-any-return]
        input, weight, placeholder, stride=stride_t, padding=padding_t, dilation=dilation_t,
        groups=groups, has_bias=bias is not None)
