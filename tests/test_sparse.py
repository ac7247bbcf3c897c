"""Sparse COO tensors as GCN programs use them: construction, coalescing, reprs, sparse @ dense
and its gradients, torch.sparse.sum, against PyTorch (float32 bits) and finite differences."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _outcome(action: Callable[[], Any]) -> str:
    try:
        return repr(action())
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def _basics(lib: Any) -> list[str]:
    lib.manual_seed(0)
    i = lib.tensor([[0, 1, 1, 2, 1], [2, 0, 2, 1, 2]])
    v = lib.tensor([3.0, 4.0, 5.0, 6.0, 0.5], requires_grad=True)
    s = lib.sparse_coo_tensor(i, v, (3, 3))
    c = s.coalesce()
    d = lib.randn(3, 2, requires_grad=True)
    seen = [repr(s), type(s.grad_fn).__name__, repr(s.is_sparse), str(s.layout),
            repr(s.is_coalesced()), repr(s._nnz()), str(s.shape), repr(s._indices()),
            repr(s._values()), repr(c), repr(c.indices()), repr(c.values()),
            repr(s.to_dense()), _outcome(s.indices), _outcome(s.values),
            _outcome(lambda: s + lib.eye(3)), repr(lib.eye(3) + s), repr(s * 2), repr(s.t()),
            repr(lib.sparse.sum(s)), repr(lib.sparse.sum(s, dim=0)),
            repr(lib.sparse.sum(s, dim=1))]
    for product in (lambda: lib.sparse.mm(s, d), lambda: s @ d, lambda: lib.mm(s, d),
                    lambda: lib.spmm(s, d), lambda: lib.matmul(s, d)):
        seen.append(repr(product()))
    lib.sparse.mm(s, d).sum().backward()
    seen += [repr(d.grad), repr(v.grad)]
    dense = lib.tensor([[0.0, 1.5], [2.0, 0.0]])
    seen += [repr(dense.to_sparse()), repr(dense.to_sparse().is_coalesced()),
             repr(lib.sparse_coo_tensor(i, lib.ones(5), (3, 3), dtype=lib.int64)),
             repr(lib.sparse_coo_tensor(i, lib.ones(5))),
             repr(lib.sparse_coo_tensor(lib.tensor([[0, 0]]), lib.tensor([1.0, 2.0]),
                                        (2,)).coalesce()),
             repr(lib.diag(lib.tensor([1.0, 0.0, 2.0])).to_sparse() @ lib.ones(3, 2)),
             repr(s + s), repr(c + c), repr((c + dense.new_ones(3, 3).to_sparse())._nnz())]
    return seen


def test_sparse_basics_match_torch(torch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _basics(gtorch) == _basics(torch)


def _products(lib: Any, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    n, m, k, nnz = 9, 11, 6, 60  # (duplicates: their sums' order is std::sort's)
    idx = np.stack([rng.integers(0, n, nnz), rng.integers(0, m, nnz)])
    val = rng.standard_normal(nnz).astype(np.float32)
    dense = rng.standard_normal((m, k)).astype(np.float32)
    weights = rng.standard_normal((n, k)).astype(np.float32)
    d = lib.tensor(dense, requires_grad=True)
    v = lib.tensor(val, requires_grad=True)
    s = lib.sparse_coo_tensor(lib.tensor(idx), v, (n, m))
    out = lib.sparse.mm(s, d)
    (out * lib.tensor(weights)).sum().backward()
    c = s.coalesce()
    return [out.detach().numpy(), d.grad.numpy(), v.grad.numpy(), c._indices().numpy(),
            c._values().detach().numpy(), lib.sparse.sum(s).detach().numpy(),
            lib.sparse.sum(s, dim=1).to_dense().detach().numpy()]


@pytest.mark.parametrize("seed", range(6))
def test_float32_bits_match_torch(torch: Any, seed: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for ours, theirs in zip(_products(gtorch, seed), _products(torch, seed), strict=True):
            np.testing.assert_array_equal(ours, theirs)


def test_gradients_against_finite_differences() -> None:
    rng = np.random.default_rng(7)
    idx = gtorch.tensor(np.stack([rng.integers(0, 4, 10), rng.integers(0, 5, 10)]))
    values = gtorch.tensor(rng.standard_normal(10), dtype=gtorch.float64, requires_grad=True)
    dense = gtorch.tensor(rng.standard_normal((5, 3)), dtype=gtorch.float64,
                          requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        def product(v: Any, d: Any) -> Any:
            return gtorch.sparse.mm(gtorch.sparse_coo_tensor(idx, v, (4, 5)), d).tanh()

        assert gtorch.autograd.gradcheck(product, (values, dense))
        assert gtorch.autograd.gradcheck(
            lambda v: gtorch.sparse.sum(gtorch.sparse_coo_tensor(idx, v, (4, 5))) * 3,
            (values,))


def _strided(lib: Any) -> list[str]:
    """The sparse accessors on a strided tensor: present as methods (PINN code reads
    torch.mean(x, dim=0).values without calling it), PyTorch's layout errors when called."""
    x = lib.arange(6.0).reshape(2, 3)
    seen = [repr(callable(x.values)), repr(x.sparse_dim()), repr(x.dense_dim()),
            repr(lib.mean(x, dim=0).values is not None)]
    for name in ("values", "indices", "coalesce", "is_coalesced", "crow_indices",
                 "col_indices"):
        seen.append(_outcome(getattr(x, name)))
    return seen


def test_strided_sparse_accessors_match_torch(torch: Any) -> None:
    assert _strided(gtorch) == _strided(torch)


def _hybrid_sums(lib: Any) -> list[str]:
    """torch.sparse.sum over a hybrid tensor (two sparse, two dense dimensions): dense
    dimensions reduce the values, and with every sparse dimension summed the result is dense."""
    lib.manual_seed(0)
    indices = lib.tensor([[2, 3, 0, 2], [7, 9, 0, 7]])
    v = lib.randn(4, 2, 3, requires_grad=True)
    seen = []
    for dims in [(0, 1), (0,), (1,), (2,), (0, 2), (1, 3), (0, 1, 2), (2, 3), (-1,)]:
        h = lib.sparse_coo_tensor(indices, v, (10, 10, 2, 3))
        g = lib.sparse.sum(h, dim=dims)
        plain = g.to_dense() if g.is_sparse else g
        (plain * lib.arange(plain.numel(), dtype=plain.dtype).view(plain.shape)).sum().backward()
        seen += [repr(g.is_sparse), str(g.shape), type(g.grad_fn).__name__, repr(plain),
                 repr(v.grad)]
        v.grad = None
    return seen


def test_hybrid_sparse_sum_matches_torch(torch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _hybrid_sums(gtorch) == _hybrid_sums(torch)
