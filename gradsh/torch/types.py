"""torch.types: the aliases annotations use (Number, _int, _float, _bool, _dtype, _device,
_size), as PyTorch defines them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, TypeAlias, Union

from gradsh.engine.tensor import Tensor
from gradsh.torch import device as _device_type
from gradsh.torch import dtype as _dtype_type
from gradsh.torch import Size

_bool: TypeAlias = bool
_int: TypeAlias = int
_float: TypeAlias = float
_complex: TypeAlias = complex
_str: TypeAlias = str
_dtype: TypeAlias = _dtype_type
_device: TypeAlias = _device_type
_size: TypeAlias = Size | list[int] | tuple[int, ...]
Number: TypeAlias = int | float | bool
Device: TypeAlias = _device_type | str | int | None
_Number = (int, float, bool)
_TensorOrTensors: TypeAlias = Tensor | Sequence[Tensor]
FileLike: TypeAlias = Union[str, os.PathLike[str], IO[bytes]]  # noqa: UP007  (its repr)

__all__ = ["Number", "Device", "FileLike"]
