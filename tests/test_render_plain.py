"""The variable table laid out for a width (gradsh.table_layout) and drawn plain: headers are
never cut, numbers never broken, values summarised when they do not fit, columns that tell
nothing dropped first, a new variable marked once, `retains_grad` shown once it is set."""

from __future__ import annotations

import io
import itertools
import re

import numpy as np
import pytest

from gradsh import render
from gradsh.engine import dtypes
from gradsh.render import Renderer
from gradsh.runner import RunOptions, run_source
from gradsh.snapshot import TensorState
from gradsh.table_layout import COLUMNS, cell_text, first_items, lay_out, widths_needed

NUMBER = re.compile(r"-?(\d+\.?\d*(e[+-]\d+)?|nan|inf)")


def run(source: str, width: int = 100) -> str:
    out = io.StringIO()
    code = run_source(source, "<t>", RunOptions(width=width), out, io.StringIO())
    assert code == 0
    return out.getvalue()


def test_non_finite_values_show_in_the_plain_table() -> None:
    # `[nan, 1.]` in a str cell was rich markup to rich, and vanished from the table
    last_table = run("a = tensor([nan, 1.])\nb = tensor([[nan, 1.], [2., inf]])\n").splitlines()
    assert [line.split()[:3] for line in last_table[-3:-1]] == [["a", "[nan,", "1.]"],
                                                                ["b*", "[[nan,", "1.],"]]


def _state(name: str, value: np.ndarray, grad: np.ndarray | None, grad_fn: str | None,
           device: str = "cpu", retains_grad: bool = False) -> TensorState:
    dtype = dtypes.from_numpy(value.dtype)
    return TensorState(name, value, dtype, device, grad_fn is not None or grad is not None,
                       grad_fn is None, grad_fn, grad, dtype if grad is not None else None,
                       retains_grad)


def _tables(seed: int) -> list[list[TensorState]]:
    """Steps of a session: tables whose values change, grow, get grads, and go wide."""
    rng = np.random.default_rng(seed)
    shapes = [(), (1,), (3,), (7,), (2, 3), (40,), (1000,), (5, 5), (2, 2, 2), (0,), (12, 30),
              (1, 64), (3, 1, 2)]
    steps = []
    for _ in range(6):
        states = []
        for i in range(int(rng.integers(1, 8))):
            shape = shapes[int(rng.integers(len(shapes)))]
            kind = int(rng.integers(4))
            if kind == 0:
                scale = 10.0 ** rng.integers(-6, 9)
                value = (rng.standard_normal(shape) * scale).astype(np.float32)
            elif kind == 1:
                value = rng.integers(-1000, 1000, shape)
            elif kind == 2:
                value = rng.random(shape) > 0.5
            else:
                value = rng.standard_normal(shape)
                value[...] = np.where(rng.random(shape) > 0.8, np.nan, value)
            grad = None
            if value.dtype.kind == "f" and rng.random() > 0.4:
                grad = rng.standard_normal(shape).astype(value.dtype)
            grad_fn = ["MulBackward0", None, "LinalgVectorNormBackward0"][int(rng.integers(3))]
            name = "x" * int(rng.integers(1, 3)) + str(i) + ("_long_name" * int(rng.integers(2)))
            retains = grad_fn is not None and rng.random() > 0.7
            states.append(_state(name, value, grad, grad_fn, retains_grad=retains))
        steps.append(states)
    return steps


def _render(steps: list[list[TensorState]], width: int) -> list[str]:
    out = io.StringIO()
    renderer = Renderer(out, io.StringIO(), False, width)
    tables = []
    for states in steps:
        renderer.table(states)
        tables.append(out.getvalue())
        out.seek(0)
        out.truncate()
    return tables


@pytest.mark.parametrize("seed, width", list(itertools.product(range(10), (40, 80, 100, 160))))
def test_headers_are_whole_and_numbers_unbroken_at_any_width(seed: int, width: int) -> None:
    steps = _tables(seed)
    for states, table in zip(steps, _render(steps, width), strict=True):
        lines = table.splitlines()
        header, rule = lines[0].split(), lines[1].split()
        assert set(header) <= set(COLUMNS) and header[0] == "name"
        # Each column is at least as wide as its header: the rule under it says so.
        assert len(rule) == len(header)
        assert all(len(dashes) >= len(word) for dashes, word in zip(rule, header, strict=True))
        # A value over several lines breaks only after a comma, never inside a number (rich's
        # fold broke `1.2345e-01` anywhere).
        for cell in _cells(lines, "value") + _cells(lines, "grad"):
            assert all(line.rstrip().endswith(",") for line in cell[:-1]), cell
        # The table is wider than the width only when nothing more can give: the columns
        # that may go are gone, and each value is as short as a value can be.
        if max(len(line) for line in lines) > width:
            assert "device" not in header or any(s.device != "cpu" for s in states), table
            assert "dtype" not in header or any(s.dtype.name != "float32" for s in states), table
            spans = dict(zip(header, rule, strict=True))
            for column in ("value", "grad"):
                arrays = [s.value if column == "value" else s.grad for s in states]
                least = max([len(column)] + [(_shortest(a) if a is not None else 4) + 1
                                             for a in arrays])  # `None*`
                assert len(spans[column]) <= least, table


def _shortest(array: np.ndarray) -> int:
    """The narrowest a cell can show `array`: a scalar whole, a tensor as brackets `[[...]]`."""
    if array.ndim == 0:
        return len(cell_text(array, dtypes.from_numpy(array.dtype), 1)[0])
    return 2 if array.size == 0 else 2 * array.ndim + 3


def _cells(lines: list[str], column: str) -> list[list[str]]:
    """Each row's cell of `column`, line by line, read at the span of its dashes."""
    header, rule = lines[0], lines[1]
    if column not in header.split():
        return []
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    start, end = spans[header.split().index(column)]
    cells: list[list[str]] = []
    for line in lines[2:]:
        if line[:1].strip():  # a row's first line starts with its name
            cells.append([])
        cells[-1].append(line[start:end].strip())
    return [[text for text in cell if text] for cell in cells]


def test_a_new_variable_is_marked_once_on_its_name() -> None:
    out = run("a = tensor([1., 2.], grad)\nb = a * 2\n")
    rows = [line for line in out.splitlines() if line.startswith(("a", "b"))]
    assert rows[0].startswith("a* ") and rows[0].count("*") == 1
    assert rows[-1].startswith("b* ") and rows[-1].count("*") == 1
    assert rows[-2].startswith("a ") and "*" not in rows[-2]


def test_retain_grad_adds_a_retains_grad_column_with_the_change_marked() -> None:
    out = run("a = tensor(2., grad)\nc = a * a\nc.retain_grad()\nc.backward()\n")
    steps = out.split(">>> ")
    assert "retains_grad" not in steps[2]
    after = steps[3].splitlines()
    assert after[1].split() == ["name", "value", "shape", "dtype", "device", "requires_grad",
                                "is_leaf", "grad_fn", "retains_grad", "grad"]
    assert after[3].split()[:9] == ["a", "2.", "[]", "float32", "cpu", "True", "True", "None",
                                    "False"]
    assert after[4].split()[8] == "True*"
    grads = [line.split()[-1] for line in steps[4].splitlines()[3:5]]
    assert grads == ["4.*", "1.*"]  # a leaf's grad, dc/da = 2a, and the retained dc/dc


def test_at_80_columns_columns_that_tell_nothing_go_before_values_are_cut() -> None:
    source = "w = arange(12.).reshape(3, 4)\nb = w * 2\nc = b.sum(0)\n"
    wide = run(source, 100).split(">>> ")[-1].splitlines()
    narrow = run(source, 80).split(">>> ")[-1].splitlines()
    assert "device" in wide[1] and "dtype" in wide[1]
    assert "device" not in narrow[1]  # every tensor is on the cpu: the column goes first
    assert max(len(line) for line in narrow) <= 80
    assert "[ 0.,  1.,  2.,  3.]," in "\n".join(narrow)  # the matrix is still whole


def test_a_value_too_wide_shows_its_first_items() -> None:
    value = (np.arange(250, dtype=np.float32).reshape(50, 5) + 1) / 7
    text, level = cell_text(value, dtypes.float32, 30)
    assert text == "[[0.1429, 0.2857, ...], ...]" and len(text) <= 30
    assert first_items(value, dtypes.float32, 12) is None  # not even one item fits
    assert cell_text(value, dtypes.float32, 10)[0] == "[[...]]"
    full, summary = widths_needed(value, dtypes.float32)
    assert summary == len("[[0.1429, ...], ...]")
    assert cell_text(value, dtypes.float32, summary)[0] == "[[0.1429, ...], ...]"


def test_small_matrices_keep_one_row_a_line_and_vectors_wrap_as_pytorch_wraps() -> None:
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert cell_text(matrix, dtypes.float32, 14) == ("[[0., 1., 2.],\n [3., 4., 5.]]", 2)
    vector = np.arange(5, dtype=np.float32)
    assert cell_text(vector, dtypes.float32, 12) == ("[0., 1., 2.,\n 3., 4.]", 2)


def test_a_layout_is_the_same_for_the_same_table() -> None:
    states = _tables(3)[-1]
    marks = [{} for _ in states]
    assert lay_out(states, marks, 100, 1) == lay_out(states, marks, 100, 1)


def test_plain_lines_mark_a_changed_cell_with_a_star() -> None:
    state = _state("a", np.arange(3, dtype=np.float32), None, None)
    layout = lay_out([state], [{"value": True}], 100, 1)
    lines = render.plain_lines(layout)
    assert lines[0].startswith("name value")
    assert lines[2].split()[:2] == ["a", "[0.,"] and "2.]*" in lines[2]


def test_a_coloured_table_is_written_as_rich_prints_it() -> None:
    # Renderer.table writes each piece between the escape codes of its style itself: byte for
    # byte what printing the lines through rich on a colour terminal gives.
    from rich.console import Console
    from rich.text import Text

    for states in _tables(7):
        buffers = [io.StringIO(), io.StringIO()]
        consoles = [Console(file=b, width=100, force_terminal=True, color_system="256",
                            highlight=False, soft_wrap=True) for b in buffers]
        renderer = Renderer(buffers[0], io.StringIO(), True, 100)
        renderer.out = consoles[0]
        renderer.table(states)  # a first table: every name marked new, highlighted
        layout = lay_out(states, [{"name": True}] * len(states), 100, 0)
        for line in render._table_lines(layout, color=True):
            consoles[1].print(Text.assemble(*line), soft_wrap=True)
        assert "\x1b[" in buffers[0].getvalue()
        assert buffers[0].getvalue() == buffers[1].getvalue()


@pytest.mark.parametrize("width", [60, 80, 100])
def test_a_coloured_table_has_the_same_layout_without_the_stars(width: int) -> None:
    """On a terminal the same layout is drawn by rich, highlighted instead of starred: rich
    is given every width and never shrinks a column, so no header is cut there either."""
    states = _tables(5)[2]
    out = io.StringIO()
    renderer = Renderer(out, io.StringIO(), True, width)
    renderer.table(states, marks=False)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).splitlines()
    plain = io.StringIO()
    Renderer(plain, io.StringIO(), False, width).table(states, marks=False)
    expected = plain.getvalue().splitlines()
    assert [line.rstrip() for line in shown[:1] + shown[2:]] == expected[:1] + expected[2:]
    assert set(shown[1]) == {"─"} and len(shown[1].rstrip()) == len(expected[1])
