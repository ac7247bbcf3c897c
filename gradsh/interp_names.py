"""The names a .grad script reaches: the builtin globals (functions, classes, dtypes, devices,
namespaces) and the attributes of engine objects, each whitelisted by the builtin table."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from gradsh import builtins as table
from gradsh import suggest
from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Node, RemovableHandle, Tensor
from gradsh.errors import GradshError
from gradsh.pybuiltins import PYTHON_ONLY, torch_or_python
from gradsh.statement_undo import is_instance
from gradsh.values import BoundMethod, BuiltinFunction, Device, Module, Size


# ---------------------------------------------------------------------------------------------
# Attribute access on engine objects (whitelisted from the builtin table)
# ---------------------------------------------------------------------------------------------

_HANDLE_MEMBERS = frozenset({"remove"})
# x.numpy(): what describes the array, never NumPy's files or raw memory (tofile, ctypes)
_NDARRAY_MEMBERS = frozenset({"shape", "ndim", "size", "dtype", "T", "tolist", "item"})
# The classes of gradsh.torch whose members the builtin table lists, by owner name.
_OWNER_CLASSES = (("Module", "gradsh.torch.nn", "Module"),
                  ("Optimizer", "gradsh.torch.optim", "Optimizer"))


def public_members(obj: Any) -> frozenset[str] | None:
    """What a script may read or call on `obj`, a value that is neither a tensor, a node nor a
    namespace: the builtin table's members of its class (an nn module, an optimizer), a hook
    handle's remove(); None for any other object (no attribute of it is reachable). Found once
    per class (`opt.step` and `opt.zero_grad()` ask at every step of a training loop)."""
    members = _MEMBERS_BY_CLASS.get(obj.__class__)
    if members is None:
        members = _public_members(obj)
        if members is not None:  # (what decides it is the class: isinstance, its name)
            _MEMBERS_BY_CLASS[obj.__class__] = members
    return members


_MEMBERS_BY_CLASS: dict[type, frozenset[str]] = {}


def _public_members(obj: Any) -> frozenset[str] | None:
    """public_members' answer for an object of a class not seen before."""
    if isinstance(obj, RemovableHandle) or is_instance(obj, "gradsh.torch.utils.hooks",
                                                         "RemovableHandle"):
        return _HANDLE_MEMBERS
    if type(obj).__name__ == "ndarray":
        return _NDARRAY_MEMBERS
    for owner, module, cls in _OWNER_CLASSES:
        if is_instance(obj, module, cls):
            return table.MEMBERS[owner]
    return None


def _tensor_attribute(t: Tensor, name: str) -> Any:
    if name in table.ATTRIBUTES:
        if name == "shape":
            return Size(t.shape)
        if name == "device":
            return Device(t.device)
        if name == "_version":
            return t._version
        if name == "is_cuda":
            return t.device != "cpu"
        if name in ("T", "mT", "H"):
            return getattr(ops, name)(t)
        return getattr(t, name)
    if name in table.METHODS or name in table.OPERATOR_METHODS:
        method = getattr(t, name, None)
        if method is None:
            raise GradshError("AttributeError", f"'Tensor' object has no attribute '{name}'")
        if name == "size":
            return BoundMethod(t, name, lambda *args, **kw: _as_size(method(*args, **kw)))
        return BoundMethod(t, name, method)
    raise suggest.TypoError("AttributeError", f"'Tensor' object has no attribute '{name}'", None,
                            lambda called: suggest.tensor_attribute_hint(name, called))


def _node_attribute(node: Node, name: str) -> Any:
    if name == "next_functions":
        return node.next_functions
    if name == "name":
        return BoundMethod(node, "name", node.name)
    if name == "metadata":
        return node.metadata
    if name.startswith("_saved_"):
        saved = node.saved_records.get(name[len("_saved_"):])
        if saved is None:
            raise GradshError("AttributeError", f"'{node.node_name}' object has no attribute '{name}'")
        return saved.unpack(node, True)
    if name == "variable" and hasattr(node, "variable"):
        return node.variable  # type: ignore[attr-defined]
    raise GradshError("AttributeError", f"'{node.node_name}' object has no attribute '{name}'")


def _module_attribute(module: Module, name: str, globals_: dict[str, Any]) -> Any:
    full = f"{module.name}.{name}"
    if full in table.MODULES:
        return Module(full, table.MODULES[full])
    if name in _ALIASES:
        name = _ALIASES[name]
    if module.name == "torch.linalg" and f"linalg_{name}" in table.FUNCTIONS:
        name = f"linalg_{name}"  # torch.linalg.svd, where torch.svd differs
    value = globals_.get(name)
    if isinstance(value, BuiltinFunction) and value.torch_call is not None:
        return BuiltinFunction(name, value.torch_call, value.accepts_grad_flag,
                               defined_in_python=value.defined_in_python)
    if value is not None and not isinstance(value, Module) and not (
            isinstance(value, BuiltinFunction) and value.python):
        return value
    raise suggest.TypoError("AttributeError", f"module '{module.name}' has no attribute '{name}'",
                            None, lambda called: suggest.module_attribute_hint(module.name, name,
                                                                               called))


_TENSOR_ATTRIBUTES = frozenset({"grad", "grad_fn", "is_leaf", "requires_grad", "retains_grad",
                                "data", "shape", "dtype", "device", "T", "mT", "H", "is_cuda"})


def _unknown_name_hint(name: str, known: Any) -> str:
    """A likely typo's correction, or where the list of what gradsh has is."""
    return (suggest.did_you_mean(name, known)
            or "hint: not a gradsh builtin; docs/builtins.md lists every one gradsh implements")


_ALIASES = {"SGD": "sgd", "Size": "Size"}


# ---------------------------------------------------------------------------------------------
# Globals
# ---------------------------------------------------------------------------------------------


GRAD_FLAG: Any = None  # the `grad` builtin, which creation functions also accept as a flag


def _takes_requires_grad(function: Callable[..., Any]) -> bool:
    import inspect

    target = getattr(function, "__wrapped__", function)
    return "requires_grad" in inspect.signature(target).parameters


def _resolve(builtin: table.Builtin) -> Callable[..., Any] | None:
    if builtin.python == "only":
        return PYTHON_ONLY.get(builtin.name)
    if builtin.home == "ops":
        return getattr(ops, builtin.ops_name, None)
    return _imported_on_call(table.HOMES[builtin.home], builtin.ops_name)


def _imported_on_call(module: str, name: str) -> Callable[..., Any]:
    """module.name, imported when first called: gradsh.torch takes a while to import, and most
    scripts never use it."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__qualname__ = call.__name__ = name
    return call


def _namespace_of(module: ModuleType) -> Module | None:
    """The builtin namespace a Python module of gradsh.torch stands for (`torch`, `F`...), so a
    gradsh statement means the same whether `torch` was imported in Python or not."""
    full = module.__name__.removeprefix("gradsh.")
    if full not in table.MODULES:
        return None
    return Module(full, table.MODULES[full])


def _make_globals(print_fn: Callable[..., None]) -> dict[str, Any]:
    global GRAD_FLAG
    names: dict[str, Any] = {}
    for builtin in table.FUNCTIONS.values():
        target = _resolve(builtin)
        if target is None:
            continue
        if builtin.python == "fallback":
            names[builtin.name] = BuiltinFunction(
                builtin.name, torch_or_python(builtin.name, target), builtin.grad_flag,
                torch_call=target, defined_in_python=builtin.name in table.PYTHON_DEFINED)
        else:
            names[builtin.name] = BuiltinFunction(
                builtin.name, target, builtin.grad_flag, python=builtin.python == "only",
                defined_in_python=builtin.name in table.PYTHON_DEFINED)
    GRAD_FLAG = names.get("grad")
    names["print"] = BuiltinFunction("print", print_fn, python=True)
    for dtype_name in table.DTYPE_NAMES:
        names[dtype_name] = dtypes.BY_NAME[dtype_name if dtype_name != "bool" else "bool"]
    names.update(table.NUMBER_CONSTANTS)
    for device in table.DEVICE_NAMES:
        names[device] = Device(device)
    for module, children in table.MODULES.items():
        if "." not in module:
            names[module] = Module(module, children)
    for alias, full in table.MODULE_ALIASES.items():
        names[alias] = Module(full, table.MODULES[full])
    return names


def _as_size(value: Any) -> Any:
    """`x.size()` is a torch.Size; `x.size(0)` an int."""
    return Size(value) if isinstance(value, tuple) else value
