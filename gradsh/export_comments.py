"""The comments of a .grad script, found in its source and handed out to the exporter in order.

The parser drops comments; the exporter puts them back beside the statements they were beside:
a comment on its own lines before a statement goes before its Python, one at the end of a line
after it. A comment is the untrusted script's text inside the exported program, so it is written
through pysafe.comment_text: printable and on one line, whatever it holds, it stays a comment.
"""

from __future__ import annotations

from dataclasses import dataclass

from gradsh import pysafe

__all__ = ["Comments", "scan"]


@dataclass(frozen=True)
class Comment:
    text: str  # after the `#`
    alone: bool  # the only thing on its line


def scan(source: str) -> dict[int, Comment]:
    """Every comment of `source` by line number: a `#` outside a string to the line's end."""
    found: dict[int, Comment] = {}
    line, i, quote, code = 1, 0, "", False
    while i < len(source):
        ch = source[i]
        if quote:
            if ch == "\\" and i + 1 < len(source):
                line += source[i + 1] == "\n"
                i += 2
                continue
            if ch == quote or ch == "\n":  # a string never spans lines unescaped
                quote = ""
                line += ch == "\n"
                code = code and ch != "\n"
        elif ch == "\n":
            line, code = line + 1, False
        elif ch == "#":
            end = source.find("\n", i)
            end = len(source) if end < 0 else end
            found[line] = Comment(source[i + 1:end], not code)
            i = end
            continue
        elif ch in "\"'":
            quote, code = ch, True
        elif not ch.isspace():
            code = True
        i += 1
    return found


class Comments:
    """The comments not yet placed. Each is handed out once, in the order of the lines."""

    def __init__(self, source: str) -> None:
        self.found = scan(source)
        self.lines = source.split("\n")
        for number, text in enumerate(self.lines, start=1):  # the header's options (`# gradsh:
            if text.strip() and not text.lstrip().startswith("#"):  # --seed 0`) are the prelude
                break
            comment = self.found.get(number)
            if comment is not None and comment.text.strip().startswith("gradsh:"):
                del self.found[number]
        self.next_line = 1  # lines before it have been placed

    def before(self, line: int, blank_lines: bool = True) -> list[str]:
        """The comments on lines of their own from where the last statement ended up to `line`
        (exclusive), as Python comment lines; with `blank_lines`, a blank line where the script
        has one (or several) there too."""
        lines: list[str] = []
        blank = False
        for number in range(self.next_line, min(line, len(self.lines) + 1)):
            comment = self.found.pop(number, None)
            if comment is None:
                blank = blank or not self.lines[number - 1].strip()
                continue
            if blank and blank_lines:
                lines.append("")
            lines.append(python_comment(comment.text))
            blank = False
        if blank and blank_lines:
            lines.append("")
        self.next_line = max(self.next_line, line)
        return lines

    def within(self, first: int, last: int) -> list[str]:
        """The comments on lines `first` to `last` (inside a statement written on several
        lines, which the export writes on one), as Python comment lines."""
        lines = [python_comment(self.found.pop(n).text)
                 for n in range(first, last + 1) if n in self.found]
        self.next_line = max(self.next_line, last + 1)
        return lines

    def after(self, line: int) -> str | None:
        """The comment ending `line`, as text to put after the code (`  # ...`)."""
        comment = self.found.pop(line, None)
        self.next_line = max(self.next_line, line + 1)
        return None if comment is None else "  " + python_comment(comment.text)

    def rest(self) -> list[str]:
        """The comments after the last statement."""
        lines = self.before(len(self.lines) + 1)
        while lines and not lines[-1]:
            lines.pop()
        return lines


def python_comment(text: str) -> str:
    """`#` and the text, on one line whatever it holds (pysafe.comment_text escapes it)."""
    return "#" + pysafe.comment_text(text)
