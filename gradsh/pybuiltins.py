"""Python's builtins that a .grad script may call: len, range, list, int ... and the five names
(sum, min, max, abs, round) that mean torch's function on a tensor and Python's on anything else.

They are Python's own functions, so they behave on tensors exactly as they do in a PyTorch
program (`list(x)` gives the rows of x through UnbindBackward0, `sum(losses)` adds with
AddBackward0); only materialising an iterable (`list`, `tuple`) is bounded, so a script cannot
exhaust the machine with `list(range(10**12))`.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Callable, Iterable
from typing import Any

from gradsh.engine import limits
from gradsh.engine.limits import Limit, format_size
from gradsh.engine.tensor import Tensor
from gradsh.errors import GradshError

__all__ = ["PYTHON_ONLY", "CONVERSIONS", "torch_or_python", "checked_mul", "checked_pow"]

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


# The largest integer `**` computes: Python itself takes about a second for 3 million digits,
# and prints at most 4,300 (`print 10**4301` is its ValueError).
MAX_INT_DIGITS = 1_000_000


_REPEATED = (str, list, tuple)  # what `*` repeats


def checked_mul(left: Any, right: Any) -> Any:
    """`left * right`, refusing a repeated str, list or tuple over the memory limit before it
    is built (CPython builds it in one step that nothing can interrupt)."""
    if not isinstance(left, _REPEATED) and not isinstance(right, _REPEATED):
        return operator.mul(left, right)  # (tensors and numbers: nothing to check)
    for seq, count in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(count, int) and count > 1:
            size = len(seq) * count * (1 if isinstance(seq, str) else _BYTES_PER_ITEM)
            items = "characters" if isinstance(seq, str) else "items"
            try:
                limits.reserve(size, f"a {type(seq).__name__} of {len(seq) * count:,} {items}")
            except limits.MemoryLimitError as err:
                raise GradshError("MemoryError", str(err)) from None
    return operator.mul(left, right)


def checked_pow(left: Any, right: Any) -> Any:
    """`left ** right`, refusing an integer of more than MAX_INT_DIGITS digits before
    computing it (`10**10**10` would take hours and gigabytes)."""
    if (isinstance(left, int) and isinstance(right, int) and right > 0
            and abs(left) > 1 and not isinstance(left, bool)):
        digits = math.inf if right.bit_length() > 900 else right * math.log10(abs(left))
        if digits > MAX_INT_DIGITS:
            size = "far more" if math.isinf(digits) else f"about {digits:,.0f}"
            raise GradshError("MemoryError", f"this power would be an integer of {size} digits: "
                              f"gradsh computes integers of at most {MAX_INT_DIGITS:,} digits")
    return operator.pow(left, right)
