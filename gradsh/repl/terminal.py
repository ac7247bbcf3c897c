"""The terminal between two prompts: keys typed while a statement runs wait for the next one.

Between prompts the terminal is back in its cooked mode, where it echoes what is typed into the
statement's output, edits it as a line of its own, and reads Ctrl-D as the end of input rather
than as a key: typed Tab or Ctrl-D were lost, typed text was printed in the middle of a table.
While a statement runs the terminal is set to deliver keys unechoed, byte by byte, to the next
prompt, as a prompt's own raw mode would; Ctrl-C still interrupts (signals stay on).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["keep_typeahead"]


@contextlib.contextmanager
def keep_typeahead(stream: Any) -> Iterator[None]:
    """Within the block, `stream` (the prompt's input) neither echoes nor edits lines, if it is
    a terminal; its mode is put back after, without discarding what was typed."""
    try:
        import termios
    except ImportError:  # Windows: its console keeps typeahead itself
        yield
        return
    try:
        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (AttributeError, NotImplementedError, OSError, ValueError, termios.error):
        yield  # not a terminal: a pipe, a test's input
        return
    changed = list(saved)
    changed[3] = saved[3] & ~(termios.ICANON | termios.ECHO)  # lflag; ISIG stays for Ctrl-C
    changed[6] = list(saved[6])
    changed[6][termios.VMIN], changed[6][termios.VTIME] = 1, 0
    try:
        termios.tcsetattr(fd, termios.TCSANOW, changed)  # TCSANOW: typeahead is kept
    except termios.error:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)
