"""PyTorch's argument errors: the guard every public function and method wears."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from gradsh.engine import exceptions
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchTypeError
from gradsh.engine.tensor import Tensor

__all__ = ["guarded", "alias", "unguarded"]


def _describe(value: Any) -> str:
    """An argument's type as PyTorch's argument parser names it."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, DType):
        return "torch.dtype"
    if isinstance(value, list):
        return "list of [" + ", ".join(_describe(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "tuple of (" + ", ".join(_describe(v) for v in value) + ")"
    return builtins.type(value).__name__


# PyTorch's overloads for the argument errors whose full text gradsh reproduces: the method
# form (after `self`), then the function form.
_VARIANCE_OVERLOADS = (
    ("tuple of ints dim, bool unbiased = True, bool keepdim = False",
     "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
     "bool unbiased = True"),
    ("Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
     "Tensor out = None",
     "Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = "
     "False, Tensor out = None",
     "Tensor input, bool unbiased = True"),
)
_OVERLOADS = {"std": _VARIANCE_OVERLOADS, "var": _VARIANCE_OVERLOADS}


def _invalid_arguments(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                       method: bool = False) -> TorchTypeError:
    """PyTorch's "received an invalid combination of arguments" (with its list of overloads
    where gradsh knows them: python_arg_parser sorts keywords, and prints a trailing ", " when
    there are only keywords)."""
    overloads = _OVERLOADS.get(name)
    if overloads is None:
        parts = [_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in kwargs.items()]
        return TorchTypeError(
            f"{name}() received an invalid combination of arguments - got ({', '.join(parts)})"
        )
    parts = [_describe(a) for a in args] + [f"{k}={_describe(kwargs[k])}" for k in sorted(kwargs)]
    got = ", ".join(parts) + (", " if kwargs and not args else "")
    lines = [f"{name}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    positional = len(args) > (0 if method else 1)
    for i, signature in enumerate(overloads[0 if method else 1]):
        lines.append(f" * ({signature})")
        if i == 0 and positional and kwargs:
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + ", ".join(sorted(kwargs)))
    return TorchTypeError("\n".join(lines) + "\n")


_ARGUMENT_ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, OverflowError,
                    ZeroDivisionError)


def _guard(name: str, function: Callable[..., Any], *, method: bool,
           tensor_first: bool) -> Callable[..., Any]:
    """`function` with PyTorch's argument errors: a non-tensor where a tensor must be, or any
    argument the implementation cannot take, is a TypeError naming the argument types."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        if tensor_first and (not args or not isinstance(args[0], Tensor)):
            if not args:
                raise TorchTypeError(f"{name}() missing 1 required positional arguments: "
                                     '"input"')
            raise TorchTypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{_describe(args[0])}"
            )
        try:
            return function(*args, **kwargs)
        except _ARGUMENT_ERRORS as error:
            if isinstance(error, exceptions.TorchError):
                raise
            raise _invalid_arguments(name, args[1:] if method else args, kwargs,
                                     method) from error

    guarded.__name__ = getattr(function, "__name__", name)
    guarded.__qualname__ = guarded.__name__
    guarded.__doc__ = function.__doc__
    guarded.__wrapped__ = function  # type: ignore[attr-defined]
    return guarded


# The guarded function -> the function itself (what the method table wraps in its own guard).
_UNGUARDED: dict[Callable[..., Any], tuple[Callable[..., Any], bool]] = {}


def guarded(function: Callable[..., Any] | None = None, *, name: str | None = None,
            tensor_first: bool = True) -> Any:
    """Decorator: a public function with PyTorch's argument errors (see `_guard`), named
    `name` (by default its own name) in them.

    `tensor_first`: the first argument must be a Tensor (torch.exp(1) is a TypeError). Not so
    for the arithmetic that takes a number first (torch.add(2, x), sub, mul, div and their
    aliases, floor_divide, remainder: those are not guarded at all), pow, where, cat, stack,
    creation and autograd functions.
    """

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        result = _guard(name or function.__name__, function, method=False,
                        tensor_first=tensor_first)
        _UNGUARDED[result] = (function, tensor_first)
        return result

    return wrap if function is None else wrap(function)


def alias(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Another public name for a guarded function (torch.clip for torch.clamp): its argument
    errors say `name`, as PyTorch's do."""
    raw, tensor_first = _UNGUARDED[function]
    return guarded(raw, name=name, tensor_first=tensor_first)


def unguarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function a `guarded` one wraps (any other function as it is)."""
    entry = _UNGUARDED.get(function)
    return function if entry is None else entry[0]
