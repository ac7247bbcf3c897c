"""torch.as_strided over a contiguous tensor's memory."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.strided import (
    AsStridedStorageBackward0,
    AsStridedViewBackward0,
    storage_root,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import storage_offset as _storage_offset_of
from gradsh.engine.tensor import Tensor

__all__ = ["as_strided"]


@guarded
def as_strided(input: Tensor, size: Sequence[int], stride: Sequence[int],  # noqa: A002
               storage_offset: int | None = None) -> Tensor:
    """A view of input's storage with the given sizes, strides (in elements) and offset."""
    x = _check_tensor(input, "as_strided")
    sizes = tuple(int(n) for n in size)
    strides = tuple(int(s) for s in stride)
    if len(sizes) != len(strides):
        raise TorchRuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in strides):
        raise TorchRuntimeError(f"as_strided: Negative strides are not supported at the moment,"
                                f" got strides: {list(strides)}")
    start = int(_storage_offset_of(x))
    offset = start if storage_offset is None else int(storage_offset)
    span = sum((n - 1) * s for n, s in zip(sizes, strides, strict=True))
    item = x._data.itemsize
    root = x._data
    while hasattr(getattr(root, "base", None), "__array_interface__"):  # (as_strided's too)
        root = root.base
    storage = root.nbytes if isinstance(root, np.ndarray) else x.numel() * item
    if all(sizes) and (offset + span + 1) * item > storage:  # ATen's setStorage check
        raise TorchRuntimeError(
            f"setStorage: sizes {list(sizes)}, strides {list(strides)}, storage offset "
            f"{offset}, and itemsize {item} requiring a storage size of "
            f"{(offset + span + 1) * item} are out of bounds for storage of size {storage}")
    relative = offset - start
    if x._data.flags.c_contiguous and not (
            relative < 0 or relative + span >= max(x.numel(), 1) and all(sizes)):
        return AsStridedViewBackward0.apply(x, size=sizes, stride=strides,  # type: ignore
                                            offset=relative)
    if relative < 0 and storage_root(x._data) is None:
        raise TorchNotImplementedError("gradsh does not implement as_strided of this "
                                       "tensor's memory yet")
    return AsStridedStorageBackward0.apply(x, size=sizes, stride=strides,  # type: ignore
                                           offset=relative)
