"""What Python programs do with tensors beyond the engine's ops: the legacy constructors
(`torch.Tensor(2, 3)`, `torch.FloatTensor([1, 2])`), and an error naming what gradsh lacks.

`install()` attaches these to the engine's Tensor once, when gradsh.torch is imported: the one
registration step from this layer (the engine's own methods are attached by its method table).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchTypeError
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import missing


def _legacy_new(dtype: DType, fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    """`torch.Tensor(data)` copies data as `dtype`; `torch.Tensor(2, 3)` is uninitialised memory
    (gradsh gives zeros); `torch.Tensor()` is empty."""
    device = kwargs.pop("device", None)
    if kwargs:
        return ops.Tensor_(*args, device=device, **kwargs)  # PyTorch's error text
    if not args:
        return ops.zeros(0, dtype=dtype, device=device)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):
            if data.dtype is not dtype:
                raise TorchTypeError(f"expected {dtype.legacy.removesuffix('Tensor')} "
                                     f"(got {data.dtype.short})")
            return data
        if isinstance(data, (list, tuple, np.ndarray)) or (
                hasattr(data, "__len__") and not isinstance(data, (str, bytes))):
            return ops.tensor(data if not isinstance(data, tuple) else list(data), dtype=dtype,
                              device=device)
        if isinstance(data, (float, bool)):
            raise TorchTypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return ops.zeros(*args, dtype=dtype, device=device)


def _tensor_new(cls: type, *args: Any, **kwargs: Any) -> Tensor:
    if cls is not Tensor:  # a subclass (nn.Parameter defines its own __new__)
        return object.__new__(cls)
    return _legacy_new(dtypes.float32 if not kwargs.get("dtype") else kwargs.pop("dtype"),
                       "Tensor", args, kwargs)


class _TensorType(type):
    """The type of torch.FloatTensor and friends: calling one builds a tensor of its dtype, and
    `isinstance(x, torch.FloatTensor)` checks the dtype, as PyTorch's tensortype does."""

    dtype: DType

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and instance.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return _legacy_new(cls.dtype, cls.__name__, args, dict(kwargs))


def legacy_type(dtype: DType) -> type:
    return _TensorType(dtype.legacy, (), {"dtype": dtype, "__module__": "torch"})


def _tensor_getattr(self: Tensor, name: str) -> Any:
    """Reached only when the attribute does not exist: say whether PyTorch has it."""
    raise missing("torch.Tensor", name)


def install() -> None:
    # `type(x)` prints <class 'torch.Tensor'>, as in PyTorch
    Tensor.__module__ = "torch"
    Tensor.__new__ = _tensor_new  # type: ignore[assignment]
    Tensor.__getattr__ = _tensor_getattr  # type: ignore[attr-defined]
