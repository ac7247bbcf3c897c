"""Grad mode, origins, anomaly mode, saved-tensor hooks and node sequence numbers: the switches
and counters every other part of the autograd core reads."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from contextlib import ContextDecorator
from typing import Any

# ---------------------------------------------------------------------------------------------
# Grad mode
# ---------------------------------------------------------------------------------------------


class _GradMode:
    enabled: bool = True


def is_grad_enabled() -> bool:
    return _GradMode.enabled


class set_grad_enabled(ContextDecorator):  # noqa: N801  (a function's name before)
    """Grad mode `mode` inside the block (or the decorated function), the previous one after.

    A class rather than a @contextmanager generator: backward, the optimizers' steps and many
    ops enter one, and a generator's frame costs several times as much to enter and leave."""

    __slots__ = ("mode", "previous")

    def __init__(self, mode: bool) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.previous = _GradMode.enabled
        _GradMode.enabled = bool(self.mode)

    def __exit__(self, *exc: object) -> None:
        _GradMode.enabled = self.previous


def no_grad() -> Any:
    return set_grad_enabled(False)


def enable_grad() -> Any:
    return set_grad_enabled(True)


# ---------------------------------------------------------------------------------------------
# Origins
# ---------------------------------------------------------------------------------------------


class _Origin:
    """Where the engine is being driven from: an opaque value its caller sets (gradsh's
    interpreter sets the statement it runs). Saved tensors, in-place changes and freed buffers
    record it, so that an error can say where its cause happened; the engine never looks inside.
    """

    value: Any = None
    # A front end that knows the running statement only from where its code is (gradsh's
    # Python runner, running a program compiled whole) sets `live` instead: what it returns
    # when a record is made is the origin.
    live: Callable[[], Any] | None = None


def set_origin(origin: Any) -> None:
    _Origin.value = origin


def current_origin() -> Any:
    """The origin a record made now keeps (see _Origin)."""
    live = _Origin.live
    return _Origin.value if live is None else live()


# ---------------------------------------------------------------------------------------------
# Anomaly mode and saved-tensor hooks (torch.autograd.set_detect_anomaly, saved_tensors_hooks)
# ---------------------------------------------------------------------------------------------


class Anomaly:
    """Anomaly detection: while enabled, every node records where its forward ran
    (`metadata["traceback_"]`, from `trace()`: the origin unless a front end installs a Python
    stack), a failing backward warns with it, and a NaN gradient raises (when check_nan)."""

    enabled: bool = False
    check_nan: bool = True
    trace: Callable[[], Any] = staticmethod(current_origin)  # type: ignore[assignment]


class SavedHooks:
    """The stack of (pack_hook, unpack_hook) pairs of saved_tensors_hooks: the innermost packs
    every tensor saved for backward while it is active. `used` stays set once a hook packed
    something, so that backward knows to unpack each saved tensor once per node."""

    stack: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []
    used: bool = False


# ---------------------------------------------------------------------------------------------
# Sequence numbers: the order nodes were made (backward runs the latest first)
# ---------------------------------------------------------------------------------------------

_sequence = itertools.count()
_LAST = 2**63  # AccumulateGrad runs as soon as it is ready, as PyTorch's max sequence_nr does
