"""Errors of Python programs as Python shows them, cut to the user's own frames, and engine
warnings delivered through Python's warnings machinery at the user's line."""

from __future__ import annotations

import builtins
import contextlib
import os
import sys
import traceback
import warnings
from collections.abc import Iterator
from types import TracebackType
from typing import IO, Any

import gradsh
from gradsh.pysuggest import suggestion

_GRADSH_DIR = os.path.dirname(os.path.abspath(gradsh.__file__)) + os.sep
_ENGINE_STATEMENT_FILES = ("<gradsh-internal>",)


def is_internal(filename: str) -> bool:
    """Whether a frame's file is part of gradsh (its package, or code it compiles itself)."""
    return filename.startswith(_GRADSH_DIR) or filename in _ENGINE_STATEMENT_FILES


def _is_hidden(filename: str, hidden: tuple[str, ...]) -> bool:
    return is_internal(filename) or (bool(hidden) and filename.startswith(hidden))


def _user_frames(tb: TracebackType | None, hidden: tuple[str, ...] = ()) -> list[tuple[Any, int]]:
    frames = []
    for frame, lineno in traceback.walk_tb(tb):
        if not _is_hidden(frame.f_code.co_filename, hidden):
            frames.append((frame, lineno))
    return frames


def _user_stack(tb: TracebackType | None, hidden: tuple[str, ...]) -> traceback.StackSummary:
    """The user's frames of a traceback, with the column positions Python 3.11 marks with
    `^^^^` under the failing expression (the standard library's own walk, filtered)."""
    walk = getattr(traceback, "_walk_tb_with_full_positions", None)
    extract = getattr(traceback.StackSummary, "_extract_from_extended_frame_gen", None)
    if walk is None or extract is None:  # another Python: the lines without positions
        return traceback.StackSummary.extract(
            ((f, n) for f, n in traceback.walk_tb(tb)
             if not _is_hidden(f.f_code.co_filename, hidden)),
            capture_locals=False)
    return extract(  # type: ignore[no-any-return]
        ((f, positions) for f, positions in walk(tb)
         if not _is_hidden(f.f_code.co_filename, hidden)),
        capture_locals=False)


def _exception_lines(exc: BaseException, hidden: tuple[str, ...]) -> list[str]:
    """One exception's traceback (user frames only) and its last line."""
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    te.stack = _user_stack(exc.__traceback__, hidden)
    te.__cause__ = te.__context__ = None
    lines = list(te.format())
    suggested = suggestion(exc) if isinstance(exc, (NameError, AttributeError)) else None
    if suggested is not None and lines and lines[-1].endswith("\n"):
        lines[-1] = lines[-1][:-1] + f". Did you mean: '{suggested}'?\n"
    return lines


def format_exception(exc: BaseException, hidden: tuple[str, ...] = ()) -> str:
    """The traceback Python prints for `exc`, without gradsh's frames (nor those of files under
    the `hidden` directories: a notebook's machinery); chained exceptions that happened inside
    gradsh (an argument check re-raised as PyTorch's error) are left out."""
    chain: list[tuple[BaseException, str | None]] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    link: str | None = None
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append((current, link))
        if current.__cause__ is not None:
            nxt, link = current.__cause__, ("\nThe above exception was the direct cause of the "
                                             "following exception:\n\n")
        elif current.__context__ is not None and not current.__suppress_context__:
            nxt, link = current.__context__, ("\nDuring handling of the above exception, "
                                               "another exception occurred:\n\n")
        else:
            nxt = None
        if nxt is not None and not _user_frames(nxt.__traceback__, hidden):
            break  # raised and handled inside gradsh: not the user's business
        current = nxt
    parts: list[str] = []
    for i, (item, _) in enumerate(reversed(chain)):
        if i:
            parts.append(chain[len(chain) - i][1] or "")
        parts.extend(_exception_lines(item, hidden))
    return "".join(parts)


def innermost_user_line(exc: BaseException, path: str) -> tuple[int | None, int | None]:
    """(line, column) of the deepest frame in the program's own file, for the JSON trace."""
    line = column = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == path:
            line = lineno
            column = 1
    if isinstance(exc, SyntaxError) and exc.filename == path:
        line, column = exc.lineno, exc.offset
    return line, column


# ---------------------------------------------------------------------------------------------
# Engine warnings -> Python warnings
# ---------------------------------------------------------------------------------------------


# Python's own warning filters (a non-debug build with no -W options): what `python FILE.py`
# shows, whatever filters the process running gradsh has (pytest's, for instance).
_DEFAULT_FILTERS = (("default", DeprecationWarning, "__main__"),
                    ("ignore", DeprecationWarning, None), ("ignore", PendingDeprecationWarning, None),
                    ("ignore", ImportWarning, None), ("ignore", ResourceWarning, None))


@contextlib.contextmanager
def python_warnings(err: IO[str] | None) -> Iterator[None]:
    """Warnings as `python FILE.py` shows them (Python's default filters), written to `err`."""
    with warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in reversed(_DEFAULT_FILTERS):
            warnings.filterwarnings(action, category=category, module=module or "")
        if err is not None:
            def show(message: Any, category: type[Warning], filename: str, lineno: int,
                     file: Any = None, line: str | None = None) -> None:
                err.write(warnings.formatwarning(message, category, filename, lineno, line))

            warnings.showwarning = show
        yield


def _stacklevel() -> int:
    """warnings.warn's stacklevel that points at the first frame outside gradsh."""
    frame = sys._getframe(2)
    level = 2
    while frame is not None and is_internal(frame.f_code.co_filename):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn_from_engine(category: str, message: str) -> None:
    """The engine's warning handler in Python mode: a real Python warning, attributed to the
    user's line (so Python's filters show it once per place, as PyTorch's warnings are)."""
    cls = getattr(builtins, category, None)
    if not (isinstance(cls, type) and issubclass(cls, Warning)):
        cls = UserWarning
    warnings.warn(message, cls, stacklevel=_stacklevel())
