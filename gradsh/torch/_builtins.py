"""PyTorch's torch.* functions are mostly C functions, and programs print them: `print(torch.relu)`
is `<built-in method relu of type object at 0x...>`, type(torch.relu).__name__ is
'builtin_function_or_method', `inspect.isbuiltin(torch.relu)` is true, F.linear prints as
`<built-in function linear>`. Where PyTorch's is a C function, a gradsh.torch module holds a
builtin made by the C extension (_fastpath_builtin.h) that passes its arguments straight to
gradsh's Python function: no wrapper runs per call (one C call's hand-off), so the per-op cost
stays the same. Without the extension (GRADSH_NATIVE=0 or not built) the Python functions stay.

Where PyTorch's is a Python function, gradsh's takes PyTorch's __module__ and __qualname__ while
gradsh serves `import torch` (_python_api.torch_class_names), as classes do."""

from __future__ import annotations

from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Any

from gradsh.engine import fastpath
from gradsh.torch._function_kinds import table

BUILTINS, FUNCTIONS = table("BUILTINS"), table("FUNCTIONS")

__all__ = ["as_torchs", "python_function", "torch_function_names"]


class _VariableFunctionsClass:
    """The class PyTorch's torch.* C functions are static methods of: their repr names its type
    (`of type object at 0x...`), their __qualname__ its name, and pickle finds them on it."""


_VariableFunctionsClass.__module__ = "torch._C"

# PyTorch's C modules that hold its other C functions (F.linear.__self__ is torch._C._nn)
_C_MODULES: dict[str, ModuleType] = {}


def _owner(name: str) -> Any:
    """What holds a C function: the class, or the C module of that name (its __self__)."""
    if name == _VariableFunctionsClass.__name__:
        return _VariableFunctionsClass
    if name not in _C_MODULES:
        _C_MODULES[name] = ModuleType(name)
    return _C_MODULES[name]

# (function, name, owner, module) -> the builtin made of it: one object for one function
# where PyTorch's two names are one object too (F.conv2d is torch.conv2d)
_MADE: dict[tuple[Any, str, str, str], Any] = {}
_PYTHON: dict[Any, FunctionType] = {}  # builtin -> the Python function it calls


def python_function(value: Any) -> Any:
    """The Python function behind a builtin made here (any other value as it is): what
    introspection of gradsh's own signatures reads."""
    if type(value) is BuiltinFunctionType:
        return _PYTHON.get(value, value)
    return value


def as_torchs(namespace: dict[str, Any], dotted: str) -> None:
    """The Python functions of a gradsh.torch module (namespace: its globals) that are C
    functions in PyTorch's module `dotted` replaced by builtins named as PyTorch's."""
    extension = fastpath.extension
    if extension is None:
        return
    for name, (torch_name, owner, module) in BUILTINS[dotted].items():
        function = namespace.get(name)
        if not isinstance(function, FunctionType):
            continue
        key = (function, torch_name, owner, module)
        made = _MADE.get(key)
        if made is None:
            made = extension.builtin(torch_name, function, _owner(owner), module,
                                     function.__doc__)
            if made is None:  # (the extension's slots are all taken)
                continue
            _MADE[key], _PYTHON[made] = made, function
            setattr(_owner(owner), torch_name, made)  # (where pickle looks for it)
        namespace[name] = made


def torch_function_names(dotted: str, namespace: dict[str, Any]
                         ) -> list[tuple[FunctionType, str, str, str]]:
    """(function, PyTorch's __module__, __name__, __qualname__) for the gradsh Python functions
    of a module that are Python functions in PyTorch's module `dotted`, named otherwise."""
    renamed = []
    for name, (torch_name, module, qualname) in FUNCTIONS.get(dotted, {}).items():
        function = namespace.get(name)
        if isinstance(function, FunctionType) and (function.__module__, function.__name__,
                                                   function.__qualname__) != \
                (module, torch_name, qualname or torch_name):
            renamed.append((function, module, torch_name, qualname or torch_name))
    return renamed
