"""Rich rendering of steps, tables, graphs and errors: the only module that imports rich.

On a terminal the output is coloured and changed cells are highlighted; otherwise it is plain,
fixed-width and deterministic, with changed cells marked by a trailing `*`, so goldens are
stable. Everything here reads snapshots and plain data, never engine objects; the variable
table's layout (columns, widths, cell texts) is gradsh.table_layout's.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from gradsh.errors import GradshError, format_error
from gradsh.snapshot import OtherState, TensorState, VarState
from gradsh.table_layout import COLUMNS, Layout, lay_out, tensor_cells

__all__ = ["COLUMNS", "Renderer", "TableMemory", "change_marks", "highlight", "make_console",
           "plain_lines", "report_table", "tensor_cells", "wrap_text"]

def report_table(columns: Sequence[str], rows: Sequence[Sequence[str]],
                 wide: dict[str, int], color: bool) -> Table:
    """A plain report table (gradsh check's differences): the `wide` columns share the width
    by their ratios and wrap; the others never wrap."""
    table = Table(box=box.SIMPLE_HEAD if color else box.ASCII, show_edge=not color, expand=True,
                  header_style="bold" if color else None)
    for column in columns:
        table.add_column(column, overflow="fold", ratio=wide.get(column),
                         no_wrap=column not in wide)
    for row in rows:
        table.add_row(*row)
    return table


class _Console(Console):
    """rich's Console, leaving a closed pipe to gradsh's one exit path (cli.main): rich would
    exit by itself, with its own code."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def make_console(file: IO[str], color: bool, width: int | None) -> Console:
    """A console that is rich on a terminal and plain (no ANSI, fixed width) otherwise."""
    # soft_wrap: printed text keeps its own line breaks (PyTorch's repr, one-line errors);
    # only tables and trees are laid out to the width. force_jupyter=False: in a Jupyter
    # kernel rich would display HTML itself instead of writing to `file`.
    if color:
        return _Console(file=file, width=width, highlight=False, soft_wrap=True,
                        force_jupyter=False)
    return _Console(
        file=file,
        force_jupyter=False,
        width=width or 100,
        color_system=None,
        force_terminal=False,
        no_color=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        soft_wrap=True,
    )


def highlight(source: str, language: str = "gradsh") -> Text:
    """Source coloured on a terminal, in ANSI colours: gradsh's by the shell's Pygments lexer,
    Python's by Pygments' own."""
    from rich.syntax import ANSI_DARK, ANSISyntaxTheme

    if language == "python":
        from pygments.lexers.python import PythonLexer as Lexer
    else:
        from gradsh.repl.lexer import GradshLexer as Lexer

    theme = ANSISyntaxTheme(ANSI_DARK)
    text = Text(style="bold")
    for token, value in Lexer(stripnl=False, ensurenl=False).get_tokens(source):
        text.append(value, theme.get_style_for_token(token))
    return text


@dataclass
class TableMemory:
    """The cells shown at the previous step, to mark what changed, and the states they were
    made from (a state a snapshot cache hands back unchanged keeps its cells)."""

    cells: dict[str, dict[str, str]]
    states: dict[str, TensorState] = field(default_factory=dict)

    @staticmethod
    def empty() -> TableMemory:
        return TableMemory({})


_UNCHANGED = dict.fromkeys(COLUMNS, False)

# A step's table shows every row while there are at most this many; beyond, only the rows the
# step changed and a line counting the others, so that output grows with the work done.
TABLE_ALL_ROWS_UP_TO = 50


def change_marks(before: dict[str, str] | None, now: dict[str, str]) -> dict[str, bool]:
    """Which cells of a row to mark: those whose text changed; for a new row, its name."""
    if before is None:
        return {"name": True}
    return {column: before.get(column) != text for column, text in now.items()}


def plain_lines(layout: Layout) -> list[str]:
    """The plain table: columns one space apart, a dashed rule under the header, a changed
    cell's text followed by `*`, no trailing spaces."""
    return ["".join(text for text, _ in line) for line in _table_lines(layout, color=False)]


def _table_lines(layout: Layout, color: bool) -> list[list[tuple[str, str]]]:
    """The table's lines as (text, style) pieces: plain, a changed cell marked `*` and a rule
    of dashes per column; on a terminal, the header bold, a rule across, a changed cell
    highlighted. Trailing spaces are left out."""
    widths = layout.widths
    header = " ".join(c.ljust(w) for c, w in zip(layout.columns, widths, strict=True))
    rule = "─" * layout.width if color else " ".join("-" * w for w in widths)
    lines = [[(header.rstrip(), "bold" if color else "")], [(rule, "dim" if color else "")]]
    highlight = "bold yellow" if color else ""
    for cells, marked in zip(layout.cells, layout.marked, strict=True):
        split = [(text + "*" if mark and not color else text).split("\n")
                 for text, mark in zip(cells, marked, strict=True)]
        for k in range(max(len(cell) for cell in split)):
            pieces: list[tuple[str, str]] = []
            for i, (cell, width, mark) in enumerate(zip(split, widths, marked, strict=True)):
                if i:
                    pieces.append((" ", ""))
                pieces.append(((cell[k] if k < len(cell) else "").ljust(width),
                               highlight if mark else ""))
            while pieces and not pieces[-1][0].strip():  # no trailing spaces
                pieces.pop()
            if pieces:
                pieces[-1] = (pieces[-1][0].rstrip(), pieces[-1][1])
            lines.append(pieces)
    return lines


class Renderer:
    """Writes steps to stdout and errors to stderr, rich or plain."""

    def __init__(self, out: IO[str], err: IO[str], color: bool, width: int | None):
        self.color = color
        self.out = make_console(out, color, width)
        self.err = make_console(err, color, width)
        self.memory = TableMemory.empty()
        self._style_codes: dict[str, tuple[str, str]] = {}

    # -- pieces of a step ------------------------------------------------------------------

    def statement(self, source: str, language: str = "gradsh") -> None:
        lines = source.splitlines() or [""]
        highlighted = list(highlight(source, language).split("\n")) if self.color else []
        for i, line in enumerate(lines):
            prompt = ">>> " if i == 0 else "... "
            if self.color:
                self.out.print(Text.assemble(Text(prompt, style="bold green"), highlighted[i]))
            else:
                self.out.print(prompt + line, markup=False)

    def printed(self, line: str) -> None:
        self.out.print(line, markup=False, highlight=False)

    def warning(self, text: str) -> None:
        if self.color:  # on a terminal, wrapped between words rather than by the terminal
            self.out.print(Text(text, style="yellow"), soft_wrap=False)
        else:
            self.out.print(text, markup=False)

    def text(self, text: str) -> None:
        self.out.print(text, markup=False)

    def error(self, err: GradshError, source: str | None, path: str) -> None:
        message = format_error(err, source, path)
        self.out.file.flush()  # keep stdout and stderr in order when both go to one pipe
        if not self.color:
            self.err.print(message, markup=False)
            return
        for line in message.split("\n"):
            # On a terminal the message and hint wrap between words; the quoted source line
            # and its caret (indented) keep their columns.
            hint = line.startswith("hint:")
            self.err.print(Text(line, style="cyan" if hint else "red"),
                           soft_wrap=line.startswith("    "))

    # -- the table ----------------------------------------------------------------------------

    def table(self, states: Sequence[VarState], names: Sequence[str] | None = None,
              remember: bool = True, marks: bool = True, changed_only: bool | None = None
              ) -> None:
        """The variable table; with `names`, only those rows (for `show a, c`; a module's name
        stands for its parameters' and buffers' rows).

        Cells that differ from the last table shown are marked, unless `marks` is False (the
        single table of `--final` has nothing to compare with); a new variable is marked once,
        on its name. With `changed_only` (by default: over TABLE_ALL_ROWS_UP_TO rows, after a
        step), only the rows with a mark are shown, then a line counting the others.
        """
        tensors = [s for s in states if isinstance(s, TensorState)]
        if names:  # `show model` shows the module's rows (model.0.weight ...)
            wanted = set(names)
            tensors = [s for s in tensors
                       if s.name in wanted or s.name.split(".", 1)[0] in wanted]
        if not tensors:
            return
        previous, made = self.memory.cells, self.memory.states
        current: dict[str, dict[str, str]] = {}
        changed: list[dict[str, bool]] = []
        for state in tensors:
            name = state.name
            if made.get(name) is state:  # the state of the last table: nothing changed
                current[name] = previous[name]
                changed.append(_UNCHANGED if marks else {})
            else:
                current[name] = cells = tensor_cells(state)
                changed.append(change_marks(previous.get(name), cells) if marks else {})
        if remember:
            self.memory = TableMemory({**previous, **current},
                                      {**made, **{state.name: state for state in tensors}})
        if changed_only is None:
            changed_only = marks and remember and len(tensors) > TABLE_ALL_ROWS_UP_TO
        hidden = 0
        if changed_only:
            shown = [i for i, marked in enumerate(changed)
                     if marked is not _UNCHANGED and any(marked.values())]
            hidden = len(tensors) - len(shown)
            tensors = [tensors[i] for i in shown]
            changed = [changed[i] for i in shown]
        if tensors:
            self._lay_out_table(tensors, changed, current)
        if hidden:
            self.out.print(f"({hidden:,} unchanged variable{'s' if hidden != 1 else ''} not "
                           "shown; `show` lists every one)", markup=False, highlight=False)

    def _lay_out_table(self, tensors: Sequence[TensorState], changed: Sequence[dict[str, bool]],
                       current: dict[str, dict[str, str]]) -> None:
        layout = lay_out(tensors, changed, self.out.width, mark_width=0 if self.color else 1,
                         texts=[current[state.name] for state in tensors])
        if self.color:  # as wide as the layout, wider than the terminal if it must be
            # Each piece between the escape codes rich writes for its style: the same output
            # as printing the lines with rich, at a fraction of the cost (a step's table is
            # twenty lines or more).
            self.out.file.write("".join(
                "".join(self._styled(text, style) for text, style in line) + "\n"
                for line in _table_lines(layout, color=True)))
        else:
            self.out.file.write("".join(line + "\n" for line in plain_lines(layout)))

    def _styled(self, text: str, style: str) -> str:
        """`text` between the escape codes rich writes for `style` on this console (none when
        it is not a colour terminal)."""
        codes = self._style_codes.get(style)
        if codes is None:
            with self.out.capture() as captured:
                self.out.print(Text("\0", style=style), end="", soft_wrap=True)
            before, _, after = captured.get().partition("\0")
            codes = self._style_codes[style] = (before, after)
        return codes[0] + text + codes[1] if text else ""

    def _print_at_least(self, renderable: Any, width: int) -> None:
        """Print on the terminal as if it were at least `width` wide (rich would shrink or cut
        what is wider; the terminal wraps it instead)."""
        terminal = self.out.width
        self.out.width = max(terminal, width)
        try:
            self.out.print(renderable)
        finally:
            self.out.width = terminal

    def _print_wide(self, renderable: Any) -> None:
        """Print a table or tree no narrower than it must be (a header is never cut, a number
        never broken), wider than the width if it must; plain output loses rich's trailing
        padding."""
        import io

        measure = make_console(io.StringIO(), False, 10_000).measure(renderable)
        if self.color:
            self._print_at_least(renderable, measure.minimum)
            return
        buffer = io.StringIO()
        console = make_console(buffer, False, max(self.out.width, measure.minimum))
        console.print(renderable)
        for line in buffer.getvalue().splitlines():
            self.out.print(line.rstrip(), markup=False, highlight=False)

    def forget(self, names: Sequence[str]) -> None:
        for name in names:
            self.memory.cells.pop(name, None)
            self.memory.states.pop(name, None)

    def other_variables(self, states: Sequence[VarState]) -> None:
        others = [s for s in states if isinstance(s, OtherState)]
        for state in others:
            self.out.print(f"{state.name} = {state.repr}", markup=False)

    # -- graphs and explanations --------------------------------------------------------------

    def tree(self, root: Any, notes: Sequence[Any] = ()) -> None:
        """A graph tree built by gradsh.graphview: `(label, children)` with labels made of
        `(text, style)` segments, styled on a terminal only, then `notes` (labels) under it.
        Built with an explicit stack, so the depth of the data costs no recursion here."""
        label, children = root
        tree = Tree(self._label(label), guide_style="dim" if self.color else "")
        stack: list[tuple[Tree, Any]] = [(tree, iter(children))]
        while stack:
            parent, pending = stack[-1]
            child = next(pending, None)
            if child is None:
                stack.pop()
                continue
            child_label, grandchildren = child
            branch = parent.add(self._label(child_label))
            stack.append((branch, iter(grandchildren)))
        self._print_wide(tree)
        for note in notes:
            self.out.print(self._label(note))

    def graph(self, root: Any, notes: Sequence[Any], dot_source: Callable[[], str]) -> None:
        """`graph x`: the tree here; a renderer that can show pictures (a notebook's) draws
        `dot_source()`, the graph's DOT text, instead."""
        self.tree(root, notes)

    def _label(self, label: Sequence[tuple[str, str]] | tuple[str, str]) -> Text:
        if isinstance(label, tuple):  # one segment
            label = [label]
        text = Text(no_wrap=False, overflow="fold")  # long labels wrap under their start
        for segment, style in label:
            text.append(segment, style=style if self.color else "")
        return text

    def paragraph(self, lines: Sequence[str]) -> None:
        """Sentences, each wrapped to the width: at spaces, and between any two Chinese
        characters (never before the punctuation that closes them); continuation lines are
        indented, so each sentence stands out."""
        for line in lines:
            for piece in wrap_text(line, self.out.width, indent=2):
                self.out.print(piece, markup=False, highlight=False)


# Chinese typesetting's kinsoku rule: punctuation that must not start a line, or end one.
_NO_LINE_START = frozenset("，。、；：？！）》」』”’")
_NO_LINE_END = frozenset("（《「『“‘")


def wrap_text(text: str, width: int, indent: int = 0) -> list[str]:
    """`text` broken into lines of at most `width` terminal cells (a Chinese character takes
    two), continuation lines indented by `indent`. Breaks go at spaces (not inside [ ], which
    holds tensor values) and between wide characters; a word longer than a line is cut."""
    atoms: list[str] = []  # unbreakable pieces, and " " where a space was
    word = ""
    depth = 0  # inside [ ]: tensor values stay on one line where they can
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == " " and depth > 0:
            word += ch
        elif ch == " ":
            if word:
                atoms.append(word)
            atoms.append(" ")
            word = ""
        elif ch in _NO_LINE_START:
            if word or not atoms or atoms[-1] == " ":
                word += ch
            else:
                atoms[-1] += ch
        elif ch in _NO_LINE_END:
            if word:
                atoms.append(word)
            word = ch
        elif cell_len(ch) == 2:
            if word and word[-1] not in _NO_LINE_END:
                atoms.append(word)
                word = ""
            atoms.append(word + ch)
            word = ""
        else:
            word += ch
    if word:
        atoms.append(word)

    lines: list[str] = []
    current = ""
    limit = width
    space = False
    for atom in atoms:
        if atom == " ":
            space = bool(current)
            continue
        piece = (" " if space else "") + atom
        space = False
        if current and cell_len(current + piece) > limit:
            lines.append(current)
            current, piece, limit = "", atom, width - indent
        while not current and cell_len(piece) > limit:  # longer than a whole line: cut it
            cut = max(1, _fit(piece, limit))
            lines.append(piece[:cut])
            piece, limit = piece[cut:], width - indent
        current += piece
    if current or not lines:
        lines.append(current)
    return lines[:1] + [" " * indent + line for line in lines[1:]]


def _fit(text: str, cells: int) -> int:
    """How many leading characters of `text` fit in `cells` terminal cells."""
    used = 0
    for i, ch in enumerate(text):
        used += cell_len(ch)
        if used > cells:
            return i
    return len(text)
