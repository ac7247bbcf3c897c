"""torch.* functions print, and introspect, as PyTorch's: `print(torch.relu)` is `<built-in method
relu of type object at 0x...>`, `print(F.linear)` `<built-in function linear>`, `print(F.relu)`
`<function relu at 0x...>`; their type, __name__, __module__, __qualname__, __self__ and what
`inspect` says are PyTorch's (gradsh/torch/_builtins.py, made by _fastpath_builtin.h).

Run as a script, this file rewrites the table those read (gradsh/torch/_function_kinds.py)
from the installed torch: `python tests/test_function_reprs.py`."""

from __future__ import annotations

import inspect
import re
import sys
import textwrap
import types
from typing import Any

import pytest

import gradsh.torch as gtorch
from gradsh.engine import fastpath
from gradsh.torch import _builtins

MODULES = ("torch", "torch.nn.functional", "torch.special", "torch.linalg", "torch.fft")

needs_extension = pytest.mark.skipif(fastpath.extension is None,
                                     reason="the C extension (which makes builtins) is not built")


def _module(lib: Any, dotted: str) -> Any:
    for part in dotted.split(".")[1:]:
        lib = getattr(lib, part)
    return lib


def harvest(torch: Any) -> tuple[dict[str, dict[str, tuple[str, str, str]]],
                                 dict[str, dict[str, tuple[str, str, str]]]]:
    """For each module, PyTorch's public builtins, with (__name__, what holds them:
    _VariableFunctionsClass or a module's name, __module__), and its Python functions, with
    (__name__, __module__, __qualname__ or "" where that is __name__): whichever gradsh
    defines (now or later) take those names."""
    builtins: dict[str, dict[str, tuple[str, str, str]]] = {}
    functions: dict[str, dict[str, tuple[str, str, str]]] = {}
    for dotted in MODULES:
        theirs = _module(torch, dotted)
        builtins[dotted], functions[dotted] = {}, {}
        for name in sorted(vars(theirs)):
            their = vars(theirs)[name]
            if name.startswith("__"):
                continue
            if type(their) is types.BuiltinFunctionType and (
                    their.__self__ is None or isinstance(their.__self__, types.ModuleType)):
                # (not pybind11's, whose __self__ is its own record)
                owner = getattr(their.__self__, "__name__", None) or \
                    their.__qualname__.partition(".")[0]
                builtins[dotted][name] = (their.__name__, owner, their.__module__ or "")
            elif type(their) is types.FunctionType and their.__module__.startswith("torch"):
                qualname = their.__qualname__  # (left out where it is the name)
                functions[dotted][name] = (their.__name__, their.__module__,
                                           "" if qualname == their.__name__ else qualname)
    return builtins, functions


def _grouped(table: dict[str, tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """name -> (PyTorch's name, *rest) as rest -> the names, space-separated, in lines."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, (_, *rest) in table.items():
        groups.setdefault(tuple(rest), []).append(name)
    return {key: textwrap.fill(" ".join(names), 88) for key, names in groups.items()}


def write_table(torch: Any, path: str) -> None:
    """The table, compact: the names by kind, PyTorch's own names where they differ."""
    lines = ['"""Which of gradsh\'s torch.* functions are C functions in PyTorch 2.13 (printed as',
             "builtins) and the module and qualified name of those that are Python functions.",
             "Data only, harvested from torch by tests/test_function_reprs.py (run as a script to",
             'rewrite it), which checks it; read through table() by gradsh/torch/_builtins.py."""',
             "", "from __future__ import annotations", ""]
    for title, comment, table in zip(
            ("BUILTINS", "FUNCTIONS"),
            ("(what holds them: _VariableFunctionsClass, whose static methods they are, or the C "
             "module that is their __self__; their __module__)",
             "(their __module__, their __qualname__ where not their __name__)"), harvest(torch)):
        lines += [*textwrap.wrap(f"module -> {comment} -> names", 95, initial_indent="# ",
                                 subsequent_indent="# "),
                  f"{title}: dict[str, dict[tuple[str, ...], str]] = {{"]
        for dotted, entries in table.items():
            lines.append(f"    {dotted!r}: {{")
            for key, names in _grouped(entries).items():  # type: ignore[arg-type]
                lines.append(f"        {key!r}: \"\"\"")
                lines += [f"{line}" for line in names.splitlines()]
                lines[-1] += '""",'
            lines.append("    },")
        lines.append("}")
        lines += ["", "# module -> name -> PyTorch's __name__ where it is not the name",
                  f"{title}_NAMES: dict[str, dict[str, str]] = {{"]
        for dotted, entries in table.items():
            renamed = [f"        {name!r}: {entry[0]!r}," for name, entry in entries.items()
                       if entry[0] != name]
            if renamed:
                lines += [f"    {dotted!r}: {{", *renamed, "    },"]
        lines += ["}", ""]
    lines += ["", "def table(title: str) -> dict[str, dict[str, tuple[str, ...]]]:",
              '    """BUILTINS or FUNCTIONS as module -> name -> (PyTorch\'s __name__, *kind)."""',
              "    grouped, names = globals()[title], globals()[title + \"_NAMES\"]",
              "    return {dotted: {name: (names.get(dotted, {}).get(name, name), *kind)",
              "                     for kind, text in groups.items() for name in text.split()}",
              "            for dotted, groups in grouped.items()}"]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def test_table_is_torchs(torch: Any) -> None:
    from gradsh.torch import _function_kinds

    builtins, functions = harvest(torch)
    assert builtins == _function_kinds.table("BUILTINS")
    assert functions == _function_kinds.table("FUNCTIONS")


_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _describe(value: Any) -> tuple[Any, ...]:
    """What a program may print of a function, its address masked."""
    try:
        signature: Any = str(inspect.signature(value))
    except (TypeError, ValueError) as error:
        signature = type(error).__name__
    return (_ADDRESS.sub("0x?", repr(value)), type(value).__name__, value.__name__,
            value.__module__, value.__qualname__,
            getattr(getattr(value, "__self__", "absent"), "__name__", None),
            callable(value), inspect.isbuiltin(value), inspect.isfunction(value),
            inspect.isroutine(value), inspect.ismethoddescriptor(value),
            signature if inspect.isbuiltin(value) else None)


@needs_extension
def test_function_reprs_are_torchs(torch: Any) -> None:
    """Under `gradsh run` (served_torch): Python functions take PyTorch's module names there."""
    from gradsh.pyserve import served_torch
    from gradsh.torch import _function_kinds

    names = [(dotted, name) for dotted in MODULES
             for name in (*_function_kinds.table("BUILTINS")[dotted],
                          *_function_kinds.table("FUNCTIONS")[dotted])
             if isinstance(_builtins.python_function(vars(_module(gtorch, dotted)).get(name)),
                           types.FunctionType)]  # (the names gradsh defines as functions)
    with served_torch():
        ours = {key: _describe(getattr(_module(gtorch, key[0]), key[1])) for key in names}
    for dotted, name in names:
        expected = _describe(getattr(_module(torch, dotted), name))
        assert ours[dotted, name] == expected, f"{dotted}.{name}"


@needs_extension
def test_builtins_call_the_same_functions(torch: Any) -> None:
    """A builtin passes its arguments on as they are: keywords, errors, and its identity where
    PyTorch's two names are one object (F.conv2d is torch.conv2d)."""
    x = gtorch.tensor([-1.0, 2.0], requires_grad=True)
    assert gtorch.relu(x).tolist() == [0.0, 2.0]
    assert gtorch.add(x, x, alpha=2).grad_fn.name() == "AddBackward0"
    assert gtorch.sum(input=x).item() == 1.0
    assert gtorch.nn.functional.conv2d is gtorch.conv2d
    assert (gtorch.nn.functional.conv2d is gtorch.conv2d) == \
        (torch.nn.functional.conv2d is torch.conv2d)
    for lib in (gtorch, torch):
        with pytest.raises(TypeError) as error:
            lib.relu(1)
        assert "relu(): argument 'input' (position 1) must be Tensor, not int" in str(error.value)
    assert [gtorch.relu(x) is not None for _ in range(100)] == [True] * 100  # specialized calls


if __name__ == "__main__":
    import torch as real_torch

    write_table(real_torch, sys.argv[1] if len(sys.argv) > 1 else "gradsh/torch/_function_kinds.py")
