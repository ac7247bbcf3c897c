"""torch.quantile / nanquantile against PyTorch: values bit for bit (float32 and float64, every
interpolation, scalar and 1-d q, dim / keepdim, NaN), the grad_fn chain ATen's composition
records, gradients, and the errors of the usual mistakes; and Tensor.lerp_ with a tensor
weight, which the composition uses."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

MODES = ["linear", "lower", "higher", "midpoint", "nearest"]


def _both(torch: Any, values: np.ndarray, grad: bool = False) -> tuple[Any, Any]:
    ours = gtorch.tensor(values, requires_grad=grad)
    theirs = torch.tensor(values, requires_grad=grad)
    return ours, theirs


def _same(ours: Any, theirs: Any) -> None:
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.tobytes() == b.tobytes(), (a, b)


def _chain(t: Any) -> list[str]:
    names, node = [], t.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_and_gradients(torch: Any, mode: str, dtype: Any) -> None:
    rng = np.random.default_rng(MODES.index(mode))
    values = rng.standard_normal((3, 5, 7)).astype(dtype)
    values[1, 2, 3] = values[0, 0, 0]  # a tie
    cases: list[tuple[Any, dict[str, Any]]] = [
        (0.3, {}), (0.0, {}), (1.0, {}), (0.5, {"dim": 1}), (0.77, {"dim": -1, "keepdim": True}),
        (0.25, {"dim": 0}), (0.4, {"keepdim": True}),
        ([0.1, 0.5, 0.9], {}), ([0.0, 0.33, 1.0], {"dim": 2}), ([0.6], {"dim": 1, "keepdim": True}),
    ]
    for q, kwargs in cases:
        ours_x, theirs_x = _both(torch, values, grad=True)
        ours_q = gtorch.tensor(q, dtype=ours_x.dtype) if isinstance(q, list) else q
        theirs_q = torch.tensor(q, dtype=theirs_x.dtype) if isinstance(q, list) else q
        ours = gtorch.quantile(ours_x, ours_q, interpolation=mode, **kwargs)
        theirs = torch.quantile(theirs_x, theirs_q, interpolation=mode, **kwargs)
        _same(ours, theirs)
        assert _chain(ours) == _chain(theirs)
        weights = rng.standard_normal(tuple(theirs.shape)).astype(dtype)
        ours.backward(gtorch.tensor(weights))
        theirs.backward(torch.tensor(weights))
        _same(ours_x.grad, theirs_x.grad)


def test_nan_handling(torch: Any) -> None:
    values = np.array([[np.nan, 1.0, 3.0, 2.0], [np.nan, np.nan, np.nan, np.nan],
                       [4.0, 0.5, 2.5, 1.0]], np.float32)
    for function in ("quantile", "nanquantile"):
        for q, kwargs in ((0.5, {"dim": 1}), (0.3, {}), ([0.2, 0.8], {"dim": 1})):
            ours_x, theirs_x = _both(torch, values)
            ours_q = gtorch.tensor(q) if isinstance(q, list) else q
            theirs_q = torch.tensor(q) if isinstance(q, list) else q
            _same(getattr(gtorch, function)(ours_x, ours_q, **kwargs),
                  getattr(torch, function)(theirs_x, theirs_q, **kwargs))
            _same(getattr(ours_x, function)(ours_q, **kwargs),
                  getattr(theirs_x, function)(theirs_q, **kwargs))


@pytest.mark.parametrize("call", [
    "quantile(tensor([1, 2]), 0.5)",
    "quantile(tensor([1., 2.]), 1.5)",
    "quantile(tensor([1., 2.]), -0.25)",
    "quantile(tensor([1., 2.]), tensor([0.5, 2.]))",
    "quantile(tensor([]), 0.5)",
    "quantile(tensor([1., 2.]), 0.5, interpolation='cubic')",
    "quantile(tensor([1., 2.]), tensor([0.5], dtype=float64))",
    "quantile(tensor([1., 2.]), ones(1, 1))",
    "quantile(tensor([1., 2.]), 0.5, dim=3)",
    "nanquantile(tensor([1, 2]), 0.5)",
])
def test_errors(torch: Any, call: str) -> None:
    def outcome(module: Any) -> tuple[str, str]:
        names = {"tensor": module.tensor, "ones": module.ones, "float64": module.float64,
                 "quantile": module.quantile, "nanquantile": module.nanquantile}
        try:
            eval(call, names)  # noqa: S307  (our own fixed strings)
        except Exception as error:  # noqa: BLE001
            return type(error).__name__, str(error)
        return "no error", ""

    assert outcome(gtorch) == outcome(torch)


def test_lerp_inplace_with_a_tensor_weight(torch: Any) -> None:
    rng = np.random.default_rng(7)
    start, end, weight = (rng.standard_normal(6).astype(np.float32) for _ in range(3))
    results = []
    for module in (gtorch, torch):
        s = module.tensor(start, requires_grad=True).clone()
        e = module.tensor(end, requires_grad=True)
        w = module.tensor(weight, requires_grad=True)
        s.lerp_(e, w)
        s.sum().backward()
        results.append((type(s.grad_fn).__name__, s.detach().numpy(), e.grad.numpy(),
                        w.grad.numpy()))
    assert results[0][0] == results[1][0] == "LerpBackward1"
    for ours, theirs in zip(results[0][1:], results[1][1:]):
        assert np.array_equal(ours.view(np.uint32), theirs.view(np.uint32))
    for module in (gtorch, torch):
        with pytest.raises(RuntimeError, match="for `weight` but got dtype double"):
            module.zeros(3).lerp_(module.ones(3), module.tensor([0.5], dtype=module.float64))
