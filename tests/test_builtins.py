"""The builtin table is the one source of truth: every entry resolves to a real implementation."""

from __future__ import annotations

from typing import Any

from gradsh import builtins as table
from gradsh.engine.tensor import Tensor
from gradsh.interpreter import Interpreter


def test_every_function_resolves() -> None:
    interp = Interpreter()
    missing = [b.name for b in table.FUNCTIONS.values() if b.name not in interp.globals]
    assert missing == []


def test_every_method_exists_on_tensor() -> None:
    missing = [name for name in table.METHODS if not callable(getattr(Tensor, name, None))]
    assert missing == []


def test_each_name_appears_once_per_kind() -> None:
    # `backward` is a statement and a method, `grad` a function and an attribute: one entry each.
    keys = [(b.name, b.kind) for b in table.BUILTINS]
    assert len(keys) == len(set(keys))


def test_the_functions_pytorch_writes_in_python_are_listed(torch: Any) -> None:
    """A .grad builtin prints as PyTorch's object does: `<function relu at 0x...>` for what
    PyTorch defines in Python, a built-in method's repr for the rest."""
    import types

    defined = set()
    for builtin in table.FUNCTIONS.values():
        obj: Any = torch
        try:
            for part in builtin.torch_name.split(".")[1:]:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if isinstance(obj, types.FunctionType):
            defined.add(builtin.name)
    assert defined == set(table.PYTHON_DEFINED)
