"""Hints for typos: the names nearest to one that does not exist, among names of the same kind.

Callers pass only candidates that could stand where the typo stands (methods for `x.f()`, a
function's own keywords for `f(k=...)`, subcommands for `gradsh tset`), so a hint never
suggests something that would fail for another reason. Nearness is the edit distance with
swapped neighbours counting once (`gard` is one step from `grad`), case ignored.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from typing import Any

from gradsh.errors import GradshError, Pos

__all__ = ["closest", "did_you_mean", "distance", "keyword_hint", "module_attribute_hint",
           "name_hint", "squashed", "tensor_attribute_hint", "TypoError", "keyword_hint_for"]


def distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _limit(name: str) -> int:
    """How many edits still read as a typo: one in a short name, more in a long one."""
    return 1 if len(name) <= 4 else 2 if len(name) <= 9 else 3


def closest(name: str, candidates: Iterable[str], most: int = 3) -> list[str]:
    """The candidates nearest to `name` within a typo's distance, nearest first (case counts
    only between equally near ones: `tensr` is nearer `tensor` than `Tensor`)."""
    key = name.lower()
    scored = sorted({(distance(key, c.lower()), distance(name, c), c)
                     for c in candidates if c != name})
    found = [(d, exact, c) for d, exact, c in scored if d <= _limit(name)]
    if not found:
        return []
    return [c for d, exact, c in found if (d, exact) == found[0][:2]][:most]


def did_you_mean(name: str, candidates: Iterable[str], form: str = "'{}'") -> str | None:
    """`hint: did you mean 'grad'?` (each suggestion written as `form`), or None."""
    found = closest(name, candidates)
    if not found:
        return None
    return "hint: did you mean " + " or ".join(form.format(c) for c in found) + "?"


def squashed(name: str) -> str:
    """A name without case, underscores and a `loss` ending: `CrossEntropyLoss`,
    `cross_entropy` and `crossentropy` are all `crossentropy` (a class and its function)."""
    return name.lower().replace("_", "").removesuffix("loss")


# ---------------------------------------------------------------------------------------------
# The hints the .grad interpreter gives
# ---------------------------------------------------------------------------------------------

_HELP = "`help` in the shell lists every builtin gradsh has (so does docs/builtins.md)"


# Python's builtins a PyTorch user reaches for, and what the .grad language has instead.
PYTHON_BUILTINS = {
    "type": "x.dtype is a tensor's element type",
}


def name_hint(name: str, variables: Iterable[str], functions: Iterable[str],
              called: bool) -> str | None:
    """For `tensr(...)` (called: functions and variables that can be called) or `x + yy`
    (anything with a name)."""
    if name in PYTHON_BUILTINS:
        return f"hint: {name} is Python's, not part of .grad scripts: {PYTHON_BUILTINS[name]}"
    if called:
        return did_you_mean(name, functions) or f"hint: '{name}' is not a builtin; {_HELP}"
    return did_you_mean(name, [*variables, *functions])


def tensor_attribute_hint(name: str, called: bool) -> str:
    """For `a.gard` (attributes and methods) or `a.backwrd()` (methods only)."""
    from gradsh import builtins as table

    candidates = table.METHODS if called else table.METHODS | table.ATTRIBUTES
    return did_you_mean(name, candidates) or f"hint: tensors here have no '{name}'; {_HELP}"


def module_attribute_hint(module: str, name: str, called: bool) -> str:
    """For `torch.tensr(...)`, or `nn.Linear(2, 3)`: a class the .grad language does not have,
    whose function (if any) takes other arguments, so it is named, never offered as a fix."""
    from gradsh import builtins as table

    python = f"Python programs (gradsh FILE.py) have all of {module}"
    torch_names = [b for b, entry in table.FUNCTIONS.items() if entry.python != "only"]
    if name[:1].isupper():
        classes = [b for b, entry in table.FUNCTIONS.items() if entry.kind == "class"]
        found = did_you_mean(name, classes)
        if found:
            return found
        functions = [f for f in torch_names if squashed(f) == squashed(name)]
        if functions:
            entry = table.FUNCTIONS[functions[0]]
            return (f"hint: .grad scripts have no {module}.{name}; the function "
                    f"{entry.signature} does its work on tensors you give it (help "
                    f"{entry.name}); {python}")
        return (f"hint: .grad scripts have no {module}.{name} (help lists the classes they "
                f"have); {python}")
    candidates = torch_names if called else [*torch_names, *table.DTYPE_NAMES]
    return did_you_mean(name, candidates) or f"hint: '{name}' is not a builtin; {_HELP}"


def keyword_hint(function: str, keyword: str, parameters: Iterable[str]) -> str | None:
    """For `backward(retain_grap=True)`: the keyword meant, or the keywords there are."""
    names = [p for p in parameters if not p.startswith("_")]
    if not names:
        return None
    return (did_you_mean(keyword, names, form="{}=")
            or f"hint: {function}() takes the keywords {', '.join(names)}")


class TypoError(GradshError):
    """A name or attribute that does not exist, whose hint depends on whether it is called
    (`a.gard` may mean the attribute grad, `a.gard()` only a method)."""

    def __init__(self, kind: str, message: str, pos: Pos | None,
                 hint_when: Callable[[bool], str | None]) -> None:
        super().__init__(kind, message, pos, hint_when(False))
        self.hint_when = hint_when


_UNEXPECTED_KEYWORD = re.compile(r"got an unexpected keyword argument '(\w+)'")
# PyTorch's overload error lists what it got: `got (int, dtyp=torch.dtype)`.
_GOT_KEYWORDS = re.compile(r"invalid combination of arguments - got \((.*)\)")


def keyword_hint_for(func: Any, message: str) -> str | None:
    """The keyword hint for a TypeError `message` from calling `func` (a builtin or a bound
    method), read from its implementation's signature."""
    target = getattr(func, "call", None)
    if target is None:
        return None
    try:
        signature = inspect.signature(getattr(target, "__wrapped__", target))
    except (TypeError, ValueError):
        return None
    keywords = [p.name for p in signature.parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
    match = _UNEXPECTED_KEYWORD.search(message)
    if match is not None:
        unknown = match.group(1)
    else:
        got = _GOT_KEYWORDS.search(message)
        given = re.findall(r"(\w+)=", got.group(1)) if got is not None else []
        unknown = next((k for k in given if k not in keywords), "")
    if not unknown:
        return None
    return keyword_hint(getattr(func, "name", "function"), unknown, keywords)
