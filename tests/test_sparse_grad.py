"""Sparse gradients: nn.Embedding(sparse=True), F.embedding and EmbeddingBag with sparse=True
give a sparse COO .grad (its repr, coalesce, to_dense, accumulation), and the optimizers that
take one (SGD, Adagrad, SparseAdam) or refuse it, against PyTorch (float32 bits)."""

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


def _grads(lib: Any) -> list[str]:
    nn, F = lib.nn, lib.nn.functional
    lib.manual_seed(0)
    emb = nn.Embedding(6, 3, sparse=True)
    idx = lib.tensor([[0, 2, 2], [5, 1, 0]])
    (emb(idx) * lib.arange(3.0)).sum().backward()
    g = emb.weight.grad
    seen = [repr(emb), repr(g), str(g.layout), repr(g.is_sparse), repr(g.is_coalesced()),
            repr(g.sparse_dim()), repr(g.dense_dim()), repr(g._nnz()), repr(g._indices()),
            repr(g._values()), repr(g.coalesce()), repr(g.to_dense()), _outcome(g.indices)]
    emb(lib.tensor([4])).sum().backward()  # += an uncoalesced one (non-contiguous values)
    seen += [repr(emb.weight.grad), repr(emb.weight.grad is g)]
    (emb(lib.tensor([3, 4])) * 2).sum().backward()  # += contiguous values: merged
    seen.append(repr(emb.weight.grad))
    emb.zero_grad(set_to_none=False)
    seen.append(repr(emb.weight.grad))
    w = lib.zeros(5, 2, requires_grad=True)
    (F.embedding(lib.tensor([1, 2]), w, sparse=True).sum()
     + F.embedding(lib.tensor([3]), w, sparse=True).sum()).backward()
    seen.append(repr(w.grad))
    w.grad = None
    (F.embedding(lib.tensor([1, 2]), w, sparse=True).sum() + w.sum()).backward()
    seen.append(repr(w.grad))
    w.grad = None
    F.embedding(lib.tensor([1, 1, 3]), w, padding_idx=1, sparse=True).sum().backward()
    seen.append(repr(w.grad))
    seen.append(_outcome(lambda: F.embedding(lib.tensor([1, 1]), w, sparse=True,
                                             scale_grad_by_freq=True).sum().backward()))
    for mode, kwargs in (("sum", {}), ("mean", {}), ("sum", {"per_sample_weights": True}),
                         ("mean", {"padding_idx": 2})):
        lib.manual_seed(1)
        bag = nn.EmbeddingBag(5, 3, mode=mode, sparse=True,
                              padding_idx=kwargs.get("padding_idx"))
        weights = lib.tensor([0.5, 2.0, -1.0, 3.0], requires_grad=True) \
            if "per_sample_weights" in kwargs else None
        out = bag(lib.tensor([0, 2, 2, 4]), lib.tensor([0, 3]), per_sample_weights=weights)
        (out * lib.tensor([1.0, 3.0, 7.0])).sum().backward()
        seen += [repr(out), repr(bag.weight.grad), repr(None if weights is None else weights.grad)]
    return seen


def test_sparse_gradients_match_torch(torch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _grads(gtorch) == _grads(torch)


def _train(lib: Any, name: str, kwargs: dict[str, Any], seed: int) -> list[Any]:
    """Three steps of an optimizer on an Embedding(sparse=True), with repeated lookups: the
    parameter's float32 bits after each (or the error)."""
    rng = np.random.default_rng(seed)
    lib.manual_seed(seed)
    emb = lib.nn.Embedding(7, 4, sparse=True)
    opt = getattr(lib.optim, name)(emb.parameters(), lr=0.05, **kwargs)
    seen: list[Any] = []
    for _ in range(3):
        idx = lib.tensor(rng.integers(0, 7, size=(3, 4)))
        target = lib.tensor(rng.standard_normal((3, 4, 4)).astype(np.float32))
        opt.zero_grad()
        ((emb(idx) - target) ** 2).mean().backward()
        try:
            opt.step()
        except Exception as error:  # noqa: BLE001
            seen.append(f"{type(error).__name__}: {error}")
            break
        seen.append(emb.weight.detach().numpy().copy().view(np.uint32))
    return seen


@pytest.mark.parametrize("name, kwargs", [
    ("SGD", {}), ("SGD", {"momentum": 0.9}), ("SGD", {"momentum": 0.9, "nesterov": True}),
    ("SGD", {"momentum": 0.5, "dampening": 0.1, "maximize": True}),
    ("SGD", {"weight_decay": 0.1}),
    ("Adagrad", {}), ("Adagrad", {"lr_decay": 0.1, "eps": 1e-6}),
    ("Adagrad", {"weight_decay": 0.1}),
    ("SparseAdam", {}), ("SparseAdam", {"betas": (0.8, 0.9), "maximize": True}),
    ("Adam", {}), ("AdamW", {}), ("RMSprop", {}), ("Adamax", {}), ("NAdam", {}),
    ("RAdam", {}), ("Adadelta", {}), ("ASGD", {}), ("Rprop", {}),
])
def test_optimizers_on_sparse_gradients_match_torch(torch: Any, name: str,
                                                    kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _train(gtorch, name, kwargs, 3), _train(torch, name, kwargs, 3)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(b, str):
            assert a == b
        else:
            np.testing.assert_array_equal(a, b)


def _sparse_adam_refusals(lib: Any) -> list[str]:
    p = lib.zeros(2, requires_grad=True)
    opt = lib.optim.SparseAdam([p])
    p.sum().backward()
    return [_outcome(opt.step), _outcome(lambda: lib.optim.SparseAdam([p], lr=-1)),
            _outcome(lambda: lib.optim.SparseAdam([p], betas=(1.0, 0.5))),
            repr(lib.optim.SparseAdam([p]).defaults)]


def test_sparse_adam_refusals_match_torch(torch: Any) -> None:
    assert _sparse_adam_refusals(gtorch) == _sparse_adam_refusals(torch)


def test_sparse_gradient_against_finite_differences() -> None:
    """The sparse gradient's dense image is the dense embedding's gradient, which float64
    central differences of the loss confirm."""
    rng = np.random.default_rng(5)
    weight = gtorch.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    idx = gtorch.tensor([[0, 3, 3], [1, 0, 2]])
    scale = gtorch.tensor(rng.standard_normal((2, 3, 3)))

    def loss(w: Any) -> Any:
        return (gtorch.nn.functional.embedding(idx, w, sparse=True) ** 2 * scale).sum()

    loss(weight).backward()
    dense = weight.grad.to_dense().numpy()
    step = 1e-6
    base = weight.detach().numpy()
    for i, j in np.ndindex(*base.shape):
        up, down = base.copy(), base.copy()
        up[i, j] += step
        down[i, j] -= step
        numeric = (loss(gtorch.tensor(up)).item() - loss(gtorch.tensor(down)).item()) / (2 * step)
        assert abs(numeric - dense[i, j]) < 1e-6
