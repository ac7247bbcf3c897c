"""Notebook output: the variable table, graphs and explanations as Jupyter display objects.

The terminal has gradsh.render; a notebook gets HTML (and SVG) through IPython's
`_repr_html_`/`_repr_svg_` protocol, with a plain-text form for consoles. Like render.py this
reads snapshots and plain data only, but its cells are built here from the snapshot, so the
terminal's layout can change without changing the notebook's. IPython is never imported here.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gradsh import table_layout
from gradsh.engine.tensor_str import PrintOptions
from gradsh.snapshot import TensorState, VarState

COLUMNS = ("name", "value", "shape", "dtype", "device", "requires_grad", "is_leaf", "grad_fn",
           "retains_grad", "grad")  # the terminal table's columns
MODES = ("on", "changed", "off")  # after each cell: every row, the rows that changed, nothing
# A cell is a glance, as on the terminal, but HTML cells can be wider: PyTorch's summary (`...`)
# beyond 64 elements, lines of at most 60 characters.
CELL_OPTIONS = PrintOptions(precision=4, threshold=64, edgeitems=3, linewidth=60)
CHANGED_STYLE = "background-color:#fff0a8;color:#000;font-weight:bold"  # dark themes too
_TABLE_STYLE = "border-collapse:collapse;font-family:monospace;font-size:12px"
# Inline styles: Jupyter's own CSS right-aligns table cells, and a <style> element does not
# survive an untrusted notebook's sanitizer.
_CELL_STYLE = "text-align:left;vertical-align:top;padding:1px 6px;white-space:pre"

Cells = dict[str, str]


def tensor_cells(state: TensorState) -> Cells:
    """The text of each column for one tensor, as on the terminal, with wider summaries."""
    return table_layout.tensor_cells(state, CELL_OPTIONS)


@dataclass(frozen=True)
class TableView:
    """One variable table: each row's cells and which of them changed."""

    rows: tuple[tuple[Cells, frozenset[str]], ...]

    def _repr_html_(self) -> str:
        head = "".join(f'<th style="{_CELL_STYLE}">{column}</th>' for column in COLUMNS)
        body = []
        for cells, changed in self.rows:
            tds = []
            for column in COLUMNS:
                marked = ('class="gradsh-changed" title="changed" '
                          f'style="{_CELL_STYLE};{CHANGED_STYLE}"')
                attributes = marked if column in changed else f'style="{_CELL_STYLE}"'
                tds.append(f"<td {attributes}>{html.escape(cells[column])}</td>")
            body.append("<tr>" + "".join(tds) + "</tr>")
        return (f'<table class="gradsh-table" style="{_TABLE_STYLE}">'
                f'<thead><tr style="border-bottom:1px solid #888">{head}</tr></thead>'
                f'<tbody>{"".join(body)}</tbody></table>')

    def __repr__(self) -> str:
        """Plain text for consoles: columns two spaces apart, changed cells marked `*`."""
        rows = [[cells[c] + ("*" if c in changed else "") for c in COLUMNS]
                for cells, changed in self.rows]
        split = [[cell.splitlines() or [""] for cell in row] for row in rows]
        widths = [max([len(column)] + [len(line) for row in split for line in row[i]])
                  for i, column in enumerate(COLUMNS)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip()]
        for row in split:
            for k in range(max(len(cell) for cell in row)):
                lines.append("  ".join((cell[k] if k < len(cell) else "").ljust(w)
                                       for cell, w in zip(row, widths, strict=True)).rstrip())
        return "\n".join(lines)


@dataclass
class Tables:
    """The notebook's table setting and what the last step left in each cell, so that a table
    can highlight what the step changed, whether or not the previous one was shown."""

    mode: str = "on"
    memory: dict[str, Cells] = field(default_factory=dict)

    def view(self, states: Sequence[VarState], names: Sequence[str] | None = None,
             marks: bool = True, remember: bool = True) -> TableView | None:
        """The table of `states` (only the rows `names`, if given), cells that differ from
        memory marked unless `marks` is False; None when there is no tensor to show."""
        current = {s.name: tensor_cells(s) for s in states if isinstance(s, TensorState)}
        wanted = set(names) if names else None
        rows = []
        for name, cells in current.items():
            if wanted is not None and name not in wanted:
                continue
            before = self.memory.get(name)
            changed = frozenset(c for c in COLUMNS
                                if marks and (before is None or before[c] != cells[c]))
            rows.append((cells, changed))
        if remember:
            self.memory.update(current)
        return TableView(tuple(rows)) if rows else None

    def after_step(self, states: Sequence[VarState], only_changes: bool = False
                   ) -> TableView | None:
        """What the setting shows after a step (a cell, or a statement of a gradsh cell): the
        whole table, the rows that changed, or nothing. With `only_changes` (after an error,
        which usually changed nothing) a table only if something changed."""
        current = {s.name: tensor_cells(s) for s in states if isinstance(s, TensorState)}
        for gone in set(self.memory) - set(current):
            del self.memory[gone]  # deleted: made again, it is a new variable
        changed = [name for name, cells in current.items() if cells != self.memory.get(name)]
        if self.mode == "off":
            self.memory.update(current)  # unseen, but remembered: marks mean "this step"
            return None
        if not changed and (only_changes or self.mode == "changed"):
            self.memory.update(current)
            return None
        return self.view(states, changed if self.mode == "changed" else None)


# ---------------------------------------------------------------------------------------------
# Graphs and text
# ---------------------------------------------------------------------------------------------


class GraphView:
    """A backward graph: SVG when Graphviz's `dot` can draw it, else the text tree in HTML.

    `svg` is called once, at display time; it returns None when no picture can be made."""

    def __init__(self, tree_text: str, svg: Callable[[], str | None]):
        self.tree_text = tree_text
        self._make_svg = svg
        self._svg: str | None = None
        self._drawn = False

    def svg(self) -> str | None:
        if not self._drawn:
            self._svg, self._drawn = self._make_svg(), True
        return self._svg

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def _repr_html_(self) -> str | None:
        # Frontends prefer HTML to SVG: offer the tree only when there is no picture.
        if self.svg() is not None:
            return None
        return _pre(self.tree_text)

    def __repr__(self) -> str:
        return self.tree_text.rstrip("\n")


class TextView:
    """Sentences (`explain`): one paragraph each in HTML, wrapped lines in plain text."""

    def __init__(self, sentences: Sequence[str], plain: str):
        self.sentences = list(sentences)
        self.plain = plain

    def _repr_html_(self) -> str:
        return "".join(f'<p style="margin:0 0 4px 0">{html.escape(s)}</p>'
                       for s in self.sentences)

    def __repr__(self) -> str:
        return self.plain.rstrip("\n")


def _pre(text: str) -> str:
    return f'<pre class="gradsh-tree" style="line-height:1.25">{html.escape(text)}</pre>'


def mimebundle(view: object) -> dict[str, str]:
    """The MIME bundle a kernel that is not IPython sends for a view: the same keys IPython's
    formatter would produce from its `_repr_*_` methods."""
    bundle = {"text/plain": repr(view)}
    for mime, method in (("text/html", "_repr_html_"), ("image/svg+xml", "_repr_svg_")):
        make = getattr(view, method, None)
        data = make() if make is not None else None
        if data is not None:
            bundle[mime] = data
    return bundle


def plain_text(write: Callable[[io.StringIO], None]) -> str:
    """What a plain Renderer writes (gradsh.render's tree or paragraphs), as a string."""
    buffer = io.StringIO()
    write(buffer)
    return buffer.getvalue()
