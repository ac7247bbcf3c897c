"""split, chunk and unbind make one node for all their pieces, as PyTorch does: the pieces share
a grad_fn, know their output_nr, run their hooks in registration order (an unreached piece's hook
sees None), show PyTorch's saved attributes, and backward stacks or concatenates the pieces'
gradients in one step. Each case runs the same code on torch and on gradsh.torch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

X = np.arange(12, dtype=np.float32).reshape(4, 3) / 7 - 0.5


def _run(torch: Any, case: Callable[[Any, list[Any]], Any]) -> tuple[Any, list[Any]]:
    log: list[Any] = []
    try:
        value = case(torch, log)
    except Exception as error:  # noqa: BLE001  (the error is the result compared)
        value = (type(error).__name__, str(error))
    return _plain(torch, value), [_plain(torch, item) for item in log]


def _plain(torch: Any, value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        fn = value.grad_fn
        return (value.detach().tolist(), type(fn).__name__ if fn else None)
    if isinstance(value, (tuple, list)):
        return [_plain(torch, v) for v in value]
    return value


def _leaf(torch: Any) -> Any:
    return torch.tensor(X).requires_grad_()


def _shared_node(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    a, b, c, d = x.unbind()
    p, q = x.split(2)
    r, s = x.split([1, 3])
    u, v = x.chunk(2, dim=1)
    return [a.grad_fn is d.grad_fn, p.grad_fn is q.grad_fn, r.grad_fn is s.grad_fn,
            u.grad_fn is v.grad_fn, [t.output_nr for t in (a, b, c, d, q, s, v)],
            a.grad_fn.name(), r.grad_fn.name(), a.grad_fn.next_functions[0][1]]


def _saved(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    a = x.unbind(1)[0]
    p = x.split(3)[0]
    r = x.split([1, 3])[0]
    return [a.grad_fn._saved_dim, p.grad_fn._saved_dim, p.grad_fn._saved_split_size,
            p.grad_fn._saved_self_sym_sizes, r.grad_fn._saved_split_sizes,
            r.grad_fn._saved_self_sym_sizes]


def _hook_order(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    a, b, c, d = x.unbind()
    d.register_hook(lambda g: log.append(("d", g)))
    a.register_hook(lambda g: log.append(("a", g)))
    c.register_hook(lambda g: log.append(("c", g)))  # never reached: its hook sees None
    b.register_hook(lambda g: g * 10)
    b.retain_grad()
    (a * 2 + b * 3 + d.exp()).sum().backward()
    return [x.grad, b.grad, c.grad]


def _hook_removed(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    p, q = x.split(2)
    handle = p.register_hook(lambda g: log.append(("p", g)))
    q.register_hook(lambda g: log.append(("q", g)))
    handle.remove()
    (p.sum() + q.sum() * 2).backward()
    return x.grad


def _iteration(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    total = 0
    for i, row in enumerate(x):
        total = total + row.sum() * (i - 1.5)
    total.backward()
    return [x.grad, total]


def _second_order(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    a, b, c, d = x.unbind()
    (g,) = torch.autograd.grad((a * b).sum() + (c ** 3).sum(), x, create_graph=True)
    g.sum().backward()
    return [g, x.grad]


def _retain_graph_twice(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch)
    p, q = x.chunk(2)
    y = (p * q).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad


def _negative_zero(torch: Any, log: list[Any]) -> Any:
    x = torch.zeros(2, 3, requires_grad=True)
    a, _ = x.unbind()
    (a * -1.0).sum().backward()
    return [str(x.grad), [str(v) for v in x.grad.view(-1)]]


def _inplace_errors(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch) * 1
    out = []
    for make in (lambda: x.unbind()[1], lambda: x.split(2)[1], lambda: x.chunk(4)[3]):
        try:
            make().mul_(2)
        except RuntimeError as error:
            out.append(str(error))
    with torch.no_grad():
        a = x.unbind()[0]
    try:
        a.add_(1)
    except RuntimeError as error:
        out.append(str(error))
    plain = torch.tensor(X)
    plain.unbind()[2].add_(1)  # nothing requires grad: allowed, and seen through the base
    return [out, plain]


def _views_share_storage(torch: Any, log: list[Any]) -> Any:
    x = _leaf(torch) * 1
    a, b, c, d = x.unbind()
    with torch.no_grad():
        x[1] += 100
    try:
        fn = b.grad_fn  # the pieces may not be rebased: reading grad_fn is PyTorch's error
    except RuntimeError as error:
        fn = str(error)
    return [b.detach(), b._version, b._base is x, x._version, fn, str(b)]


CASES = {f.__name__[1:]: f for f in (_shared_node, _saved, _hook_order, _hook_removed,
                                     _iteration, _second_order, _retain_graph_twice,
                                     _negative_zero, _inplace_errors, _views_share_storage)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pieces_as_in_pytorch(name: str, torch: Any) -> None:
    assert _run(gtorch, CASES[name]) == _run(torch, CASES[name])


def test_one_backward_step_for_all_pieces() -> None:
    """All rows of a long tensor feed one UnbindBackward0: it runs once, however many rows."""
    x = gtorch.zeros(500, 2, requires_grad=True)
    rows = list(x)
    calls = []
    rows[0].grad_fn.register_prehook(lambda grads: calls.append(len(grads)))
    sum(r.sum() for r in rows).backward()
    assert calls == [500]
    assert x.grad.sum().item() == 1000
