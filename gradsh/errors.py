"""gradsh's error values and the one place that formats them with the source line and a caret."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """A span in the source: 1-based line and column of its first and last character."""

    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def at(line: int, column: int) -> Pos:
        return Pos(line, column, line, column)


class GradshError(Exception):
    """An error the user should see: a PyTorch-style type name, a message and where it happened.

    `kind` is the name shown to the user (`RuntimeError`, `SyntaxError`, `NameError`, ...), so a
    PyTorch error keeps PyTorch's type name. `pos` is None for errors that belong to no source
    line (an unreadable file, a bad command-line option).
    """

    def __init__(self, kind: str, message: str, pos: Pos | None = None, hint: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.pos = pos
        self.hint = hint
        # gradsh stopped the statement itself (Ctrl-C, --timeout, a limit, a gradsh bug) and
        # undid it; PyTorch's errors leave their partial state instead
        self.rolled_back = False
        self.own_stop = False  # raised by gradsh's own limit (--max-memory ...), not PyTorch

    def with_pos(self, pos: Pos) -> GradshError:
        """The same error placed at `pos` if it has no position yet."""
        if self.pos is None:
            self.pos = pos
        return self


def format_error(err: GradshError, source: str | None = None, path: str = "<input>") -> str:
    """`path:line:col: Kind: message`, then the source line and a caret under the span.

    The caret spans the erroneous text when it lies on one line, so `a @ b` under a shape error
    reads `^^^^^`. Tabs in the source line are kept so the caret stays aligned.
    """
    if err.pos is None:
        head = f"{path}: {err.kind}: {err.message}"
        tail = [line for line in (err.hint, rolled_back_line(err)) if line]
        return "\n".join([head, *tail])
    pos = err.pos
    lines = [f"{path}:{pos.line}:{pos.column}: {err.kind}: {err.message}"]
    if source is not None:
        source_lines = source.splitlines()
        if 1 <= pos.line <= len(source_lines):
            text = source_lines[pos.line - 1]
            width = 1
            if pos.end_line == pos.line and pos.end_column >= pos.column:
                width = pos.end_column - pos.column + 1
            width = max(1, min(width, len(text) - pos.column + 1))
            lead = "".join("\t" if ch == "\t" else " " for ch in text[: pos.column - 1])
            lines.append(f"    {text}")
            lines.append(f"    {lead}{'^' * width}")
    if err.hint is not None:
        lines.append(err.hint)
    if err.rolled_back:
        lines.append(rolled_back_line(err))
    return "\n".join(lines)


def rolled_back_line(err: GradshError) -> str:
    """The line after an error whose statement gradsh undid."""
    if not err.rolled_back:
        return ""
    return ("gradsh undid this statement (gradsh's own stop, not PyTorch's error): variables, "
            "gradients and the random stream are as they were before it")
