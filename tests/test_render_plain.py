"""The plain table: cells are text, never rich markup, and the fast layout
(render.plain_table_lines) is rich's layout, byte for byte."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest

from gradsh import render
from gradsh.engine import dtypes
from gradsh.render import Renderer
from gradsh.runner import RunOptions, run_source
from gradsh.snapshot import TensorState


def test_non_finite_values_show_in_the_plain_table() -> None:
    # `[nan, 1.]` in a str cell was rich markup to rich, and vanished from the table
    out = io.StringIO()
    code = run_source("a = tensor([nan, 1.])\nb = tensor([[nan, 1.], [2., inf]])\n", "<t>",
                      RunOptions(), out, io.StringIO())
    assert code == 0
    last_table = out.getvalue().splitlines()[-3:-1]
    assert [line.split()[:3] for line in last_table] == [["a", "[nan,", "1.]"],
                                                         ["b*", "[[nan,", "1.],"]]


def _state(name: str, value: np.ndarray, grad: np.ndarray | None, grad_fn: str | None,
           ) -> TensorState:
    dtype = dtypes.from_numpy(value.dtype)
    return TensorState(name, value, dtype, "cpu", grad_fn is not None or grad is not None,
                       grad_fn is None, grad_fn, grad, dtype if grad is not None else None,
                       False)


def _tables(seed: int) -> list[list[TensorState]]:
    """Steps of a session: tables whose values change, grow, get grads, and go wide."""
    rng = np.random.default_rng(seed)
    shapes = [(), (1,), (3,), (7,), (2, 3), (40,), (1000,), (5, 5), (2, 2, 2), (0,), (12, 30)]
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
            states.append(_state(name, value, grad, grad_fn))
        steps.append(states)
    return steps


def _render(steps: list[list[TensorState]], width: int, fast: bool,
            monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    renderer = Renderer(out, io.StringIO(), False, width)
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(render, "plain_table_lines", lambda *args: None)
        for states in steps:
            renderer.table(states)
        renderer.table(steps[-1], marks=False)
    return out.getvalue()


@pytest.mark.parametrize("seed, width", list(itertools.product(range(12), (30, 60, 100, 160))))
def test_fast_plain_table_is_rich_layout(seed: int, width: int,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    steps = _tables(seed)
    assert _render(steps, width, True, monkeypatch) == _render(steps, width, False, monkeypatch)


def test_fast_path_is_taken_for_an_ordinary_table() -> None:
    state = _state("a", np.arange(3, dtype=np.float32), None, None)
    lines = render.plain_table_lines([render.tensor_cells(state).values()], 12, 4, 100)
    assert lines is not None and lines[0].startswith("name")
