"""Undoing a statement gradsh itself stopped (Ctrl-C, --timeout, a memory limit, an internal
error): the session state copied before each statement and put back, and which errors undo.

PyTorch's own errors never undo anything: what ran before the raise keeps its effects, as in
PyTorch. The engine's UndoLog (gradsh.engine.undo) holds what is too large to copy up front
(storage written in place, buffers freed by backward, the `.grad`s backward set); this module
holds the cheap rest: the variables, each reachable tensor's autograd attributes and hooks, the
contents of reachable lists, dicts and optimizers, the random stream and the defaults.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gradsh.engine import dtypes, ops
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import LimitExceeded, TorchError
from gradsh.engine.tensor import Tensor
from gradsh.errors import GradshError
from gradsh.snapshot import module_tensors

if TYPE_CHECKING:  # (gradsh.engine.random is imported when a statement first runs)
    from gradsh.engine.random import GeneratorCheckpoint

__all__ = ["SessionState", "is_nn_module", "is_instance", "undoes", "uninterrupted"]


def undoes(error: BaseException) -> bool:
    """Whether a statement that raised `error` is undone: gradsh's own stops and its bugs are;
    PyTorch's errors and the script's own Python errors are not (PyTorch leaves their state)."""
    if isinstance(error, LimitExceeded | MemoryError):
        return True
    if isinstance(error, GradshError):
        return error.own_stop
    if isinstance(error, TorchError | RecursionError):
        return False
    if isinstance(error, Exception):
        # A Python error raised by gradsh.torch code a script called (a module given a string
        # for a size) is the script's error, as it would be PyTorch's; anything else is a bug.
        return not _raised_in_torch_api(error)
    return True  # KeyboardInterrupt, --timeout's ScriptTimeout


def _raised_in_torch_api(error: BaseException) -> bool:
    tb = error.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_globals.get("__name__", "")
        tb = tb.tb_next
    return isinstance(last, str) and last.startswith("gradsh.torch.")


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Let no second Ctrl-C (or the --timeout alarm) break in while a statement is undone: a
    half-undone statement would leave a state that is neither before nor after it. A second
    Ctrl-C during the undo is dropped (the statement is being undone already); an alarm is
    delivered once the undo is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        pending.append(signum)

    previous = {}
    for signum in (signal.SIGINT, getattr(signal, "SIGALRM", None)):
        if signum is not None:
            previous[signum] = signal.signal(signum, hold)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        alarm = getattr(signal, "SIGALRM", None)
        if alarm in pending and callable(previous.get(alarm)):
            previous[alarm](alarm, sys._getframe())  # type: ignore[operator]


@dataclass
class SessionState:
    """The cheap part of the session's state, copied before each statement."""

    env: dict[str, Any]
    tensors: list[tuple[Tensor, tuple[Any, ...]]]
    containers: list[tuple[Any, Any]]
    rng: GeneratorCheckpoint  # the random stream, copied only if the statement draws
    dtype: DType
    device: str

    @staticmethod
    def take(env: dict[str, Any]) -> SessionState:
        from gradsh.engine.random import default_generator

        tensors, containers = _reachable(env)
        return SessionState(
            env=dict(env),
            tensors=[(t, _tensor_attributes(t)) for t in tensors],
            containers=[(c, _contents(c)) for c in containers],
            rng=default_generator.checkpoint(),
            dtype=dtypes.default_float(),
            device=ops.DefaultDevice.value,
        )

    def protected_arrays(self) -> set[int]:
        """The ids of the arrays the session's tensors held when the state was taken (and of the
        arrays those view): the storage a statement's in-place writes must be undone in
        (UndoLog.protected)."""
        ids: set[int] = set()
        for _, attributes in self.tensors:
            array = attributes[0]  # the tensor's array when the state was taken
            while array is not None and id(array) not in ids:
                ids.add(id(array))
                array = getattr(array, "base", None)
        return ids

    def restore(self, env: dict[str, Any]) -> None:
        env.clear()
        env.update(self.env)
        for container, contents in self.containers:
            _put_back(container, contents)
        for t, attributes in self.tensors:
            _restore_tensor_attributes(t, attributes)
        self.rng.restore()
        dtypes.set_default_dtype(self.dtype)
        ops.DefaultDevice.value = self.device


def reachable_tensors(env: dict[str, Any]) -> list[Tensor]:
    """Tensors a user can reach from a variable: the variables, tensors in lists, tuples and
    dicts, an optimizer's parameters and state, a module's parameters and buffers, and their
    .grad tensors."""
    return _reachable(env)[0]


def _reachable(env: dict[str, Any]) -> tuple[list[Tensor], list[Any]]:
    """(tensors, mutable containers) reachable from the variables, each once."""
    found: dict[int, Tensor] = {}
    containers: list[Any] = []
    seen: set[int] = set()  # containers already walked (a list may hold itself)
    pending: list[Any] = list(env.values())
    while pending:
        value = pending.pop()
        if isinstance(value, Tensor):
            if id(value) not in found:
                found[id(value)] = value
                if value._grad is not None:
                    pending.append(value._grad)
            continue
        if id(value) in seen:
            continue
        if isinstance(value, list | dict):
            seen.add(id(value))
            containers.append(value)
            pending.extend(value.values() if isinstance(value, dict) else value)
        elif isinstance(value, tuple):
            seen.add(id(value))
            pending.extend(value)
        elif hasattr(value, "param_groups") and isinstance(value.param_groups, list):
            seen.add(id(value))  # an optimizer: its groups (lr ...) and state (momentum ...)
            pending.append(value.param_groups)
            state = getattr(value, "state", None)
            if isinstance(state, dict):
                pending.append(state)
        elif is_nn_module(value):
            seen.add(id(value))
            pending.extend(t for _, t in module_tensors("", value))
    return list(found.values()), containers


def _contents(container: Any) -> Any:
    return dict(container) if isinstance(container, dict) else list(container)


def _put_back(container: Any, contents: Any) -> None:
    if isinstance(container, dict):
        container.clear()
        container.update(contents)
    else:
        container[:] = contents


def _tensor_attributes(t: Tensor) -> tuple[Any, ...]:
    fn = t._grad_fn
    node = None
    if fn is not None:
        hooks = fn.pre_hooks
        node = (fn, fn.retain_grad_ref, list(hooks) if isinstance(hooks, list) else None)
    return (t._data, t._requires_grad, fn, t._grad, t._view_version, t.device,
            list(t._hooks) if t._hooks is not None else None, node)


def _restore_tensor_attributes(t: Tensor, attributes: tuple[Any, ...]) -> None:
    data, requires_grad, fn, grad, view_version, device, hooks, node = attributes
    t._data, t._requires_grad, t._grad_fn, t._grad = data, requires_grad, fn, grad
    t._view_version, t.device = view_version, device
    if hooks is None:
        t._hooks = None
    elif t._hooks is not None:
        t._hooks[:] = hooks  # hooks added by the statement go, hooks it removed come back
    else:
        t._hooks = hooks
    if node is not None:
        fn, retain_ref, pre_hooks = node
        fn.retain_grad_ref = retain_ref
        if pre_hooks is None:
            if isinstance(fn.pre_hooks, list) and "pre_hooks" in getattr(fn, "__dict__", {}):
                fn.pre_hooks = ()
        elif isinstance(fn.pre_hooks, list):
            fn.pre_hooks[:] = pre_hooks


def is_nn_module(obj: Any) -> bool:
    return is_instance(obj, "gradsh.torch.nn", "Module")


def is_instance(obj: Any, module: str, cls: str) -> bool:
    """isinstance(obj, module.cls), without importing the module (nothing of gradsh.torch is
    loaded before a script uses it)."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(obj, getattr(loaded, cls))
