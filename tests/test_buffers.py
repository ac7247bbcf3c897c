"""The pool of large result arrays (gradsh.engine.buffers): an array is reused only once no one
else references it, results and gradients are the same bits with the pool as without, and a
statement gives its free arrays back when it ends."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from gradsh.engine import buffers, ops
from gradsh.interpreter import Interpreter
from gradsh.parser import parse

N = 1_100_000  # 4.4 MB of float32: just past the pool's threshold


@pytest.fixture
def pool() -> Iterator[None]:
    buffers.enable()
    try:
        yield
    finally:
        buffers.enable(False)


def test_an_array_is_reused_only_when_free(pool: None) -> None:
    a = buffers.empty((N,), np.float32)
    b = buffers.empty((N,), np.float32)
    assert b is not a  # `a` is still referenced
    del b
    c = buffers.empty((N,), np.float32)
    assert c.flags.owndata and c.flags.c_contiguous and c.shape == (N,)
    view = c[:10]
    del c
    d = buffers.empty((N,), np.float32)
    assert not np.shares_memory(d, view)  # a view keeps its base busy
    assert buffers.empty((N,), np.float64).dtype == np.float64
    small = buffers.empty((10,), np.float32)
    assert buffers.holds(small) == 0 and buffers.holds(d) == 1
    del a, d, view
    buffers.trim()
    assert buffers._pool == []


def test_off_by_default_and_small_arrays_never_pooled() -> None:
    assert not buffers._enabled
    buffers.empty((N,), np.float32)
    assert buffers._pool == []


def test_free_arrays_are_bounded(pool: None) -> None:
    for size in range(N, N + 10):  # ten different sizes, each freed at once
        buffers.empty((size,), np.float32)
    assert len(buffers._pool) <= buffers.MAX_FREE


def _chain_grads() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    x, w, b = (ops.tensor(rng.random(N, dtype=np.float32), requires_grad=True)
               for _ in range(3))
    for _ in range(3):
        loss = ((x * w + b).tanh() * x).sum()
        loss.backward()
    return [loss.detach().numpy().copy()] + [t.grad.numpy().copy() for t in (x, w, b)]


def test_the_same_bits_with_the_pool(pool: None) -> None:
    with_pool = _chain_grads()
    buffers.enable(False)
    without = _chain_grads()
    for a, b in zip(with_pool, without, strict=True):
        assert np.array_equal(a.view(np.int32), b.view(np.int32))


class _Counting:
    """numpy for the pool module, counting the arrays it makes."""

    def __init__(self, made: list) -> None:
        self.made = made

    def __getattr__(self, name: str):
        return getattr(np, name)

    def empty(self, shape, dtype):
        array = np.empty(shape, dtype)
        if array.nbytes >= buffers.MIN_BYTES:
            self.made.append(array.shape)
        return array


def _run(interp: Interpreter, source: str) -> None:
    for stmt in parse(source, "<test>").body:
        outcome = interp.run_statement(stmt)
        assert outcome.ok, outcome.error


def test_a_statement_gives_its_free_arrays_back(pool: None) -> None:
    source = (f"seed 0\nx = rand({N}, grad)\nw = rand({N}, grad)\nb = rand({N}, grad)\n"
              "repeat 3 { loss = ((x*w + b).tanh() * x).sum(); loss.backward() }\n")
    interp = Interpreter("<test>", source)
    made: list = []
    buffers.np = _Counting(made)
    try:
        _run(interp, source)
    finally:
        buffers.np = np
    # 3 iterations of 9 large results and 3 copies by the undo log: 30 arrays without the pool
    assert 0 < len(made) < 15
    held = [interp.env[name].grad._data for name in "xwb"]
    # what the statement freed stays for the next statement
    assert any(not any(array is grad for grad in held) for array in buffers._pool)
    # ... which gives back what it did not use: the pool lists only what is in use, the .grad
    # arrays AccumulateGrad took over from it
    _run(interp, "y = 1\n")
    assert all(any(array is grad for grad in held) for array in buffers._pool)
    grads = [interp.env[name].grad.numpy().copy() for name in "xwb"]
    buffers.enable(False)
    plain = Interpreter("<test>", source)
    _run(plain, source)
    for name, ours in zip("xwb", grads, strict=True):
        assert np.array_equal(ours, plain.env[name].grad.numpy())


def test_a_loop_run_statement_after_statement_reuses_its_arrays(pool: None) -> None:
    """Each statement keeps what it freed for the next, so the third run of the same loop (the
    first that starts with .grad arrays and the undo log's copies of them warmed up) makes no
    array: a loop written as statements does not give its memory back only to map it again."""
    step = "repeat 2 { loss = ((x*w + b).tanh() * x).sum(); loss.backward() }\n"
    interp = Interpreter("<test>", step)
    _run(interp, f"x = rand({N}, grad)\nw = rand({N}, grad)\nb = rand({N}, grad)\n")
    made: list = []
    buffers.np = _Counting(made)
    try:
        counts = []
        for _ in range(4):
            _run(interp, step)
            counts.append(len(made))
            made.clear()
    finally:
        buffers.np = np
    assert counts[0] > 0 and counts[2:] == [0, 0]


def test_what_a_statement_keeps_is_bounded(pool: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement that held many large arrays at once keeps at most _max_free_bytes of them
    for the next statement."""
    monkeypatch.setattr(buffers, "MAX_FREE_BYTES", 4 * N * 4)  # four arrays' worth
    buffers.trim()
    arrays = [buffers.empty((N,), np.float32) for _ in range(10)]
    ours = {id(array) for array in arrays}
    del arrays
    buffers.settle()
    assert sum(id(array) in ours for array in buffers._pool) == 4
    buffers.settle()  # unused for a whole statement: given back
    assert not any(id(array) in ours for array in buffers._pool)
