"""Element-wise ufuncs split over threads (gradsh/engine/threads.py) give the single call's
results bit for bit, and leave everything they cannot split to the single call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from gradsh.engine import ops, threads
from gradsh.engine.tensor import Tensor


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Split small arrays into three chunks on any machine, one core or many."""
    monkeypatch.setattr(threads, "THREADS", 3)
    monkeypatch.setattr(threads, "MIN_ELEMENTS", 1000)
    yield


def _arrays(dtype: Any, size: int = 4099) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(size) * 3).astype(dtype)
    y = (rng.standard_normal(size) * 3).astype(dtype)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 88.7, -88.8]
    return x, y


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


UNARY = [np.tanh, np.exp, np.log, np.sin, np.cos, np.sqrt, np.expm1, np.log1p, np.negative,
         np.abs]
BINARY = [np.add, np.subtract, np.multiply, np.divide, np.maximum, np.power]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", UNARY, ids=lambda f: f.__name__)
def test_unary_ufuncs_split_bit_for_bit(split: None, ufunc: np.ufunc, dtype: Any) -> None:
    x, _ = _arrays(dtype)
    with np.errstate(all="ignore"):
        assert _same(threads.elementwise(ufunc, x), ufunc(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("ufunc", BINARY, ids=lambda f: f.__name__)
def test_binary_ufuncs_split_bit_for_bit(split: None, ufunc: np.ufunc, dtype: Any) -> None:
    x, y = _arrays(np.float64)
    x, y = np.nan_to_num(x).astype(dtype), np.nan_to_num(y).astype(dtype)
    if dtype is np.int64 and ufunc is np.power:
        x, y = np.abs(x % 1000), np.abs(y) % 3
    with np.errstate(all="ignore"):
        assert _same(threads.elementwise(ufunc, x, y), ufunc(x, y))
        # a scalar, a 0-d array and a stride-0 broadcast operand keep NumPy's type promotion
        for other in (2.5, 3, np.float32(0.5), np.array(1.5), np.broadcast_to(
                np.float32(0.25), x.shape)):
            assert _same(threads.elementwise(ufunc, x, other), ufunc(x, other))
            assert _same(threads.elementwise(ufunc, other, x), ufunc(other, x))


def test_dtype_and_out_are_honoured(split: None) -> None:
    x, y = _arrays(np.float32)
    assert _same(threads.elementwise(np.multiply, x, y, dtype=np.float64),
                 np.multiply(x, y, dtype=np.float64))
    out = x.copy()
    result = threads.elementwise(np.add, out, y, out=out)
    assert result is out and _same(out, x + y)
    matrix = x[:4096].reshape(64, 64)
    assert _same(threads.elementwise(np.exp, matrix), np.exp(matrix))


def test_what_cannot_be_split_is_one_call(split: None) -> None:
    x, y = _arrays(np.float64)
    calls: list[int] = []
    original = threads._executor

    def counting() -> Any:
        calls.append(1)
        return original()

    threads._executor = counting  # type: ignore[assignment]
    try:
        strided = x[::2]
        assert _same(threads.elementwise(np.multiply, strided, strided),
                     np.multiply(strided, strided))
        column = x[:4096].reshape(64, 64)[:, :1]  # broadcast along one axis only
        square = y[:4096].reshape(64, 64)
        assert _same(threads.elementwise(np.add, square, column), square + column)
        small = x[:999]
        assert _same(threads.elementwise(np.exp, small), np.exp(small))
        assert calls == []
        threads.elementwise(np.exp, x)
        assert calls
    finally:
        threads._executor = original  # type: ignore[assignment]


def test_errors_are_numpys(split: None) -> None:
    x, _ = _arrays(np.float64)
    with pytest.raises(TypeError):
        threads.elementwise(np.add, x, np.array(["a"]))
    with pytest.raises(TypeError):  # NumPy's UFuncTypeError: casting float64 into int64
        threads.elementwise(np.add, x, x, out=x.astype(np.int64))


def _loss_and_grads() -> list[bytes]:
    rng = np.random.default_rng(3)
    leaves = [Tensor._make(rng.random(5000, dtype=np.float32), "cpu") for _ in range(3)]
    for leaf in leaves:
        leaf.requires_grad_()
    x, w, b = leaves
    h = ops.add(ops.mul(x, w), b)
    loss = ops.sum(ops.add(ops.mul(ops.tanh(h), x), ops.mul(ops.sigmoid(h), 0.5)))
    loss.backward()
    out = [np.asarray(loss._data).tobytes()]
    return out + [np.asarray(leaf.grad._data).tobytes() for leaf in leaves]  # type: ignore[union-attr]


def test_a_forward_and_backward_are_the_same_split_or_not(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(threads, "THREADS", 1)
    single = _loss_and_grads()
    monkeypatch.setattr(threads, "THREADS", 3)
    monkeypatch.setattr(threads, "MIN_ELEMENTS", 1000)
    assert _loss_and_grads() == single


def test_a_single_element_with_more_dimensions_is_not_flattened(split: None) -> None:
    x, _ = _arrays(np.float64)
    one = np.array([[2.0]])
    assert _same(threads.elementwise(np.multiply, x, one), x * one)  # shape (1, 4099)
    grad = np.broadcast_to(np.float64(1.0), (3, x.size))  # a stride-0 gradient of a sum
    assert _same(threads.elementwise(np.multiply, grad, x[None, :]), grad * x[None, :])


def test_an_interrupt_while_waiting_lets_every_chunk_finish_first() -> None:
    import time

    done: list[int] = []

    class Slow:
        def __init__(self, n: int) -> None:
            self.n = n

        def exception(self) -> None:
            if not done:  # the first wait is interrupted, as Ctrl-C would
                done.append(0)
                raise KeyboardInterrupt
            time.sleep(0.01)
            done.append(self.n)

    futures = [Slow(1), Slow(2)]
    with pytest.raises(KeyboardInterrupt):
        threads._wait_for(futures)  # type: ignore[arg-type]
    assert done == [0, 1, 2]  # waited for both chunks before letting the interrupt through
