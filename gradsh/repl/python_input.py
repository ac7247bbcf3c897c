"""Python typed or pasted into the shell: is it Python, is it complete, and how it runs in the
namespace the shell shares between gradsh statements and Python code."""

from __future__ import annotations

import ast
import codeop
import keyword
import linecache
import re

__all__ = ["looks_like_python", "python_status", "remember_source"]

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
