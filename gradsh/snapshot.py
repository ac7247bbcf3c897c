"""Engine state -> plain data: the only place device arrays are copied to the host for display.

A snapshot reads every variable without side effects: `.grad` is read without the non-leaf
warning, nothing is computed. Renderers and the JSON trace read snapshots, never tensors.
"""

from __future__ import annotations

import math
import sys
from types import ModuleType
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine import backend
from gradsh.engine.dtypes import DType, is_float_array_dtype
from gradsh.engine.limits import reserve
from gradsh.engine.tensor import Tensor
from gradsh.values import kind_of, safe_repr


@dataclass(frozen=True)
class TensorState:
    name: str
    value: np.ndarray
    dtype: DType
    device: str
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None
    grad: np.ndarray | None
    grad_dtype: DType | None
    retains_grad: bool

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)


@dataclass(frozen=True)
class OtherState:
    """A non-tensor variable: an optimizer, a number, a grad_fn, a lambda..."""

    name: str
    kind: str
    repr: str


VarState = TensorState | OtherState


# Values up to this many elements are copied into a snapshot; larger ones are read through a
# read-only view, so a step never doubles the memory its tensors take (what shows of them is a
# summary, made before the next statement runs).
COPIED_UP_TO = 4096


def to_host(array: Any) -> np.ndarray:
    """The values of an engine array on the host: a copy when small, else a read-only view (a
    CuPy array is copied over by the backend)."""
    host = backend.to_host(array)
    if host is not array:
        return host
    if host.size <= COPIED_UP_TO:
        return host.copy()
    view = host.view()
    view.flags.writeable = False
    return view


def take(env: dict[str, Any], cache: StateCache | None = None) -> list[VarState]:
    """Every variable in definition order. A torch.nn module shows as its parameters and
    buffers under qualified names (`model.0.weight`); Python's own entries of a namespace the
    shell shares with Python code (`__builtins__`, imported modules) are not variables.

    With a `cache` (one per run), a small tensor that has not changed since the last snapshot
    keeps the state taken then (the same object), so that a step costs little per unchanged
    variable and renderers can keep what they made of it."""
    states: list[VarState] = []
    for name, value in env.items():
        if isinstance(value, Tensor):
            states.append(tensor_state(name, value) if cache is None else cache.state(name, value))
        elif name.startswith("__") or isinstance(value, ModuleType):
            continue
        elif is_nn_module(value):
            states.extend(tensor_state(qualified, t)
                          for qualified, t in module_tensors(name, value))
        else:
            states.append(OtherState(name, kind_of(value), safe_repr(value)))
    return states



def tensor_env(namespace: dict[str, Any]) -> dict[str, Any]:
    """The tensors a namespace holds by name: every tensor variable, and every parameter and
    buffer of a module held in a variable, under its qualified name (`model.0.weight`); what
    the table shows, and how `graph` and `explain` name tensors."""
    env: dict[str, Any] = {}
    for name, value in list(namespace.items()):
        if isinstance(value, Tensor):
            env[name] = value
        elif not name.startswith("__") and is_nn_module(value):
            env.update(module_tensors(name, value))
    return env


def is_nn_module(value: Any) -> bool:
    """Whether `value` is a gradsh.torch.nn.Module (looked up only once nn is loaded)."""
    nn = sys.modules.get("gradsh.torch.nn")
    module_cls = getattr(nn, "Module", None) if nn is not None else None
    return module_cls is not None and isinstance(value, module_cls)


def module_tensors(name: str, module: Any) -> list[tuple[str, Tensor]]:
    """A module's parameters, then its buffers, named `name.qualified.name`; nothing for a
    module too broken to list them (one the user is still writing)."""
    try:
        found = [(f"{name}.{q}", p) for q, p in module.named_parameters()]
        found += [(f"{name}.{q}", b) for q, b in module.named_buffers()]
    except Exception:  # noqa: BLE001  (the user's half-built module: show what the rest is)
        return []
    return [(n, t) for n, t in found if isinstance(t, Tensor)]


def tensor_state(name: str, t: Tensor) -> TensorState:
    grad = t.peek_grad()
    fn = t.grad_fn_name()
    return TensorState(
        name=name,
        value=to_host(t._data),
        dtype=t.dtype,
        device=t.device,
        requires_grad=t.requires_grad,
        is_leaf=fn is None,
        grad_fn=fn,
        grad=to_host(grad._data) if grad is not None else None,
        grad_dtype=grad.dtype if grad is not None else None,
        retains_grad=t.retains_grad,
    )


class StateCache:
    """The states of the small tensors a run's last snapshot took, to reuse while unchanged.

    An entry holds what the state was made from (the tensor, its array, its grad, its grad_fn)
    and their contents' bytes, which also catch a change through `.data` (PyTorch's version
    counter misses those). Views and large tensors are snapshotted afresh each time."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Any, ...]] = {}

    def state(self, name: str, t: Tensor) -> TensorState:
        entry = self._entries.get(name)
        data = t._data
        if entry is not None and entry[0] is t and entry[1] is data:  # the common case, flat
            grad, fn = t._grad, t._grad_fn
            if (entry[2] is grad and entry[3] is fn and entry[5] == t._requires_grad
                    and (fn is None or entry[4] is fn.retain_grad_ref)
                    and (grad is None or entry[7] is grad._data)
                    and entry[6] == (data.tobytes() if grad is None
                                     else data.tobytes() + grad._data.tobytes())):
                return entry[8]
        return self._refresh(name, t)

    def _refresh(self, name: str, t: Tensor) -> TensorState:
        data, grad, fn = t._data, t._grad, t._grad_fn
        state = tensor_state(name, t)
        if (t._base is not None or data.__class__ is not np.ndarray or data.size > COPIED_UP_TO
                or (grad is not None and (grad._data.__class__ is not np.ndarray
                                          or grad._data.size > COPIED_UP_TO))):
            self._entries.pop(name, None)
            return state
        content = data.tobytes() if grad is None else data.tobytes() + grad._data.tobytes()
        retained = fn.retain_grad_ref if fn is not None else None
        self._entries[name] = (t, data, grad, fn, retained, t._requires_grad, content,
                               None if grad is None else grad._data, state)
        return state

    def forget_others(self, names: Any) -> None:
        """Drop the entries of variables that are gone (`names`: those still there)."""
        for name in self._entries.keys() - set(names):
            del self._entries[name]


def json_number(x: Any) -> Any:
    """A JSON-safe scalar: non-finite floats as the strings "nan", "inf", "-inf"."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    value = float(x)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


# The JSON trace summarises a value of more elements than this as PyTorch's print does (the
# first and last EDGE_ITEMS along each dimension, "..." between); `--full-values` gives all.
JSON_FULL_UP_TO = 1000
EDGE_ITEMS = 3
JSON_MAX_SUMMARY = 10_000  # numbers in a summary, whatever the number of dimensions
JSON_BYTES_PER_NUMBER = 48  # a number's Python object, its list slot and its text, at most


def json_array(array: np.ndarray, summarise: bool = False) -> Any:
    """Nested lists of JSON numbers (a bare number for 0-d), booleans for bool tensors; with
    `summarise`, a value over JSON_FULL_UP_TO elements has "..." where PyTorch's print has it
    (or, with many dimensions of few entries each, is summarised flat)."""
    if summarise and array.size > JSON_FULL_UP_TO:
        kept = 1
        for n in array.shape:
            kept *= min(n, 2 * EDGE_ITEMS)
        if kept > JSON_MAX_SUMMARY:
            array = array.reshape(-1)
        return _summary(array)
    reserve(array.size * JSON_BYTES_PER_NUMBER, "the JSON text of a value")
    if array.dtype == np.bool_:
        return array.tolist()
    if array.ndim == 0:
        return json_number(array.item())
    if is_float_array_dtype(array.dtype) and not np.isfinite(array).all():
        return _map_nested(array.tolist(), json_number)
    return array.tolist()


def _summary(array: np.ndarray) -> Any:
    """`array` as nested lists with "..." in each dimension longer than 2 * EDGE_ITEMS (its
    depth is the number of dimensions, at most 64)."""
    if array.ndim == 0:
        return json_number(array.item())
    n = array.shape[0]
    if n <= 2 * EDGE_ITEMS:
        return [_summary(array[i]) for i in range(n)]
    return ([_summary(array[i]) for i in range(EDGE_ITEMS)] + ["..."]
            + [_summary(array[i]) for i in range(n - EDGE_ITEMS, n)])


def _map_nested(items: Any, fn: Any) -> Any:
    if isinstance(items, list):
        return [_map_nested(x, fn) for x in items]
    return fn(items)


def json_state(state: VarState, summarise: bool = False) -> dict[str, Any]:
    """A variable as the JSON trace shows it (values in full unless `summarise`)."""
    if isinstance(state, OtherState):
        return {"kind": state.kind, "repr": state.repr}
    return {
        "value": json_array(state.value, summarise),
        "shape": list(state.shape),
        "dtype": state.dtype.name,
        "device": state.device,
        "requires_grad": state.requires_grad,
        "is_leaf": state.is_leaf,
        "grad_fn": state.grad_fn,
        "grad": json_array(state.grad, summarise) if state.grad is not None else None,
        "retains_grad": state.retains_grad,
    }
