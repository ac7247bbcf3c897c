"""The two halves of the gradient namespaces agree: each ArrayOps helper on arrays gives what
its TensorOps twin gives on Tensors (the nn nodes' formulas run on either)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradsh.engine import ops
from gradsh.engine.tensor import ArrayOps, Tensor, TensorOps

RNG = np.random.default_rng(0)
BASE = RNG.standard_normal((3, 4))
INDEX = np.array([[0, 2, 2, 1], [1, 1, 0, 0]])
ROWS = np.array([2, 0, 2])
SOURCE = RNG.standard_normal((3, 4))

CASES: dict[str, tuple[Callable[[Any, Callable[[Any], Any]], Any], ...]] = {
    "unsqueeze": (lambda F, w: F.unsqueeze(w(BASE), 1),),
    "unsqueeze_last": (lambda F, w: F.unsqueeze(w(BASE), -1),),
    "index_add": (lambda F, w: F.index_add(w(BASE), 0, w(ROWS), w(SOURCE)),),
    "index_add_dim1": (lambda F, w: F.index_add(w(BASE.T.copy()), 1, w(ROWS),
                                                w(SOURCE.T.copy())),),
    "scatter_add": (lambda F, w: F.scatter_add(w(BASE), 1, w(INDEX), w(SOURCE[:2])),),
    "scatter_add_last": (lambda F, w: F.scatter_add(w(BASE), -1, w(INDEX), w(SOURCE[:2])),),
}


@pytest.mark.parametrize("name", list(CASES))
def test_array_and_tensor_helpers_agree(name: str) -> None:
    (case,) = CASES[name]
    on_arrays = case(ArrayOps, lambda a: a)
    on_tensors = case(TensorOps, lambda a: ops.tensor(
        a.tolist(), dtype=ops.float64 if a.dtype.kind == "f" else ops.int64))
    assert isinstance(on_tensors, Tensor)
    np.testing.assert_allclose(on_arrays, on_tensors._data, rtol=0, atol=1e-12)
    assert on_arrays.shape == tuple(on_tensors.shape)


def test_scatter_add_and_index_add_against_numpy() -> None:
    expected = BASE.copy()
    for i, row in enumerate(ROWS):
        expected[row] += SOURCE[i]
    np.testing.assert_allclose(ArrayOps.index_add(BASE, 0, ROWS, SOURCE), expected)
    expected = BASE.copy()
    for i in range(2):
        for j in range(4):
            expected[i, INDEX[i, j]] += SOURCE[i, j]
    np.testing.assert_allclose(ArrayOps.scatter_add(BASE, 1, INDEX, SOURCE[:2]), expected)
