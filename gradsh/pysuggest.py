"""Python 3.11's "Did you mean: 'x'?" after a NameError or AttributeError.

Python 3.11 adds the suggestion when its C-level excepthook prints the error
(Python/suggestions.c); the traceback module, which gradsh prints tracebacks with, only does
from 3.12 on. This is suggestions.c's algorithm: a Levenshtein distance on the UTF-8 bytes
(a case change costs 1, any other edit 2), candidates that need at most a third of their
characters changed, none when there are 750 candidates or more.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["suggestion"]

_MAX_CANDIDATES = 750
_MAX_STRING_SIZE = 40
_MOVE_COST = 2
_CASE_COST = 1


def _substitution_cost(a: int, b: int) -> int:
    if (a & 31) != (b & 31):
        return _MOVE_COST
    if a == b:
        return 0
    lower_a = a + 32 if 65 <= a <= 90 else a
    lower_b = b + 32 if 65 <= b <= 90 else b
    return _CASE_COST if lower_a == lower_b else _MOVE_COST


def _distance(a: bytes, b: bytes, max_cost: int) -> int:
    """suggestions.c's levenshtein_distance: more than max_cost as soon as it must be."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE_COST
    if len(a) > _MAX_STRING_SIZE or len(b) > _MAX_STRING_SIZE:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > max_cost:
        return max_cost + 1
    row = [(i + 1) * _MOVE_COST for i in range(len(a))]
    result = 0
    for b_index, code in enumerate(b):
        distance = result = b_index * _MOVE_COST
        minimum = sys.maxsize
        for index, char in enumerate(a):
            substitute = distance + _substitution_cost(code, char)
            distance = row[index]
            result = min(min(result, distance) + _MOVE_COST, substitute)
            row[index] = result
            minimum = min(minimum, result)
        if minimum > max_cost:
            return max_cost + 1
    return result


def _closest(candidates: list[Any], name: str) -> str | None:
    if len(candidates) >= _MAX_CANDIDATES:
        return None
    wrong = name.encode("utf-8", "surrogatepass")
    best: str | None = None
    best_distance = sys.maxsize
    for item in candidates:
        if not isinstance(item, str) or item == name:
            continue
        encoded = item.encode("utf-8", "surrogatepass")
        max_distance = (len(wrong) + len(encoded) + 3) * _MOVE_COST // 6
        max_distance = min(max_distance, best_distance - 1)
        current = _distance(wrong, encoded, max_distance)
        if current > max_distance:
            continue
        if best is None or current < best_distance:
            best, best_distance = item, current
    return best


def suggestion(exc: BaseException) -> str | None:
    """The name Python 3.11 would suggest for this NameError or AttributeError, if any."""
    name = getattr(exc, "name", None)
    if not isinstance(name, str):
        return None
    try:
        if isinstance(exc, AttributeError):
            return _closest(list(dir(exc.obj)), name)
        if isinstance(exc, NameError):
            tb = exc.__traceback__
            if tb is None:
                return None
            while tb.tb_next is not None:
                tb = tb.tb_next
            frame = tb.tb_frame
            builtins = frame.f_builtins
            for scope in (frame.f_code.co_varnames, frame.f_globals, builtins):
                found = _closest(list(scope), name)
                if found is not None:
                    return found
    except Exception:  # noqa: BLE001  (as Python: no suggestion when dir() or a lookup fails)
        return None
    return None
