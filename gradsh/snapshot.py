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
from gradsh.engine.dtypes import DType
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


def to_host(array: Any) -> np.ndarray:
    """A host copy of an engine array (a CuPy array is copied over by the backend)."""
    host = backend.to_host(array)
    return host.copy() if host is array else host


def take(env: dict[str, Any]) -> list[VarState]:
    """Every variable in definition order. A torch.nn module shows as its parameters and
    buffers under qualified names (`model.0.weight`); Python's own entries of a namespace the
    shell shares with Python code (`__builtins__`, imported modules) are not variables."""
    states: list[VarState] = []
    for name, value in env.items():
        if isinstance(value, Tensor):
            states.append(tensor_state(name, value))
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


def json_array(array: np.ndarray) -> Any:
    """Nested lists of JSON numbers (a bare number for 0-d), booleans for bool tensors."""
    if array.dtype == np.bool_:
        return array.tolist()
    if array.ndim == 0:
        return json_number(array.item())
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        return _map_nested(array.tolist(), json_number)
    return array.tolist()


def _map_nested(items: Any, fn: Any) -> Any:
    if isinstance(items, list):
        return [_map_nested(x, fn) for x in items]
    return fn(items)


def json_state(state: VarState) -> dict[str, Any]:
    if isinstance(state, OtherState):
        return {"kind": state.kind, "repr": state.repr}
    return {
        "value": json_array(state.value),
        "shape": list(state.shape),
        "dtype": state.dtype.name,
        "device": state.device,
        "requires_grad": state.requires_grad,
        "is_leaf": state.is_leaf,
        "grad_fn": state.grad_fn,
        "grad": json_array(state.grad) if state.grad is not None else None,
        "retains_grad": state.retains_grad,
    }
