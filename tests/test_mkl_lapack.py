"""MKL's getrf/getrs (gradsh/engine/vecmath/lapack.py) and float64 products (blas.py): inv,
solve, det, slogdet, mm, addmm, mv, dot and bmm are torch's bits, float32 and float64, single
and batched, contiguous and transposed inputs.

Skipped where the `mkl` package is not loaded, a failure where CI requires it
(GRADSH_REQUIRE_MKL=1).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.vecmath import lapack


@pytest.fixture(scope="module")
def mkl_lapack() -> None:
    if not lapack.available(np.dtype(np.float32)):
        if os.environ.get("GRADSH_REQUIRE_MKL"):
            pytest.fail("GRADSH_REQUIRE_MKL is set but MKL's LAPACK did not load")
        pytest.skip("MKL (the mkl package) is not loaded")


CASES = {
    "inv": lambda L, A, B, v: L.linalg.inv(A),
    "inv_transposed": lambda L, A, B, v: L.linalg.inv(A.mT),
    "inverse": lambda L, A, B, v: L.inverse(A),
    "solve": lambda L, A, B, v: L.linalg.solve(A, B),
    "solve_vector": lambda L, A, B, v: L.linalg.solve(A, v),
    "solve_right": lambda L, A, B, v: L.linalg.solve(A, B.mT, left=False),
    "det": lambda L, A, B, v: L.linalg.det(A),
    "det_transposed": lambda L, A, B, v: L.linalg.det(A.mT),
    "slogdet": lambda L, A, B, v: L.linalg.slogdet(A)[1],
}


@pytest.mark.parametrize("batch", [(), (3,)], ids=["one", "batch"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_bits_match_torch(mkl_lapack: None, one_thread: None, torch: Any, name: str,
                          dtype: type, batch: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sorted(CASES).index(name))
    for n in (1, 2, 5, 17, 33, 100):
        A = rng.standard_normal(batch + (n, n)).astype(dtype)
        B = rng.standard_normal(batch + (n, 4)).astype(dtype)
        v = rng.standard_normal(batch + (n,)).astype(dtype)
        ours = CASES[name](gt, *(gt.from_numpy(x.copy()) for x in (A, B, v))).numpy()
        theirs = CASES[name](torch, *(torch.from_numpy(x.copy()) for x in (A, B, v))).numpy()
        assert ours.shape == theirs.shape
        assert np.array_equal(ours, theirs), f"n={n}: {(ours != theirs).sum()} differ"


def test_singular_errors_name_torchs_element(mkl_lapack: None, torch: Any) -> None:
    """linalg.inv factors A itself in PyTorch 2.13: its error names A's zero pivot."""
    rows = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]
    messages = []
    for lib in (gt, torch):
        try:
            lib.linalg.inv(lib.tensor(rows))
        except Exception as exc:  # noqa: BLE001 - the two libraries' own error classes
            messages.append(str(exc).splitlines()[0])
    assert len(messages) == 2 and messages[0] == messages[1]
    assert "element 3 is zero" in messages[0]


DOUBLE_PRODUCTS = {
    "mm": lambda L, a, b, bias, v: L.from_numpy(a) @ L.from_numpy(b),
    "mm_transposed": lambda L, a, b, bias, v: L.from_numpy(a) @ L.from_numpy(b.T.copy()).T,
    "addmm": lambda L, a, b, bias, v: L.addmm(L.from_numpy(bias), L.from_numpy(a),
                                              L.from_numpy(b)),
    "mv": lambda L, a, b, bias, v: L.from_numpy(a) @ L.from_numpy(v),
    "dot": lambda L, a, b, bias, v: L.dot(L.from_numpy(v), L.from_numpy(v)),
    "bmm": lambda L, a, b, bias, v: L.bmm(L.from_numpy(a).expand(3, *a.shape),
                                          L.from_numpy(b).expand(3, *b.shape)),
}


@pytest.mark.parametrize("name", sorted(DOUBLE_PRODUCTS))
def test_float64_products_match_torch(mkl_lapack: None, one_thread: None, torch: Any,
                                      name: str) -> None:
    """float64 mm, addmm, mv, dot and bmm: MKL's dgemm/dgemv/ddot as ATen calls them (and
    ATen's own unfused loop for a small bmm)."""
    rng = np.random.default_rng(sorted(DOUBLE_PRODUCTS).index(name))
    for m, k, n in [(1, 1, 1), (3, 5, 7), (17, 33, 65), (64, 128, 10), (1, 200, 3), (300, 70, 2)]:
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        bias, v = rng.standard_normal(n), rng.standard_normal(k)
        ours = DOUBLE_PRODUCTS[name](gt, a, b, bias, v).numpy()
        theirs = DOUBLE_PRODUCTS[name](torch, a, b, bias, v).numpy()
        assert np.array_equal(ours, theirs), f"{(m, k, n)}: {(ours != theirs).sum()} differ"
