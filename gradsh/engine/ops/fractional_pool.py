"""fractional_max_pool2d / 3d at ATen's level (kernel, output size and the random samples
given), with its checks and messages; torch.nn.functional's forms draw the samples."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.fractional_pool import (
    FractionalMaxPool2DBackward0,
    FractionalMaxPool3DBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["fractional_max_pool2d_samples", "fractional_max_pool3d_samples"]

_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _sizes(value: Any, dims: int, name: str, what: str) -> tuple[int, ...]:
    sizes = (value,) * dims if isinstance(value, int) else tuple(value)
    if len(sizes) != dims:
        raise TorchRuntimeError(f"{name}: {what} must either be a single Int or tuple of Ints")
    return tuple(int(v) for v in sizes)


def _pool(input: Tensor, kernel_size: Any, output_size: Any,  # noqa: A002
          samples: Tensor, dims: int) -> tuple[Tensor, Tensor]:
    name = f"fractional_max_pool{dims}d"
    input = _check_tensor(input, name)
    kernel = _sizes(kernel_size, dims, name, "kernel_size")
    out = _sizes(output_size, dims, name, "output_size")
    if input.ndim not in (dims + 1, dims + 2):
        raise TorchRuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                                f"{list(input.shape)}")
    for i in range(input.ndim - dims - 1, input.ndim):
        if i and input.shape[i] == 0:
            raise TorchRuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"got{list(input.shape)} with dimension {i} being empty.")
    spatial = input.shape[-dims:]
    # ATen allows a last window that ends at the input's end in 2-D, not in 3-D (whose check
    # is strict and goes time, width, height)
    order = (0, 1) if dims == 2 else (0, 2, 1)
    prefix = name if dims == 2 else f"{name}_out"
    for d in order:
        n, k, o = spatial[d], kernel[d], out[d]
        if o + k - 1 > n or (dims == 3 and o + k - 1 == n):
            raise TorchRuntimeError(f"{prefix}(): pool {_NAMES[dims][d]} {k} too large relative "
                                    f"to input {_NAMES[dims][d]} {n}")
    node = FractionalMaxPool2DBackward0 if dims == 2 else FractionalMaxPool3DBackward0
    values = node.apply(input, kernel=kernel, output_size=out, samples=samples._data)
    recorded = values.grad_fn
    if not isinstance(recorded, node):  # (no graph recorded: compute the indices)
        recorded = node()
        recorded.needs_input_grad = (False,)
        recorded.forward(input, kernel, out, samples._data)
    return values, Tensor._make(recorded.indices, input.device)


@guarded
def fractional_max_pool2d_samples(input: Tensor, kernel_size: Any, output_size: Any,  # noqa
                                  random_samples: Tensor) -> tuple[Tensor, Tensor]:
    return _pool(input, kernel_size, output_size, random_samples, 2)


@guarded
def fractional_max_pool3d_samples(input: Tensor, kernel_size: Any, output_size: Any,  # noqa
                                  random_samples: Tensor) -> tuple[Tensor, Tensor]:
    return _pool(input, kernel_size, output_size, random_samples, 3)
