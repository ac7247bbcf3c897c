"""Python typed or pasted into the shell: is it Python, is it complete, and how it runs in the
namespace the shell shares between gradsh statements and Python code."""

from __future__ import annotations

import ast
import builtins
import codeop
import keyword
import linecache
import re
from types import FunctionType, MethodType, ModuleType
from typing import Any

__all__ = ["looks_like_python", "needs_python", "parses_as_python", "python_status",
           "remember_source"]

_PYTHON_START = re.compile(
    r"^\s*(import|from|def|class|for|while|with|if|try|async|@|return|global|lambda|raise)\b")


def _prepared(text: str) -> str:
    """The text as Python's REPL would compile it: a blank last line (Enter on an empty line)
    ends a compound statement."""
    lines = text.split("\n")
    ended = len(lines) > 1 and not lines[-1].strip()
    source = text.rstrip()
    return source + "\n" if ended else source


def python_status(text: str) -> str:
    """"complete", "incomplete" (a block still open, a bracket unclosed) or "error"."""
    source = _prepared(text)
    if not source.strip():
        return "complete"
    for symbol in ("single", "exec"):
        try:
            code = codeop.compile_command(source, "<shell>", symbol)
        except SyntaxError as err:
            if symbol == "single" and "multiple statements" in str(err):
                continue  # pasted lines: complete when they compile as a module
            return "error"
        except (OverflowError, ValueError):
            return "error"
        return "complete" if code is not None else "incomplete"
    return "error"


def looks_like_python(text: str) -> bool:
    """Whether text that gradsh cannot parse should be reported as Python (its error then is
    Python's): it starts with a Python keyword, or ends a line with a colon."""
    if _PYTHON_START.match(text):
        return True
    return any(line.rstrip().endswith(":") and not line.lstrip().startswith("#")
               for line in text.splitlines())


def parses_as_python(text: str) -> bool:
    try:
        ast.parse(_prepared(text), "<shell>")
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError):
        return False
    return True


def remember_source(filename: str, source: str) -> None:
    """Let tracebacks show the lines of shell input, as they do for files."""
    lines = [line + "\n" for line in source.splitlines()]
    linecache.cache[filename] = (len(source), None, lines, filename)


PYTHON_KEYWORDS = frozenset(keyword.kwlist)


def needs_python(program: Any, interp: Any) -> bool:
    """Whether typed input that parses as gradsh means something only Python has: an object
    Python code made (a torch.nn module, an optimizer of gradsh.torch, a function, a class), a
    builtin of Python's that gradsh lacks (`len`), or an attribute of an imported module that
    gradsh's namespace of the same name lacks (`nn.Linear` after `import torch.nn as nn`).
    Such input runs as Python (when it parses as Python too), so the shell's two languages
    share one namespace without the user choosing."""
    from gradsh import ast as gast
    from gradsh.errors import GradshError
    from gradsh.export import walk

    env, globals_ = interp.env, interp.globals
    for node in walk(program.body):
        if isinstance(node, gast.Name):
            if node.id in env:
                if _python_object(env[node.id]):
                    return True
            elif node.id not in globals_ and node.id in _PYTHON_BUILTINS:
                return True
        elif isinstance(node, gast.Attribute):
            path = _dotted(node)
            if path is None or not isinstance(env.get(path[0]), ModuleType):
                continue
            try:
                interp.eval(node)  # a module's attribute: reading it changes nothing
            except GradshError:
                if _python_getattr(env[path[0]], path[1:]):
                    return True
    return False


_PYTHON_BUILTINS = frozenset(dir(builtins))


def _python_object(value: Any) -> bool:
    if isinstance(value, (FunctionType, MethodType, type)):
        return True
    # gradsh's torch classes (named torch.* while a Python program is served)
    return type(value).__module__.startswith(("gradsh.torch", "torch."))


def _dotted(node: Any) -> list[str] | None:
    """`nn.Linear` -> ["nn", "Linear"] for a chain of attributes on a name, else None."""
    from gradsh import ast as gast

    parts: list[str] = []
    while isinstance(node, gast.Attribute):
        parts.append(node.name)
        node = node.obj
    if not isinstance(node, gast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _python_getattr(value: Any, names: list[str]) -> bool:
    for name in names:
        if name.startswith("_") or not hasattr(value, name):
            return False
        value = getattr(value, name)
    return True
