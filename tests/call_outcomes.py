"""What each of a list of calls gives: its repr, or its error's type and text; for comparing a
list of right and wrong calls between PyTorch and gradsh."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def outcomes(calls: Iterable[Callable[[], Any]]) -> list[tuple[str, str]]:
    out = []
    for call in calls:
        try:
            out.append(("ok", repr(call())))
        except Exception as e:  # noqa: BLE001  (the error is the outcome compared)
            out.append((type(e).__name__, str(e)))
    return out
