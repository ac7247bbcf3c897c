"""Shell input -> source text: is the input complete, and how are its lines joined.

Both are decided by the parser, never by counting brackets. A newline is what the user typed and
what a line inside `( )`, `[ ]` or between the statements of a `{ }` block needs. After a
dangling operator (`a = 1 +`) or a statement that is not finished (`repeat 3`), though, a newline
would end the statement: there the line is joined with gradsh's own continuation, ` \\`, so the
source the shell runs, shows in error carets and saves with `:save` is valid gradsh that means
what was typed. Joining keeps every line's number and every column, so carets stay put.
"""

from __future__ import annotations

from gradsh.ast import Program
from gradsh.errors import GradshError
from gradsh.parser import IncompleteInput, parse
from gradsh.repl.python_input import python_status

__all__ = ["CONTINUE_LINE", "is_complete", "join_lines", "parse_input"]

CONTINUE_LINE = " \\\n"
# What the probe appends after the newline: an opening parenthesis can begin a statement and can
# follow anything that leaves an expression open inside brackets (an operand, an operator, a
# comma), so the probe is incomplete exactly when the newline itself is acceptable there.
_PROBE = "\n("


def join_lines(text: str) -> str:
    """The source for `text` as typed over several lines (see the module docstring)."""
    if _status(text) is None or "\n" not in text:
        return text
    lines = text.split("\n")
    source = lines[0]
    for line in lines[1:]:
        source += _joiner(source) + line
    return source


def is_complete(text: str) -> bool:
    """False while the input merely ends too early (the shell then asks for another line),
    as gradsh or, for input that is not gradsh, as Python (an open block ends with an empty
    line, as in Python's REPL).

    A syntax error elsewhere counts as complete: running the input reports it with a caret.
    So does Enter on an empty line after a dangling operator (`x = 1 +`) or an unfinished
    statement (`repeat 3`): as in Python after a `\\`, the input ends there and the error
    says what is missing, where inside brackets or braces an empty line is only a line.
    """
    status = _status(join_lines(text))
    if status is None:
        return True
    head, _, last = text.rpartition("\n")
    if head and not last.strip() and isinstance(status, IncompleteInput):
        joined = join_lines(head)
        if _joiner(joined) == CONTINUE_LINE and python_status(text) != "incomplete":
            return True
    python = python_status(text)
    if isinstance(status, IncompleteInput):
        return python == "complete"
    return python != "incomplete"


def parse_input(text: str, path: str = "<shell>") -> Program:
    """Parse shell input, lines joined; raises GradshError (IncompleteInput included)."""
    return parse(join_lines(text), path)


def _status(source: str) -> GradshError | None:
    try:
        parse(source)
    except GradshError as err:
        return err
    return None


def _joiner(source: str) -> str:
    if not isinstance(_status(source), IncompleteInput):
        return "\n"  # complete, or already an error: the newline is the user's
    if isinstance(_status(source + _PROBE), IncompleteInput):
        return "\n"
    return CONTINUE_LINE
