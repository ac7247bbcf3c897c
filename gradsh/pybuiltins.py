"""Python's builtins that a .grad script may call: len, range, list, int ... and the five names
(sum, min, max, abs, round) that mean torch's function on a tensor and Python's on anything else.

They are Python's own functions, so they behave on tensors exactly as they do in a PyTorch
program (`list(x)` gives the rows of x through UnbindBackward0, `sum(losses)` adds with
AddBackward0); only materialising an iterable (`list`, `tuple`) is bounded, so a script cannot
exhaust the machine with `list(range(10**12))`.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable
from typing import Any

from gradsh.engine.limits import Limit, format_size
from gradsh.engine.tensor import Tensor
from gradsh.errors import GradshError

__all__ = ["PYTHON_ONLY", "CONVERSIONS", "torch_or_python"]

# Bytes a list entry takes at the least (a pointer); the budget is --max-memory's.
_BYTES_PER_ITEM = 8


def _check_length(iterable: Any) -> None:
    """A MemoryError, as --max-memory gives for tensors, before a huge list is built."""
    try:
        length = builtins.len(iterable)
    except TypeError:
        return  # an iterator of unknown length: zip, enumerate (bounded by what they wrap)
    asked = length * _BYTES_PER_ITEM
    if asked > Limit.current():
        raise GradshError("MemoryError", f"a list of {length} items would need "
                          f"{format_size(asked)}, over gradsh's memory limit")


def _list(iterable: Iterable[Any] = (), /) -> list[Any]:
    _check_length(iterable)
    return builtins.list(iterable)


def _tuple(iterable: Iterable[Any] = (), /) -> tuple[Any, ...]:
    _check_length(iterable)
    return builtins.tuple(iterable)


# Reachable only by their bare names: torch.len is no more a thing in gradsh than in PyTorch.
PYTHON_ONLY: dict[str, Callable[..., Any]] = {
    "len": builtins.len,
    "range": builtins.range,
    "list": _list,
    "tuple": _tuple,
    "zip": builtins.zip,
    "enumerate": builtins.enumerate,
}

# Python's conversions, called as `int(x)`; the bare names `int`, `float`, `bool` stay the dtypes
# torch.int, torch.float and torch.bool, as they always were in gradsh.
CONVERSIONS: dict[str, Callable[..., Any]] = {
    "int": builtins.int,
    "float": builtins.float,
    "bool": builtins.bool,
}

_PYTHON_FALLBACK: dict[str, Callable[..., Any]] = {
    "sum": builtins.sum,
    "min": builtins.min,
    "max": builtins.max,
    "abs": builtins.abs,
    "round": builtins.round,
}


def torch_or_python(name: str, torch_function: Callable[..., Any]) -> Callable[..., Any]:
    """`sum`, `min`, `max`, `abs`, `round`: torch's function when the first argument is a tensor
    (or the arguments are all keywords, `sum(input=x)`), Python's builtin otherwise, so
    `sum(losses)` adds a list of tensors and `max(2, 3)` is 3."""
    python_function = _PYTHON_FALLBACK[name]

    def call(*args: Any, **kwargs: Any) -> Any:
        if (args and isinstance(args[0], Tensor)) or (not args and kwargs):
            return torch_function(*args, **kwargs)
        return python_function(*args, **kwargs)

    call.__name__ = name
    call.__wrapped__ = torch_function  # type: ignore[attr-defined]  (its signature, for flags)
    return call
