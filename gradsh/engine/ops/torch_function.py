"""__torch_function__: Python subclasses of Tensor, as PyTorch dispatches them.

Where an operation's arguments hold an instance of a Tensor subclass whose `__torch_function__`
is not `_disabled_torch_function_impl` (nn.Parameter's and gradsh's own subclasses disable it),
PyTorch calls that class's `__torch_function__(func, types, args, kwargs)` instead of the
operation. Tensor's own, the default a subclass inherits, runs `func` with subclass dispatch
off (DisableTorchFunctionSubclass) and turns Tensor results into the subclass with
`as_subclass` (an alias, AliasBackward0 under autograd): `(t * 2)` of a subclass instance is
an instance too.

gradsh dispatches in the argument guard every public operation passes (ops/guard.py), and in
Tensor.the few methods outside the guard (_UNGUARDED). The guard looks only while `State.active`:
Tensor.__init_subclass__ sets it (and wraps those methods) when a program defines a subclass
that dispatches, so programs without one pay one flag test.
`func` is the Tensor method for a method call (`Tensor.mul` for `t * 2`, as PyTorch hands it)
and the public function otherwise. Functions gradsh composes from several operations in Python
dispatch once per inner operation where PyTorch dispatches once for the composite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gradsh.engine.exceptions import TorchTypeError
from gradsh.engine.tensor import Tensor

__all__ = ["State", "as_subclass", "disabled", "dispatch", "make_subclass",
           "default_torch_function", "disabled_torch_function_impl", "has_torch_function"]


class State:
    """`active`: some subclass dispatches; `disabled`: depth of DisableTorchFunctionSubclass."""

    active = False
    disabled = 0


NOT_HANDLED = object()


@contextmanager
def disabled() -> Iterator[None]:
    """torch._C.DisableTorchFunctionSubclass: operations inside run without subclass dispatch."""
    State.disabled += 1
    try:
        yield
    finally:
        State.disabled -= 1


def disabled_torch_function_impl(func: Callable[..., Any], types: Any, args: Any = (),
                                 kwargs: Any = None) -> Any:
    """torch._C._disabled_torch_function_impl: a class attribute turning dispatch off for a
    subclass (nn.Parameter's); called, it runs func without dispatch and keeps its result."""
    with disabled():
        return func(*args, **(kwargs or {}))


_DISPATCHES: dict[type, bool] = {}


def _dispatches(cls: type) -> bool:
    """Whether instances of cls take part: its __torch_function__ is not the disabled one,
    and it is a program's class (gradsh's own subclasses, sparse tensors, Buffer, the causal
    bias, stand in for PyTorch classes that do not dispatch this way)."""
    known = _DISPATCHES.get(cls)
    if known is None:
        known = _DISPATCHES[cls] = (
            getattr(cls, "__torch_function__", None) is not disabled_torch_function_impl
            and not cls.__module__.startswith(("gradsh.", "torch.")))
    return known


def _convert(ret: Any, cls: type) -> Any:
    """torch._tensor._convert: Tensor results as `cls`, inside tuples and lists too."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        return as_subclass(ret, cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        try:
            return type(ret)(items)
        except TypeError:  # a namedtuple takes its fields one by one
            return type(ret)(*items)
    return ret


def default_torch_function(cls: type, func: Callable[..., Any], types: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
    """Tensor.__torch_function__: func without dispatch, its Tensor results made `cls`."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with disabled():
        ret = func(*args, **kwargs)
    return _convert(ret, cls)


def as_subclass(self: Tensor, cls: type) -> Tensor:
    """Tensor.as_subclass: an alias of self (same storage, in the autograd graph) of class cls."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TorchTypeError(f"Creating a Tensor subclass from a class that does not inherit "
                             f"from Tensor is not possible. Make sure your class inherits "
                             f"from Tensor.")
    from gradsh.engine.functions.shape import AliasBackward0

    with disabled():
        out = AliasBackward0.apply(self)
    out.__class__ = cls
    return out


def make_subclass(cls: type, data: Tensor, require_grad: bool = False, **_: Any) -> Tensor:
    """Tensor._make_subclass: a detached leaf of class cls on data's storage."""
    t = cls._make(data._data, data.device, None, bool(require_grad))  # type: ignore[attr-defined]
    t._version_counter = data._version_counter
    return t  # type: ignore[no-any-return]


def _overloaded(values: Any, found: list[type]) -> None:
    for value in values:
        cls = value.__class__
        if cls is Tensor:
            continue
        if cls is list or cls is tuple:
            _overloaded(value, found)
        elif isinstance(value, Tensor) and cls not in found and _dispatches(cls):
            # PyTorch's order: a subclass before any of its bases already found
            for i, seen in enumerate(found):
                if issubclass(cls, seen):
                    found.insert(i, cls)
                    break
            else:
                found.append(cls)


def has_torch_function(values: Any) -> bool:
    found: list[type] = []
    _overloaded(values, found)
    return bool(found)


def dispatch(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The subclasses' __torch_function__ for this call, or NOT_HANDLED where none takes part."""
    found: list[type] = []
    _overloaded(args, found)
    if kwargs:
        _overloaded(kwargs.values(), found)
    if not found:
        return NOT_HANDLED
    types = tuple(found)
    for cls in found:
        result = cls.__torch_function__(func, types, args, kwargs)  # type: ignore[attr-defined]
        if result is not NotImplemented:
            return result
    raise TorchTypeError(dispatch_failed(func, types))


DISPATCH_FAILED = "Multiple dispatch failed for "


def dispatch_failed(func: Callable[..., Any], types: tuple[type, ...]) -> str:
    """PyTorch's text where every handler returned NotImplemented (an operator's guard turns
    it into NotImplemented, so that Python's own TypeError follows)."""
    name = getattr(func, "__name__", str(func))
    where = "torch.Tensor." if getattr(Tensor, name, None) is func else "torch."
    handlers = "".join(f"  - tensor subclass {t}\n" for t in types)
    return (f"{DISPATCH_FAILED}'{where}{name}'; all __torch_function__ handlers returned "
            f"NotImplemented:\n\n{handlers}\nFor more information, try re-running with "
            "TORCH_LOGS=not_implemented")


def _init_subclass(cls: type, **kwargs: Any) -> None:
    """Tensor.__init_subclass__: a program's subclass that dispatches turns the guard's look on."""
    super(Tensor, cls).__init_subclass__(**kwargs)
    if _dispatches(cls) and not State.active:
        State.active = True
        for name in _UNGUARDED:  # (wrapped only now: no cost to programs without subclasses)
            setattr(Tensor, name, _dispatching(name, getattr(Tensor, name)))


# Tensor methods outside the argument guard that PyTorch dispatches too
_UNGUARDED = ("__getitem__", "detach", "requires_grad_")


def _dispatching(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if State.active and not State.disabled and self.__class__ is not Tensor:
            handled = dispatch(method, (self, *args), kwargs)
            if handled is not NOT_HANDLED:
                return handled
        return original(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = original.__doc__
    return method


def install() -> None:
    """Tensor's __torch_function__, as_subclass, _make_subclass and the dispatching
    __getitem__ (gradsh.engine.ops calls this once, after the methods are installed)."""
    Tensor.__torch_function__ = classmethod(default_torch_function)  # type: ignore[attr-defined]
    Tensor.as_subclass = as_subclass  # type: ignore[attr-defined]
    Tensor._make_subclass = staticmethod(make_subclass)  # type: ignore[attr-defined]
    Tensor.__init_subclass__ = classmethod(_init_subclass)  # type: ignore[assignment]
