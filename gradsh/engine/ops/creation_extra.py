"""torch.empty_strided (an uninitialised tensor laid out with the given strides) and
torch.frombuffer (a 1-D tensor over a Python buffer's memory), with PyTorch's checks and
messages."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.ops.arguments import _device_name, _new, _resolve_dtype
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor, _once

__all__ = ["empty_strided", "frombuffer"]


@guarded(tensor_first=False)
def empty_strided(size: Any, stride: Any, *, dtype: DType | None = None, device: Any = None,
                  layout: Any = None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor:
    """A tensor of `size` whose elements lie `stride` elements apart in a zero-filled storage
    just large enough (elements may share memory where a stride is 0)."""
    sizes, strides = [int(n) for n in size], [int(s) for s in stride]
    if len(sizes) != len(strides):
        raise TorchRuntimeError(f"dimensionality of sizes ({len(sizes)}) must match "
                                f"dimensionality of strides ({len(strides)})")
    for n in sizes:
        if n < 0:
            raise TorchRuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                    f"{sizes}")
    if any(s < 0 for s in strides):
        raise TorchRuntimeError("Storage size calculation overflowed with sizes="
                                f"{sizes} and strides={strides}")
    d = _resolve_dtype(dtype, dtypes.default_float())
    storage = 0 if 0 in sizes else 1 + sum((n - 1) * s for n, s in zip(sizes, strides,
                                                                         strict=True))
    buffer = np.zeros(storage, d.np)
    data = np.lib.stride_tricks.as_strided(buffer, tuple(sizes),
                                           tuple(s * d.itemsize for s in strides))
    if _device_name(device) != "cpu":
        return _new(data, d, device, requires_grad)  # type: ignore[no-any-return]
    if requires_grad and d.category < 2:
        raise TorchRuntimeError("Only Tensors of floating point and complex dtype can require "
                                "gradients")
    result = Tensor._make(data, "cpu")  # (_new would copy the view into a dense layout)
    result._requires_grad = bool(requires_grad)
    return result


@guarded(tensor_first=False)
def frombuffer(buffer: Any, *, dtype: DType, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    """The `count` elements (all, with -1) of `dtype` in `buffer` from byte `offset`, sharing
    its memory where the buffer is writable."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise TorchValueError("object does not implement Python buffer protocol.") from None
    length = view.nbytes
    size = dtype.itemsize
    if length <= 0 or count == 0:
        raise TorchValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise TorchValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                              f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise TorchValueError(f"buffer length ({length - offset} bytes) after offset "
                                  f"({offset} bytes) must be a multiple of element size ({size})")
        count = (length - offset) // size
    elif offset + count * size > length:
        raise TorchValueError(f"requested buffer length ({count} * {size} bytes) after offset "
                              f"({offset} bytes) must not be greater than actual buffer length "
                              f"({length} bytes)")
    data = np.frombuffer(view.cast("B"), dtype=dtype.np, count=count, offset=offset)
    if not data.flags.writeable:
        if "frombuffer_readonly" not in _once:
            _once.add("frombuffer_readonly")
            warnings.warn(
                "The given buffer is not writable, and PyTorch does not support non-writable "
                "tensors. This means you can write to the underlying (supposedly non-writable) "
                "buffer using the tensor. You may want to copy the buffer to protect its data or "
                "make it writable before converting it to a tensor. This type of warning will be "
                "suppressed for the rest of this program.", UserWarning, stacklevel=3)
        data = data.copy()
    if requires_grad and dtype.category < 2:
        raise TorchRuntimeError("Only Tensors of floating point and complex dtype can require "
                                "gradients")
    result = Tensor._make(data, "cpu")
    if requires_grad:
        result.requires_grad_(True)
    return result
