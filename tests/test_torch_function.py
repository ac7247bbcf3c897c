"""Tensor subclasses with __torch_function__ against PyTorch: the functions a subclass sees
(methods, operators, torch functions, indexing), results converted to the subclass (AliasBackward0
under autograd), _make_subclass with attributes, the disabled impl (nn.Parameter's), and
torch.overrides' queries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import gradsh.torch as gtorch
from gradsh.engine.ops import torch_function
from gradsh.engine.tensor import Tensor


@pytest.fixture(autouse=True)
def _restore_dispatch() -> Iterator[None]:
    """Defining a subclass turns dispatch on for the process: put things back afterwards."""
    saved = {name: Tensor.__dict__[name] for name in torch_function._UNGUARDED}
    active = torch_function.State.active
    yield
    for name, method in saved.items():
        setattr(Tensor, name, method)
    torch_function.State.active = active


def _session(lib: Any) -> list[str]:
    log: list[str] = []

    class Logging(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func: Any, types: Any, args: Any = (),
                               kwargs: Any = None) -> Any:
            log.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs or {})

    class Plain(lib.Tensor):
        pass

    class Off(lib.Tensor):
        __torch_function__ = lib._C._disabled_torch_function_impl

    seen: list[str] = []
    lib.manual_seed(0)
    x = lib.randn(2, 3, requires_grad=True)
    t = x.as_subclass(Logging)
    seen += [type(t).__name__, type(t.grad_fn).__name__, repr(t.is_leaf)]
    for step in (lambda: t * 2 + 1, lambda: 2 * t, lambda: t[0], lambda: t.sum(dim=1),
                 lambda: lib.relu(t), lambda: lib.cat([lib.ones(1, 3), t]), lambda: t.detach(),
                 lambda: t.max(1), lambda: lib.nn.functional.linear(t, lib.ones(4, 3))):
        log.clear()
        out = step()
        values = out if isinstance(out, tuple) else (out,)
        seen.append(repr((log[:1], [type(v).__name__ for v in values],
                          [type(v.grad_fn).__name__ for v in values])))
    (t * t).sum().backward()
    seen += [repr(x.grad), type(x.grad).__name__]
    p = Plain(lib.arange(3.0))
    seen += [repr(p), type(p + 1).__name__, type(lib.ones(3) + p).__name__]
    seen += [type(Off(lib.ones(2)) * 2).__name__, type(lib.nn.Parameter(lib.ones(2)) * 2).__name__]
    made = lib.Tensor._make_subclass(Plain, lib.ones(2), True)
    made.tag = "m"
    seen += [type(made).__name__, repr(made.requires_grad), repr(made.is_leaf), made.tag]
    seen += [repr(lib.overrides.has_torch_function((t,))),
             repr(lib.overrides.has_torch_function((lib.nn.Parameter(lib.ones(1)),))),
             repr(lib.overrides.is_tensor_like(p)), repr(lib.overrides.is_tensor_like(3))]
    return seen


def test_subclass_dispatch_matches_torch(torch: Any) -> None:
    assert _session(gtorch) == _session(torch)


def test_no_dispatch_without_a_subclass() -> None:
    """gradsh's own subclasses (Parameter) do not turn dispatch on."""
    torch_function.State.active = False
    gtorch.nn.Parameter(gtorch.ones(2)) * 2
    assert not torch_function.State.active


def _unrelated(lib: Any) -> list[str]:
    class A(lib.Tensor):
        pass

    class B(lib.Tensor):
        pass

    a, b = lib.ones(2).as_subclass(A), lib.ones(2).as_subclass(B)
    seen = []
    for call in (lambda: lib.add(a, b), lambda: a.add(b), lambda: lib.cat([a, b]),
                 lambda: a * b, lambda: a - b):
        try:
            seen.append(repr(call()))
        except TypeError as error:  # operators: Python's own text, after NotImplemented
            seen.append(str(error))
    return seen


def test_unrelated_subclasses_fail_as_in_torch(torch: Any) -> None:
    assert _unrelated(gtorch) == _unrelated(torch)
