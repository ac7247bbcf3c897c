"""The language's non-tensor values and how Python's print shows each PyTorch object."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradsh.engine.dtypes import DType
from gradsh.engine.pytypes import Device, Size
from gradsh.engine.tensor import Node, RemovableHandle, Tensor


@dataclass(frozen=True)
class Module:
    """A namespace such as `torch`, `torch.nn.functional` (`F`) or `torch.autograd`.

    Every builtin is reachable through every namespace, so pasted PyTorch reads naturally
    (`torch.exp`, `F.relu`, `torch.autograd.grad`); `children` adds the sub-namespaces.
    """

    name: str
    children: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


@dataclass(frozen=True)
class BuiltinFunction:
    """A builtin bound to its implementation, printed like PyTorch's builtins."""

    name: str
    call: Callable[..., Any]
    accepts_grad_flag: bool = False
    python: bool = False  # Python's own builtin (print, len), not a torch function
    # What `torch.<name>` is when the bare name means more (`sum` of a list is Python's sum).
    torch_call: Callable[..., Any] | None = None
    defined_in_python: bool = False  # PyTorch's is a Python function (table.PYTHON_DEFINED)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(*args, **kwargs)

    def __repr__(self) -> str:
        if self.python:
            if self.name in ("range", "list", "tuple", "zip", "enumerate"):
                return f"<class '{self.name}'>"
            return f"<built-in function {self.name}>"
        if self.defined_in_python:
            return f"<function {self.name} at {id(self):#x}>"
        return f"<built-in method {self.name} of type object at {id(self):#x}>"


@dataclass(frozen=True)
class BoundMethod:
    """`x.exp` before it is called."""

    owner: Any
    name: str
    call: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(*args, **kwargs)

    def __repr__(self) -> str:
        kind = "Tensor" if isinstance(self.owner, Tensor) else type(self.owner).__name__
        return f"<built-in method {self.name} of {kind} object at {id(self.owner):#x}>"


@dataclass
class UserFunction:
    """A lambda `g -> g * 2`: parameters, body and the interpreter that evaluates it."""

    params: tuple[str, ...]
    body: Any
    invoke: Callable[[UserFunction, tuple[Any, ...]], Any]

    def __call__(self, *args: Any) -> Any:
        return self.invoke(self, args)

    def __repr__(self) -> str:
        return f"<function <lambda> at {id(self):#x}>"


def py_str(value: Any) -> str:
    """What Python's print shows for the same PyTorch object."""
    if isinstance(value, (str, Device, np.ndarray, np.generic, np.dtype)):
        return str(value)
    return py_repr(value)


def py_repr(value: Any, _open: frozenset[int] = frozenset()) -> str:
    """Python's repr of the same PyTorch object (strings quoted, containers recursive; a list
    inside itself shows as `[...]`, as in Python). Ints past Python's 4,300-digit limit raise
    Python's ValueError, as `repr` does."""
    if value is None or isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (Tensor, DType, Size, Device, Node, Module, BuiltinFunction,
                          BoundMethod, UserFunction)):
        return repr(value)
    if isinstance(value, (tuple, list)) and id(value) in _open:
        return "[...]" if isinstance(value, list) else "(...)"
    inner = _open | {id(value)}
    kind = type(value)
    if isinstance(value, (tuple, list)) and kind not in (tuple, list) and (
            kind.__module__ != "torch.return_types"):
        return repr(value)  # a subclass with its own repr (load_state_dict's _IncompatibleKeys)
    if isinstance(value, tuple) and kind.__module__ == "torch.return_types":
        fields = ",\n".join(f"{k}={py_repr(getattr(value, k), inner)}"
                            for k in kind.__match_args__)  # type: ignore[attr-defined]
        return f"torch.return_types.{type(value).__name__}(\n{fields})"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({py_repr(value[0], inner)},)"
        return "(" + ", ".join(py_repr(v, inner) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(py_repr(v, inner) for v in value) + "]"
    if isinstance(value, RemovableHandle):
        return f"<torch.utils.hooks.RemovableHandle object at {id(value):#x}>"
    return repr(value)


def kind_of(value: Any) -> str:
    """A short type name for messages and the JSON trace (`optimizer`, `float`, `grad_fn`)."""
    if isinstance(value, Tensor):
        return "tensor"
    if isinstance(value, Node):
        return "grad_fn"
    if isinstance(value, DType):
        return "dtype"
    if isinstance(value, Device):
        return "device"
    if isinstance(value, Size):
        return "size"
    if isinstance(value, (BuiltinFunction, BoundMethod, UserFunction)):
        return "function"
    optim = sys.modules.get("gradsh.torch.optim")  # loaded once a script makes an optimizer
    if optim is not None and isinstance(value, optim.Optimizer):
        return "optimizer"
    name = type(value).__name__
    return "None" if name == "NoneType" else name


def safe_repr(value: Any) -> str:
    """py_repr, or a short description where the repr itself fails: a table or trace never
    ends a run (an int past Python's digit limit, a list nested too deep, a broken object)."""
    try:
        return py_repr(value)
    except ValueError:
        if isinstance(value, int):
            digits = int(value.bit_length() * 0.30102999566398120) + 1
            return f"<int of about {digits} digits>"
        return f"<{type(value).__name__} object>"
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to show>"
    except Exception as err:  # noqa: BLE001  (the user's object's own __repr__ failed)
        return f"<{type(value).__name__} object (its repr raised {type(err).__name__})>"
