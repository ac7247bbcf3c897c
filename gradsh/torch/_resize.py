"""Tensor.resize and Tensor.resize_as, PyTorch's deprecated non-in-place forms (torch/_tensor.py):
a warning, then torch.autograd._functions.Resize, an autograd.Function that reshapes a copy of
a contiguous tensor (grad_fn ResizeBackward) and refuses a different element count."""

from __future__ import annotations

import math
import warnings
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor

_RESIZE: list[Any] = []  # the Function class, made at the first call (autograd loads late)


def _resize_function() -> Any:
    if not _RESIZE:
        from gradsh.torch.autograd import Function

        class Resize(Function):
            @staticmethod
            def forward(ctx: Any, tensor: Tensor, sizes: tuple[int, ...]) -> Tensor:
                ctx.sizes = sizes
                ctx.numel = math.prod(sizes)
                if tensor.numel() != ctx.numel:
                    raise TorchRuntimeError(
                        "requested resize to {} ({} elements in total), but the given tensor "
                        "has a size of {} ({} elements). autograd's resize can only change the "
                        "shape of a given tensor, while preserving the number of elements. "
                        .format("x".join(map(str, sizes)), ctx.numel,
                                "x".join(map(str, tensor.size())), tensor.numel()))
                ctx.input_sizes = tensor.size()
                if tensor.is_contiguous():
                    return tensor.clone().view(*sizes)
                return tensor.contiguous().view(*sizes)

            @staticmethod
            def backward(ctx: Any, grad_output: Tensor) -> tuple[Tensor, None]:
                return grad_output.contiguous().view(ctx.input_sizes), None

        Resize.__module__ = "torch.autograd._functions.tensor"
        _RESIZE.append(Resize)
    return _RESIZE[0]


def resize(self: Tensor, *sizes: Any) -> Tensor:
    warnings.warn("non-inplace resize is deprecated", stacklevel=2)
    return _resize_function().apply(self, sizes)


def resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
    return _resize_function().apply(self, tensor.size())
