"""Forward-mode AD's state: the open dual level and each dual tensor's tangent.

A tangent belongs to a tensor only while the level it was made at is open (PyTorch has one
level, 0). Tangents are kept here, by the tensor's id with a weak reference to the tensor,
rather than on every Tensor: most programs never make a dual tensor. gradsh.torch.autograd.
forward_ad opens and closes the level and computes the tangents of results.
"""

from __future__ import annotations

import weakref
from typing import Any


class _State:
    level: int | None = None  # the open dual level, if any
    # while a tangent is being computed (or a custom Function's forward runs) the operations
    # it performs make no tangents of their own
    suspended = 0


state = _State
_TANGENTS: dict[int, tuple[weakref.ref[Any], Any]] = {}


def tangent_of(t: Any) -> Any:
    """The tangent of `t` at the open level, or None."""
    if not _TANGENTS:
        return None
    entry = _TANGENTS.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def set_tangent(t: Any, tangent: Any) -> None:
    key = id(t)
    _TANGENTS[key] = (weakref.ref(t, lambda _ref, key=key: _forget(key, _ref)), tangent)


def _forget(key: int, ref: weakref.ref[Any]) -> None:
    entry = _TANGENTS.get(key)
    if entry is not None and entry[0] is ref:
        del _TANGENTS[key]


def clear() -> None:
    """Forget every tangent (the level closed)."""
    _TANGENTS.clear()


def any_tangents() -> bool:
    return bool(_TANGENTS)
