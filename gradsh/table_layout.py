"""The variable table laid out for a width: which columns, how wide, and what each cell says.

Plain data in, plain data out (no rich): gradsh.render draws what this decides, plain or in
colour, and anything else that shows the table can draw it too. The table must read on an
80-column terminal, so when everything does not fit it gives way in this order:

1. values and grads fall onto a few lines: a matrix one row to a line, a vector wrapped as
   PyTorch wraps it;
2. columns that tell nothing go: `device` when every tensor is on the cpu, then `dtype` when
   every one is float32;
3. values shrink to a one-line summary: PyTorch's `...` with fewer edge items, then the first
   items (`[[0.4963, 0.7682, ...], ...]`, the shape column has the rest), then brackets only.

A header is never cut and a number never broken: a table that still cannot fit is wider than
the width. `retains_grad` is a column only while some tensor retains its grad (the column
appears with the `retain_grad()` that sets it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gradsh.engine.dtypes import DType
from gradsh.engine.tensor_str import PrintOptions, format_values
from gradsh.snapshot import TensorState

COLUMNS = ("name", "value", "shape", "dtype", "device", "requires_grad", "is_leaf", "grad_fn",
           "retains_grad", "grad")
ARRAY_COLUMNS = ("value", "grad")
# Columns that may go, in this order, when every row holds the value given.
DROPPABLE = (("device", "cpu"), ("dtype", "float32"))
# Table cells summarise like PyTorch's repr, earlier: a cell is a glance, `print` shows all.
CELL_OPTIONS = PrintOptions(precision=4, threshold=36, edgeitems=3, linewidth=36)
MAX_CELL_LINES = 6  # the rows of a matrix, one to a line
MAX_WRAPPED_LINES = 3  # a vector wrapped as PyTorch wraps it
SEPARATOR = 1  # columns are one space apart


def tensor_cells(state: TensorState, options: PrintOptions = CELL_OPTIONS) -> dict[str, str]:
    """The text of each column for one tensor variable, independent of the layout: values as
    PyTorch prints them (summarised as `options` say), attributes as PyTorch names them.

    Change marks compare these, so a value is "changed" only when it really changed, not
    because another row made its column narrower.
    """
    return {
        "name": state.name,
        "value": _cell(state.value, state.dtype, options),
        "shape": "[" + ", ".join(str(n) for n in state.shape) + "]",
        "dtype": state.dtype.name,
        "device": state.device,
        "requires_grad": str(state.requires_grad),
        "is_leaf": str(state.is_leaf),
        "grad_fn": state.grad_fn or "None",
        "retains_grad": str(state.retains_grad),
        "grad": (
            _cell(state.grad, state.grad_dtype, options)  # type: ignore[arg-type]
            if state.grad is not None
            else "None"
        ),
    }


@dataclass(frozen=True)
class Layout:
    """The table to draw: its columns with their widths, and each row's cells in that order
    (a cell's lines joined by newlines; marks are not in the text, `marked` says where)."""

    columns: tuple[str, ...]
    widths: tuple[int, ...]
    cells: tuple[tuple[str, ...], ...]
    marked: tuple[tuple[bool, ...], ...]

    @property
    def width(self) -> int:
        return sum(self.widths) + SEPARATOR * (len(self.widths) - 1)


def lay_out(states: Sequence[TensorState], marks: Sequence[Mapping[str, bool]], width: int,
            mark_width: int = 0, texts: Sequence[dict[str, str]] | None = None) -> Layout:
    """The layout of `states` (with the cells `marks` flags, each taking `mark_width` more
    columns, as the plain output's `*` does) in `width` columns; `texts` are the states'
    tensor_cells when the caller has them already."""
    if texts is None:
        texts = [tensor_cells(state) for state in states]
    columns = [c for c in COLUMNS
               if c != "retains_grad" or any(state.retains_grad for state in states)]
    candidates = [columns]
    for column, value in DROPPABLE:
        if texts and all(text[column] == value for text in texts):
            columns = [c for c in columns if c != column]
            candidates.append(columns)
    fitting = _Fitting(states, texts, marks, width, mark_width)
    # A column goes only if the table then fits the width where it did not, or shows more
    # (the changed values first), or, too wide whatever goes, is narrower.
    scores = [fitting.score(columns) for columns in candidates]
    return fitting.fit(candidates[scores.index(max(scores))])


class _Fitting:
    """One table being fitted: the cells that never change with the layout, and the marks."""

    def __init__(self, states: Sequence[TensorState], texts: Sequence[dict[str, str]],
                 marks: Sequence[Mapping[str, bool]], width: int, mark_width: int) -> None:
        self.states = states
        self.texts = texts
        self.marks = marks
        self.width = width
        self.mark_width = mark_width
        self._known: dict[tuple[str, str], object] = {}  # need, thresholds ... per column
        # Each value and grad is formatted once, whatever widths the layouts try.
        self.arrays = {
            "value": [values_of(state.value, state.dtype) for state in states],
            "grad": [values_of(state.grad, state.grad_dtype) if state.grad is not None else None
                     for state in states],  # type: ignore[arg-type]
        }

    def extra(self, row: int, column: str) -> int:
        return self.mark_width if self.marks[row].get(column, False) else 0

    def need(self, column: str) -> int:
        """The width of a column whose cells stay on one line."""
        key = ("need", column)
        if key not in self._known:
            self._known[key] = max([len(column)] + [
                max(len(line) for line in _lines(text[column])) + self.extra(row, column)
                for row, text in enumerate(self.texts)
            ])
        return self._known[key]  # type: ignore[return-value]

    def one_line_need(self, column: str) -> int:
        key = ("one_line_need", column)
        if key not in self._known:
            self._known[key] = max([len(column)] + [
                len(_one_line(text[column])) + self.extra(row, column)
                for row, text in enumerate(self.texts)
            ])
        return self._known[key]  # type: ignore[return-value]

    def thresholds(self, column: str) -> list[Need]:
        """What each value (or grad) of the column needs, its mark included."""
        key = ("thresholds", column)
        if key not in self._known:
            self._known[key] = self._thresholds(column)
        return self._known[key]  # type: ignore[return-value]

    def _thresholds(self, column: str) -> list[Need]:
        found = []
        for row, values in enumerate(self.arrays[column]):
            if values is not None:
                extra = self.extra(row, column)
                full, summary, least = values.needs
                found.append(Need(full + extra, summary + extra, least + extra,
                                  self.marks[row].get(column, False)))
        return found

    def split(self, room: int) -> tuple[int, int]:
        """The widths of value and grad in `room` columns: the split that shows the most
        (_shown), nearest to _split's."""
        value_width, grad_width = _split(room, self.one_line_need("value"),
                                         self.one_line_need("grad"))
        values, grads = self.thresholds("value"), self.thresholds("grad")
        low = _least("value", values)
        high = room - _least("grad", grads)
        if high < low:  # too narrow for anything but the shortest cells
            return low, room - low
        # What is shown changes only where a width meets a need, so the best width is one
        # next to such a point, an end of the range, or the preferred width itself.
        candidates = {low, high, min(max(value_width, low), high)}
        for need in values:
            candidates.update((need.full - 1, need.full, need.summary - 1, need.summary))
        for need in grads:
            candidates.update((room - need.full, room - need.full + 1, room - need.summary,
                               room - need.summary + 1))
        best = max(sorted(v for v in candidates if low <= v <= high), key=lambda value: (
            *_shown(value, room - value, values, grads), -abs(value - value_width)))
        return best, room - best

    def room(self, columns: Sequence[str]) -> int:
        """What the columns other than value and grad leave them."""
        fixed = sum(self.need(c) for c in columns if c not in ARRAY_COLUMNS)
        return self.width - fixed - SEPARATOR * (len(columns) - 1)

    def score(self, columns: Sequence[str]) -> tuple[int, ...]:
        """How good the layout with these columns would be, from the widths each value needs
        (no text is made): whether it fits, what it shows (_shown), and, too wide, how much."""
        room = self.room(columns)
        values, grads = self.thresholds("value"), self.thresholds("grad")
        over = max(0, _least("value", values) + _least("grad", grads) - room)
        return (over == 0, *_shown(*self.split(room), values, grads), -over)

    def fit(self, columns: Sequence[str]) -> Layout:
        """The layout with these columns."""
        value_width, grad_width = self.split(self.room(columns))
        rows: list[tuple[str, ...]] = []
        for row, text in enumerate(self.texts):
            cells = dict(text)
            for column, room_left in (("value", value_width), ("grad", grad_width)):
                values = self.arrays[column][row]
                if values is not None:
                    cells[column], _ = values.text(room_left - self.extra(row, column))
            rows.append(tuple(cells[c] for c in columns))
        widths = tuple(
            max([len(column)] + [
                max(len(line) for line in _lines(cells[i])) + self.extra(row, column)
                for row, cells in enumerate(rows)
            ])
            for i, column in enumerate(columns)
        )
        marked = tuple(tuple(self.marks[row].get(c, False) for c in columns)
                       for row in range(len(rows)))
        return Layout(tuple(columns), widths, tuple(rows), marked)


@dataclass(frozen=True)
class Need:
    """The widths a value or grad needs to show in full, as a summary with a number, at all;
    and whether it changed in this step (what a reader looks at first)."""

    full: int
    summary: int
    least: int
    changed: bool


def _shown(value_width: int, grad_width: int, values: list[Need],
           grads: list[Need]) -> tuple[int, int]:
    """What value and grad columns this wide show: how many values in full, then how many as a
    summary with a number, a value that changed in this step counting twice."""
    cells = [(value_width, need) for need in values] + [(grad_width, need) for need in grads]
    full = sum(1 + need.changed for width, need in cells if need.full <= width)
    summary = sum(1 + need.changed for width, need in cells
                  if need.summary <= width < need.full)
    return full, summary


def _least(column: str, needs: list[Need]) -> int:
    """The narrowest a value or grad column can be: its header, its shortest cells."""
    return max([len(column)] + [need.least for need in needs])


def _split(room: int, value_need: int, grad_need: int) -> tuple[int, int]:
    """How the room left by the other columns is shared by value and grad: each gets what its
    one-line text needs when both fit; else the smaller need is met if it takes at most half,
    and the other column has the rest; else half each."""
    if value_need + grad_need <= room:
        return value_need, grad_need
    if grad_need <= room // 2:
        value, grad = room - grad_need, grad_need
    elif value_need <= room // 2:
        value, grad = value_need, room - value_need
    else:
        value, grad = room - room // 2, room // 2
    return max(value, len("value")), max(grad, len("grad"))


# How much of its values a cell shows (cell_text): all, a summary with numbers, or brackets.
FULL, SUMMARY, BRACKETS = 2, 1, 0


def cell_text(array: np.ndarray, dtype: DType, width: int) -> tuple[str, int]:
    """The values of `array` for a cell `width` columns wide (see Values.text)."""
    return Values(array, dtype).text(width)


def widths_needed(array: np.ndarray, dtype: DType) -> tuple[int, int]:
    """The narrowest cells in which `array` shows in full, and as a summary with a number."""
    full, summary, _ = Values(array, dtype).needs
    return full, summary


# Values of small arrays, kept from one table to the next: most variables do not change in a
# step, and a value's texts for every width tried are all it takes to lay it out again.
_KEPT: dict[tuple[object, ...], Values] = {}
_KEPT_MAX_BYTES = 8192
_KEPT_MAX = 512


def _cell(array: np.ndarray, dtype: DType, options: PrintOptions) -> str:
    """A value's cell text: the terminal's (made once per value, see values_of) or another
    summary's (the notebook's wider cells)."""
    if options is CELL_OPTIONS:
        return values_of(array, dtype).cell
    return format_values(array, dtype, options)


def values_of(array: np.ndarray, dtype: DType) -> Values:
    """The Values of `array` (the same object again for an equal small array)."""
    if array.nbytes > _KEPT_MAX_BYTES:
        return Values(array, dtype)
    key = (dtype, array.dtype.str, array.shape, array.tobytes())
    values = _KEPT.get(key)
    if values is None:
        if len(_KEPT) >= _KEPT_MAX:
            del _KEPT[next(iter(_KEPT))]  # the oldest
        values = _KEPT[key] = Values(array.copy(), dtype)
    return values


class Values:
    """A value (or grad) as table cells: its text for a width, and the widths it needs. A
    layout tries several widths; each text is made once."""

    def __init__(self, array: np.ndarray, dtype: DType) -> None:
        self.array = array
        self.dtype = dtype
        self.full = format_values(array, dtype, _options(math.inf))  # one line per row
        self.one = _one_line(self.full)
        self._cell: str | None = None
        self._texts: dict[int, tuple[str, int]] = {}
        self._wraps: dict[int, str | None] = {}
        self._needs: tuple[int, int, int] | None = None

    @property
    def cell(self) -> str:
        """The text of the table cell before any layout (what change marks compare)."""
        if self._cell is None:
            self._cell = format_values(self.array, self.dtype, CELL_OPTIONS)
        return self._cell

    def text(self, width: int) -> tuple[str, int]:
        """The values for a cell `width` columns wide, never broken inside a number, and how
        much of them it shows (FULL: what the table shows with room enough).

        In order of preference: every value on one line; every value over a few lines, one row
        of a matrix to a line or a vector wrapped; PyTorch's `...` summary on one line with
        fewer edge items; the first items only; the brackets alone.
        """
        if width not in self._texts:
            self._texts[width] = self._text(width)
        return self._texts[width]

    def _text(self, width: int) -> tuple[str, int]:
        array, dtype = self.array, self.dtype
        if len(self.one) <= width or array.ndim == 0 or array.size == 0:
            return self.one, FULL
        lines = self.full.splitlines()
        if len(lines) <= MAX_CELL_LINES and max(len(line) for line in lines) <= width:
            return self.full, FULL
        wrapped = self._wrapped(width)
        if wrapped is not None:
            return wrapped, FULL
        for edgeitems in (3, 2, 1):
            summary = _one_line(format_values(array, dtype, _options(width, edgeitems, 0)))
            if len(summary) <= width:
                return summary, SUMMARY
        first = first_items(array, dtype, width)
        if first is not None:
            return first, SUMMARY
        return "[" * array.ndim + "..." + "]" * array.ndim, BRACKETS

    def _wrapped(self, width: int) -> str | None:
        """The vector wrapped as PyTorch wraps it at `width`, if that is few enough lines no
        wider than `width` (PyTorch measures "0." as one character, so it may not be)."""
        if not _wrappable(self.array):
            return None
        if width not in self._wraps:
            text = format_values(self.array, self.dtype, _options(width))
            lines = text.splitlines()
            fits = len(lines) <= _wrapped_lines(self.array) and max(map(len, lines)) <= width
            self._wraps[width] = text if fits else None
        return self._wraps[width]

    @property
    def needs(self) -> tuple[int, int, int]:
        """The narrowest cells that show the values in full, a summary with a number (the
        first item), and anything (`[[...]]`)."""
        if self._needs is None:
            self._needs = self._widths()
        return self._needs

    def _widths(self) -> tuple[int, int, int]:
        array, one = self.array, len(self.one)
        if array.ndim == 0 or array.size == 0:
            return one, one, one
        lines = self.full.splitlines()
        if len(lines) <= MAX_CELL_LINES:
            one = min(one, max(len(line) for line in lines))
        if _wrappable(array):  # the narrowest wrapping, found by halving (wider never hurts)
            low, high = 1, one
            while low < high:
                middle = (low + high) // 2
                low, high = (low, middle) if self._wrapped(middle) else (middle + 1, high)
            one = low
        first = format_values(array.reshape(-1)[:1], self.dtype, _options(math.inf))[1:-1]
        summary = len(_first_items_text(array.shape, first, more=array.shape[-1] > 1))
        return one, summary, min(one, summary, 2 * array.ndim + 3)


def _wrappable(array: np.ndarray) -> bool:
    """A vector short enough to show whole is also shown wrapped over a few lines."""
    return array.ndim == 1 and array.size <= CELL_OPTIONS.threshold


def _wrapped_lines(vector: np.ndarray) -> int:
    """The most lines a wrapped vector may take: MAX_WRAPPED_LINES, at two items a line."""
    return max(1, min(MAX_WRAPPED_LINES, (vector.shape[0] + 1) // 2))


def first_items(array: np.ndarray, dtype: DType, width: int) -> str | None:
    """`[[0.4963, 0.7682, ...], ...]`: as many of the first row's leading items as fit in
    `width`, formatted as PyTorch formats them when they are what it shows; None if not one."""
    row = array.reshape(-1, array.shape[-1])[0]
    best = None
    for count in range(1, len(row) + 1):
        items = format_values(row[:count], dtype, _options(math.inf, 3, math.inf))[1:-1]
        text = _first_items_text(array.shape, items, more=count < len(row))
        if len(text) > width:
            break
        best = text
    return best


def _first_items_text(shape: tuple[int, ...], items: str, more: bool) -> str:
    closing = "".join(", ...]" if size > 1 else "]" for size in reversed(shape[:-1]))
    return "[" * len(shape) + items + (", ..." if more else "") + "]" + closing


def _options(width: float, edgeitems: int = 3, threshold: float | None = None) -> PrintOptions:
    return PrintOptions(precision=CELL_OPTIONS.precision,
                        threshold=CELL_OPTIONS.threshold if threshold is None else threshold,
                        edgeitems=edgeitems,
                        linewidth=int(min(width, 10**6)) if width > 0 else 1)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
