"""torch.overrides: the queries around __torch_function__ (gradsh.engine.ops.torch_function
does the dispatching)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.ops.torch_function import has_torch_function as _has_torch_function
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__all__ = ["has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
           "is_tensor_like"]

__getattr__ = module_getattr("torch.overrides")


def has_torch_function(relevant_args: Any) -> bool:
    """Whether any argument is a Tensor subclass whose __torch_function__ dispatches."""
    return _has_torch_function(tuple(relevant_args))


def has_torch_function_unary(arg: Any) -> bool:
    return _has_torch_function((arg,))


def has_torch_function_variadic(*args: Any) -> bool:
    return _has_torch_function(args)


def is_tensor_like(inp: Any) -> bool:
    """A Tensor, or anything with a __torch_function__."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")
