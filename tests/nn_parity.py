"""Runs one nn layer in PyTorch and in gradsh from the same seed and inputs, and compares what a
user sees: initial parameters (exactly), repr, output values, dtype, shape and grad_fn names,
and the gradients of inputs and parameters after the same backward."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import gradsh.torch as gtorch


def _to(namespace: Any, value: Any, requires_grad: bool) -> Any:
    if isinstance(value, np.ndarray):
        t = namespace.from_numpy(value.copy())
        if requires_grad and value.dtype.kind == "f":
            t.requires_grad_(True)
        return t
    return value


def _flatten(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [t for item in out for t in _flatten(item)]
    return [out]


def _name(t: Any) -> str | None:
    fn = t.grad_fn
    return None if fn is None else (fn.name() if callable(fn.name) else fn.name)


def _numpy(t: Any) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy() if hasattr(t, "detach") else t)


def graph_names(t: Any, depth: int = 3) -> list[Any]:
    """grad_fn names down `depth` levels, as nested lists (AccumulateGrad without its C++
    namespace)."""
    def walk(fn: Any, level: int) -> Any:
        if fn is None:
            return None
        name = fn.name() if callable(fn.name) else fn.name
        name = name.replace("torch::autograd::", "")
        if level == depth or name == "AccumulateGrad":
            return name
        return [name, [walk(child, level + 1) for child, _ in fn.next_functions]]
    return walk(t.grad_fn, 0)


def run_layer(torch: Any, build: Callable[[Any], Any], inputs: Sequence[np.ndarray],
              *, rtol: float = 1e-5, atol: float = 1e-6, train: bool = True,
              input_grad: bool = True, depth: int = 2, seed: int = 0) -> None:
    results = []
    for namespace in (torch, gtorch):
        namespace.manual_seed(seed)
        module = build(namespace)
        module.train(train)
        initial = {k: _numpy(v).copy() for k, v in module.state_dict().items()}
        args = [_to(namespace, a, input_grad) for a in inputs]
        namespace.manual_seed(seed + 1)
        out = module(*args)
        outs = [t for t in _flatten(out) if t.dtype.is_floating_point]
        differentiable = [t for t in outs if t.requires_grad]
        rng = np.random.default_rng(seed)
        if differentiable:
            grads = [namespace.from_numpy(rng.standard_normal(tuple(t.shape)).astype(
                _numpy(t).dtype)) for t in differentiable]
            namespace.autograd.backward(differentiable, grads)
        results.append({
            "repr": repr(module),
            "params": initial,
            "final": {k: _numpy(v) for k, v in module.state_dict().items()},
            "outs": [(_numpy(t), str(t.dtype), tuple(t.shape), graph_names(t, depth))
                     for t in outs],
            "input_grads": [None if not hasattr(a, "grad") or a.grad is None else _numpy(a.grad)
                            for a in args],
            "param_grads": {k: None if p.grad is None else _numpy(p.grad)
                            for k, p in module.named_parameters()},
        })
    expected, got = results
    assert got["repr"] == expected["repr"]
    assert got["params"].keys() == expected["params"].keys()
    for k in expected["params"]:
        np.testing.assert_array_equal(got["params"][k], expected["params"][k],
                                      err_msg=f"initial {k}")
    assert len(got["outs"]) == len(expected["outs"])
    for (gv, gd, gs, gn), (ev, ed, es, en) in zip(got["outs"], expected["outs"], strict=True):
        assert (gd, gs) == (ed, es)
        assert gn == en
        np.testing.assert_allclose(gv, ev, rtol=rtol, atol=atol)
    for kind in ("input_grads", "param_grads", "final"):
        g, e = got[kind], expected[kind]
        pairs = zip(g, e, strict=True) if isinstance(g, list) else (
            (g[k], e[k]) for k in e)
        for a, b in pairs:
            assert (a is None) == (b is None), kind
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=kind)
