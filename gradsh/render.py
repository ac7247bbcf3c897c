"""Rich rendering of steps, tables, graphs and errors: the only module that imports rich.

On a terminal the output is coloured and changed cells are highlighted; otherwise it is plain,
fixed-width and deterministic, with changed cells marked by a trailing `*`, so goldens are
stable. Everything here reads snapshots and plain data, never engine objects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from gradsh.engine.tensor_str import PrintOptions, format_values
from gradsh.errors import GradshError, format_error
from gradsh.snapshot import OtherState, TensorState, VarState

COLUMNS = ("name", "value", "shape", "dtype", "device", "requires_grad", "is_leaf", "grad_fn",
           "grad")
# Table cells summarise like PyTorch's repr, earlier: a cell is a glance, `print` shows all.
CELL_OPTIONS = PrintOptions(precision=4, threshold=36, edgeitems=3, linewidth=36)

# Columns separated by two spaces and a dashed rule under the header: at the fixed width of
# 100, every column a box line would take is a column the values cannot use.
PLAIN_BOX = box.Box(
    "    \n"
    "    \n"
    " -  \n"
    "    \n"
    "    \n"
    "    \n"
    "    \n"
    "    \n",
    ascii=True,
)
_SEPARATOR = 1  # the (invisible) box line between columns; the dashed rule keeps them apart


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


def make_console(file: IO[str], color: bool, width: int | None) -> Console:
    """A console that is rich on a terminal and plain (no ANSI, fixed width) otherwise."""
    # soft_wrap: printed text keeps its own line breaks (PyTorch's repr, one-line errors);
    # only tables and trees are laid out to the width. force_jupyter=False: in a Jupyter
    # kernel rich would display HTML itself instead of writing to `file`.
    if color:
        return Console(file=file, width=width, highlight=False, soft_wrap=True,
                       force_jupyter=False)
    return Console(
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


def tensor_cells(state: TensorState) -> dict[str, str]:
    """The text of each column for one tensor variable, independent of the layout.

    Change marks compare these, so a value is "changed" only when it really changed, not
    because another row made its column narrower.
    """
    return {
        "name": state.name,
        "value": format_values(state.value, state.dtype, CELL_OPTIONS),
        "shape": "[" + ", ".join(str(n) for n in state.shape) + "]",
        "dtype": state.dtype.name,
        "device": state.device,
        "requires_grad": str(state.requires_grad),
        "is_leaf": str(state.is_leaf),
        "grad_fn": state.grad_fn or "None",
        "grad": (
            format_values(state.grad, state.grad_dtype, CELL_OPTIONS)  # type: ignore[arg-type]
            if state.grad is not None
            else "None"
        ),
    }


_MAX_CELL_LINES = 6


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines())


def fit_values(array: Any, dtype: Any, width: int) -> str:
    """Values laid out for a cell `width` columns wide, never broken inside a number.

    In order of preference: every value on one line; every value over a few lines (PyTorch's
    own line breaking at that width); PyTorch's `...` summary on one line, keeping fewer edge
    items until it fits; the shortest summary over several lines.
    """
    def render(edgeitems: int, summarise: bool) -> str:
        options = PrintOptions(precision=4, threshold=0 if summarise else CELL_OPTIONS.threshold,
                               edgeitems=edgeitems, linewidth=width)
        return format_values(array, dtype, options)

    full = render(3, False)
    if len(_one_line(full)) <= width:
        return _one_line(full)
    lines = full.splitlines()
    if len(lines) <= _MAX_CELL_LINES and max(len(line) for line in lines) <= width:
        return full
    summary = full
    for edgeitems in (3, 2, 1):
        summary = render(edgeitems, True)
        if len(_one_line(summary)) <= width:
            return _one_line(summary)
    return summary


def plain_table_lines(rows: Sequence[Sequence[Any]], value_width: int, grad_width: int,
                      width: int) -> list[str] | None:
    """The plain variable table as rich lays it out, without rich, or None where rich would
    have to decide something: a line longer than its column (rich wraps it), a table wider
    than the console (rich shrinks columns), text that is not plain ASCII (cell widths).

    Where every cell fits, rich's layout is simple: no-wrap columns as wide as their widest
    cell, value and grad at their given widths, cells left-aligned and top-aligned, columns
    one space apart, a dashed rule under the header, trailing spaces stripped (_print_wide).
    Laying out 20 rows through rich took about 25 ms (measured twice, then printed line by
    line); this takes about 0.1 ms, and the plain output (every golden) is the same byte for
    byte (tests/test_render_plain.py compares the two on random tables).
    """
    split = [[cell.split("\n") for cell in row] for row in rows]
    widths = []
    for i, column in enumerate(COLUMNS):
        longest = len(column)
        for row in split:
            for line in row[i]:
                if not line.isascii() or not line.isprintable():
                    return None
                longest = max(longest, len(line))
        if column in ("value", "grad"):
            fixed = value_width if column == "value" else grad_width
            if longest > fixed:
                return None
            longest = fixed
        widths.append(longest)
    if sum(widths) + _SEPARATOR * (len(COLUMNS) - 1) > width:
        return None
    lines = [" ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip(),
             " ".join("-" * w for w in widths)]
    for row in split:
        for k in range(max(len(cell) for cell in row)):
            parts = [(cell[k] if k < len(cell) else "").ljust(w)
                     for cell, w in zip(row, widths, strict=True)]
            lines.append(" ".join(parts).rstrip())
    return lines


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
    """The cells shown at the previous step, to mark what changed."""

    cells: dict[str, dict[str, str]]

    @staticmethod
    def empty() -> TableMemory:
        return TableMemory({})


class Renderer:
    """Writes steps to stdout and errors to stderr, rich or plain."""

    def __init__(self, out: IO[str], err: IO[str], color: bool, width: int | None):
        self.color = color
        self.out = make_console(out, color, width)
        self.err = make_console(err, color, width)
        self.memory = TableMemory.empty()

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
        self.out.print(Text(text, style="yellow") if self.color else text, markup=False)

    def text(self, text: str) -> None:
        self.out.print(text, markup=False)

    def error(self, err: GradshError, source: str | None, path: str) -> None:
        message = format_error(err, source, path)
        self.out.file.flush()  # keep stdout and stderr in order when both go to one pipe
        if self.color:
            self.err.print(Text(message, style="red"))
        else:
            self.err.print(message, markup=False)

    # -- the table ----------------------------------------------------------------------------

    def table(self, states: Sequence[VarState], names: Sequence[str] | None = None,
              remember: bool = True, marks: bool = True) -> None:
        """The variable table; with `names`, only those rows (for `show a, c`; a module's name
        stands for its parameters' and buffers' rows).

        Cells that differ from the last table shown are marked, unless `marks` is False (the
        single table of `--final` has nothing to compare with).
        """
        tensors = [s for s in states if isinstance(s, TensorState)]
        if names:  # `show model` shows the module's rows (model.0.weight ...)
            wanted = set(names)
            tensors = [s for s in tensors
                       if s.name in wanted or s.name.split(".", 1)[0] in wanted]
        if not tensors:
            return
        previous = self.memory.cells
        current = {state.name: tensor_cells(state) for state in tensors}
        changed = {
            name: {c: marks and (name not in previous or previous[name][c] != text)
                   for c, text in cells.items()}
            for name, cells in current.items()
        }
        value_width, grad_width = self._value_widths(current, changed)
        rows = []
        for state in tensors:
            cells = dict(current[state.name])
            cells["value"] = fit_values(state.value, state.dtype, value_width)
            if state.grad is not None:
                cells["grad"] = fit_values(state.grad, state.grad_dtype, grad_width)
            rows.append((cells, changed[state.name]))
        if remember:
            self.memory = TableMemory({**previous, **current})
        if not self.color:
            marked = [[cells[c] + "*" if marks[c] else cells[c] for c in COLUMNS]
                      for cells, marks in rows]
            lines = plain_table_lines(marked, value_width, grad_width, self.out.width)
            if lines is not None:
                self.out.file.write("".join(line + "\n" for line in lines))
                return
        table = Table(
            box=box.SIMPLE_HEAD if self.color else PLAIN_BOX,
            show_edge=False,
            show_lines=False,
            pad_edge=False,
            padding=(0, 0, 0, 0),
            header_style="bold" if self.color else None,
        )
        for column in COLUMNS:
            if column == "value":
                table.add_column(column, width=value_width, overflow="fold")
            elif column == "grad":
                table.add_column(column, width=grad_width, overflow="fold")
            else:
                table.add_column(column, no_wrap=True)
        for cells, marks in rows:
            table.add_row(*(self._cell(cells[c], marks[c]) for c in COLUMNS))
        self._print_wide(table)

    def _print_wide(self, renderable: Any) -> None:
        """Print a table or tree; plain output loses rich's trailing padding, and a table that
        cannot be narrower than the width (a number is never broken) may exceed it."""
        if self.color:
            self.out.print(renderable)
            return
        import io

        buffer = io.StringIO()
        measure = make_console(buffer, False, 10_000).measure(renderable)
        console = make_console(buffer, False, max(self.out.width, measure.minimum))
        console.print(renderable)
        for line in buffer.getvalue().splitlines():
            self.out.print(line.rstrip(), markup=False, highlight=False)

    def _value_widths(self, cells: dict[str, dict[str, str]],
                      changed: dict[str, dict[str, bool]]) -> tuple[int, int]:
        """How wide the value and grad columns can be so the table fits the console.

        The other columns never wrap; value and grad share what is left, each taking no more
        than its one-line text needs.
        """
        mark = 0 if self.color else 1  # the trailing `*` of a changed cell in plain output

        def need(column: str) -> int:
            return max([len(column)] + [
                max(len(line) for line in row[column].splitlines() or [""])
                + (mark if changed[name][column] else 0)
                for name, row in cells.items()
            ])

        fixed = sum(need(c) for c in COLUMNS if c not in ("value", "grad"))
        overhead = _SEPARATOR * (len(COLUMNS) - 1)
        room = self.out.width - overhead - fixed

        def one_line(column: str) -> int:
            return max([len(column)] + [
                len(_one_line(row[column])) + (mark if changed[name][column] else 0)
                for name, row in cells.items()
            ])

        def smallest(column: str) -> int:
            # The narrowest cell that never breaks inside a number: the longest run without a
            # space, which in PyTorch's layout is a number with its brackets and comma.
            return max([len(column)] + [
                max(len(word) for word in row[column].split())
                + (mark if changed[name][column] else 0)
                for name, row in cells.items()
            ])

        value_need, grad_need = one_line("value"), one_line("grad")
        if value_need + grad_need <= room:
            return value_need, grad_need
        if grad_need <= room // 2:
            value, grad = room - grad_need, grad_need
        elif value_need <= room // 2:
            value, grad = value_need, room - value_need
        else:
            value, grad = room - room // 2, room // 2
        return max(value, smallest("value")), max(grad, smallest("grad"))

    def forget(self, names: Sequence[str]) -> None:
        for name in names:
            self.memory.cells.pop(name, None)

    def _cell(self, text: str, changed: bool) -> Text:
        # Text, never a str: rich would read `[nan, 1.]` in a str as markup and drop it.
        if self.color:
            return Text(text, style="bold yellow" if changed else "")
        return Text(text + "*" if changed else text)

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
