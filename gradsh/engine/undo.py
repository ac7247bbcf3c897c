"""The undo log: what a failed step changed in engine state it cannot rebuild, so that its
caller can put it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from gradsh.engine import buffers, limits
from gradsh.engine.grad_mode import _LAST, _sequence

if TYPE_CHECKING:  # (type names only: these modules sit above this one)
    from gradsh.engine.node import CopySlices, Node
    from gradsh.engine.saved_variable import SavedTensor
    from gradsh.engine.variable import Tensor, VersionCounter


class UndoLog:
    """Changes the engine made to state it cannot rebuild: storage written in place (the old
    contents, copied once per storage) and saved tensors freed by backward (kept alive until
    the log is dropped) and the `.grad` backward sets. The interpreter opens one per statement;
    `rollback` makes a statement gradsh stopped (Ctrl-C, --timeout, a limit) change nothing
    there. Attribute changes (`.grad`, `grad_fn`, ...) are cheap to
    snapshot, so the caller records those itself.

    Only nodes older than the log need their freed tensors back: a node the logged step made
    is unreachable once the step is undone. So a `repeat` loop's backward frees each
    iteration's buffers at once, as PyTorch does, instead of holding them all to the end.
    """

    def __init__(self) -> None:
        self._storage: dict[int, tuple[Any, Any, VersionCounter, int]] = {}
        self._freed: list[tuple[Any, ...]] = []
        self._grads: dict[int, tuple[Tensor, Any]] = {}
        self.first_node = next(_sequence)  # nodes numbered from here on are the step's own
        # The ids of the arrays that existed before the step (and the arrays they view), when
        # the caller knows them: a write into any other array is into storage the step made,
        # which an undo discards anyway, so it is not copied (a loop that makes and changes a
        # large tensor on each pass would otherwise hold a copy per pass). None: copy all. The
        # caller may give a function that makes the set, called at the first write only (most
        # statements write nothing in place).
        self.protected: set[int] | Callable[[], set[int]] | None = None

    def predates(self, node: Node) -> bool:
        """Whether `node` existed before the log was opened (and so must be restorable)."""
        return getattr(node, "sequence_nr", _LAST) < self.first_node

    def record_write(self, t: Tensor) -> None:
        data = t._data
        key = id(data)
        if key not in self._storage and self._predates(data):
            # the copy counts against --max-memory like any allocation (refused: undone)
            limits.reserve(data.nbytes, "the undo log's copy of a tensor changed in place")
            self._storage[key] = (data, _copy(data), t._version_counter, t._version_value())

    def _predates(self, data: Any) -> bool:
        """Whether `data` is (or views) an array that existed before the step."""
        protected = self.protected
        if protected is None:
            return True
        if callable(protected):
            protected = self.protected = protected()
        array = data
        while array is not None:
            if id(array) in protected:
                return True
            array = getattr(array, "base", None)
        return False

    def record_grad(self, t: Tensor) -> None:
        """`t.grad` is about to be set by backward (a leaf no variable names any more too)."""
        if id(t) not in self._grads:
            self._grads[id(t)] = (t, t._grad)

    def record_release(self, saved: SavedTensor) -> None:
        self._freed.append(("release", saved, saved._tensor, saved._data, saved.view_history,
                            saved.released, getattr(saved, "freed_origin", None)))

    def record_drop(self, node: CopySlices) -> None:
        self._freed.append(("drop", node, node.fn))

    def rollback(self) -> None:
        for data, old, counter, version in reversed(list(self._storage.values())):
            data[...] = old
            counter.value = version
        for entry in reversed(self._freed):
            if entry[0] == "drop":
                entry[1].fn = entry[2]
                continue
            _, saved, tensor, data, history, released, origin = entry
            saved._tensor, saved._data, saved.view_history = tensor, data, history
            saved.released = released
            saved.freed_origin = origin
        for t, grad in self._grads.values():
            t._grad = grad
        self._storage.clear()
        self._freed.clear()
        self._grads.clear()


def _copy(data: Any) -> Any:
    """data.copy(); a large C-contiguous array into one of the pool's (gradsh.engine.buffers):
    a statement's first backward then copies its .grad into the forward's freed results."""
    if data.__class__ is np.ndarray and data.flags.c_contiguous:
        copy = buffers.empty(data.shape, data.dtype)
        np.copyto(copy, data)
        return copy
    return data.copy()


class _Undo:
    log: UndoLog | None = None


class undo_log:  # noqa: N801  (a context manager, named as one)
    """Record undoable engine changes while the block runs (see UndoLog). A class rather than a
    generator: the interpreter opens one for every statement."""

    __slots__ = ("previous",)

    def __enter__(self) -> UndoLog:
        self.previous = _Undo.log
        log = _Undo.log = UndoLog()
        return log

    def __exit__(self, *exc: object) -> None:
        _Undo.log = self.previous
