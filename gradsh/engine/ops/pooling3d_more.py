"""max_unpool3d and adaptive_max_pool3d (with_indices), with ATen's checks and messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.pooling3d_more import AdaptiveMaxPool3DBackward0, MaxUnpool3DBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["max_unpool3d", "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices"]


@guarded
def max_unpool3d(input: Tensor, indices: Tensor, output_size: Sequence[int],  # noqa: A002
                 stride: Sequence[int], padding: Sequence[int]) -> Tensor:
    """ATen's max_unpool3d: each value to its index in an (output_size) volume of zeros."""
    input = _check_tensor(input, "max_unpool3d")
    indices = _check_tensor(indices, "max_unpool3d", "indices", 2)
    sizes = tuple(int(n) for n in output_size)
    for bad, message in (
            (indices.dtype is not dtypes.int64, "elements in indices should be type int64"),
            (input.ndim not in (4, 5), "Input to max_unpooling3d should be a 4d or 5d Tensor, "
             f"but got a tensor with {input.ndim} dimensions."),
            (len(sizes) != 3, "There should be exactly three elements (depth, height, width) "
             f"in output_size, but got {len(sizes)} elements."),
            (any(int(s) <= 0 for s in stride), "strides should be greater than zero, but got "
             f"stride: {[int(s) for s in stride]}"),
            (tuple(input.shape) != tuple(indices.shape), "Expected shape of indices to be same "
             f"as that of the input tensor ({list(input.shape)}) but got indices tensor with "
             f"shape: {list(indices.shape)}")):
        if bad:
            raise TorchRuntimeError(message)
    volume = sizes[0] * sizes[1] * sizes[2]
    planes = np.asarray(indices._data).reshape(-1, int(np.prod(input.shape[-3:], dtype=int)))
    invalid = (planes < 0) | (planes >= volume)
    if invalid.any():  # ATen names the last bad index of the first plane that has one
        plane = planes[int(np.flatnonzero(invalid.any(axis=1))[0])]
        bad = int(plane[(plane < 0) | (plane >= volume)][-1])
        raise TorchRuntimeError(f"Found an invalid max index: {bad} (output volumes are of "
                                f"size {sizes[0]}x{sizes[1]}x{sizes[2]})")
    return MaxUnpool3DBackward0.apply(input, indices=indices._data,  # type: ignore
                                      output_size=sizes)


@guarded
def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any,  # noqa: A002
                                     return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "adaptive_max_pool3d")
    if input.ndim not in (4, 5):
        raise TorchRuntimeError(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: "
                                f"{list(input.shape)}")
    sizes = [output_size] * 3 if isinstance(output_size, int) else list(output_size)
    if len(sizes) != 3:
        raise TorchRuntimeError("adaptive_max_pool3d(): internal error: output_size.size() "
                                "must be 3")
    for k in range(input.ndim - 3, input.ndim):
        if input.shape[k] == 0:
            raise TorchRuntimeError(
                "adaptive_max_pool3d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(input.shape)} with dimension {k} being "
                "empty")
    out = tuple(int(input.shape[input.ndim - 3 + k]) if v is None else int(v)
                for k, v in enumerate(sizes))
    values = AdaptiveMaxPool3DBackward0.apply(input, output_size=out)
    recorded = getattr(values.grad_fn, "indices", None)
    indices = recorded if recorded is not None else AdaptiveMaxPool3DBackward0.indices_of(
        input, out)  # (no graph recorded: the node was not kept)
    return values, Tensor._make(indices, input.device)


@guarded
def adaptive_max_pool3d(input: Tensor, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    out, indices = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, indices) if return_indices else out
