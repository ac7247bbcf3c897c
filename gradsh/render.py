"""Rich rendering of steps, tables, graphs and errors: the only module that imports rich.

On a terminal the output is coloured and changed cells are highlighted; otherwise it is plain,
fixed-width and deterministic, with changed cells marked by a trailing `*`, so goldens are
stable. Everything here reads snapshots and plain data, never engine objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from rich import box
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

# psql-style ASCII: `+` at every joint, so columns read clearly in a plain-text golden file.
PLAIN_BOX = box.Box(
    "+-++\n"
    "| ||\n"
    "+-++\n"
    "| ||\n"
    "+-++\n"
    "+-++\n"
    "| ||\n"
    "+-++\n",
    ascii=True,
)


def make_console(file: IO[str], color: bool, width: int | None) -> Console:
    """A console that is rich on a terminal and plain (no ANSI, fixed width) otherwise."""
    # soft_wrap: printed text keeps its own line breaks (PyTorch's repr, one-line errors);
    # only tables and trees are laid out to the width.
    if color:
        return Console(file=file, width=width, highlight=False, soft_wrap=True)
    return Console(
        file=file,
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
    """The text of each column for one tensor variable."""
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

    def statement(self, source: str) -> None:
        lines = source.splitlines() or [""]
        for i, line in enumerate(lines):
            prompt = ">>> " if i == 0 else "... "
            if self.color:
                self.out.print(Text(prompt, style="bold green") + Text(line, style="bold"))
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
              remember: bool = True) -> None:
        """The variable table; with `names`, only those rows (for `show a, c`)."""
        tensors = [s for s in states if isinstance(s, TensorState)]
        if names:
            wanted = set(names)
            tensors = [s for s in tensors if s.name in wanted]
        if not tensors:
            return
        table = Table(
            box=box.SIMPLE_HEAD if self.color else PLAIN_BOX,
            show_edge=not self.color,
            show_lines=False,
            pad_edge=True,
            header_style="bold" if self.color else None,
        )
        for column in COLUMNS:
            no_wrap = column not in ("value", "grad")
            table.add_column(column, no_wrap=no_wrap, overflow="fold")
        previous = self.memory.cells
        current: dict[str, dict[str, str]] = {}
        for state in tensors:
            cells = tensor_cells(state)
            current[state.name] = cells
            before = previous.get(state.name)
            row = []
            for column in COLUMNS:
                text = cells[column]
                changed = before is None or before[column] != text
                row.append(self._cell(text, changed and column != "name" or
                                      (before is None and column == "name")))
            table.add_row(*row)
        self.out.print(table)
        if remember:
            kept = {k: v for k, v in previous.items()}
            kept.update(current)
            self.memory = TableMemory(kept)

    def forget(self, names: Sequence[str]) -> None:
        for name in names:
            self.memory.cells.pop(name, None)

    def _cell(self, text: str, changed: bool) -> Text | str:
        if self.color:
            return Text(text, style="bold yellow" if changed else "")
        return text + "*" if changed else text

    def other_variables(self, states: Sequence[VarState]) -> None:
        others = [s for s in states if isinstance(s, OtherState)]
        for state in others:
            self.out.print(f"{state.name} = {state.repr}", markup=False)

    # -- graphs and explanations --------------------------------------------------------------

    def tree(self, root: Any) -> None:
        """A graph tree built by gradsh.graphview (plain nested data)."""
        label, children = root
        tree = Tree(self._label(label), guide_style="dim" if self.color else "")
        stack: list[tuple[Tree, list[Any]]] = [(tree, list(children))]
        while stack:
            parent, pending = stack[-1]
            if not pending:
                stack.pop()
                continue
            child_label, grandchildren = pending.pop(0)
            branch = parent.add(self._label(child_label))
            stack.append((branch, list(grandchildren)))
        self.out.print(tree)

    def _label(self, label: tuple[str, str]) -> Text:
        text, style = label
        return Text(text, style=style if self.color else "")

    def paragraph(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.out.print(line, markup=False)
