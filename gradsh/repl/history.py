"""Where the shell keeps its history: $XDG_STATE_HOME/gradsh/history, else
~/.local/state/gradsh/history (the XDG base directory spec's state directory: history is state,
not configuration, and not a cache that may be thrown away)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory


def history_path(environ: Mapping[str, str] | None = None) -> Path:
    """The history file. A relative $XDG_STATE_HOME is ignored, as the spec requires."""
    env = os.environ if environ is None else environ
    state = env.get("XDG_STATE_HOME", "")
    if not state or not os.path.isabs(state):
        state = os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "gradsh" / "history"


class _QuietFileHistory(FileHistory):
    """A FileHistory whose failed writes (a full disk, a file made read-only) only lose the entry:
    the session goes on, with the entry still in memory."""

    def store_string(self, string: str) -> None:
        try:
            super().store_string(string)
        except OSError:
            pass


def open_history(path: Path | None = None) -> tuple[History, str | None]:
    """The persistent history, or an in-memory one and the reason when it cannot be kept."""
    path = path or history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # created readable by its owner only: what was typed may be private
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        if not path.is_file():
            raise IsADirectoryError(21, "not a regular file")
        with open(path, "rb") as f:  # readable, as the prompt will read it
            f.read(1)
    except OSError as err:
        reason = f"history is not saved: cannot use {path} ({err.strerror or err})"
        return InMemoryHistory(), reason
    return _QuietFileHistory(str(path)), None
