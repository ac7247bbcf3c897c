"""torch.jit.script, run eagerly: a scripted module is a copy of the module tree that shares its
parameters and buffers (its own `training` flags), printed as PyTorch prints a
RecursiveScriptModule; a scripted function calls the function. TorchScript's compiler is not
reproduced: code it would reject runs, and `.code`/`.graph` are not available."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from gradsh.torch import nn

__all__ = ["CopiedModule", "ScriptModule", "RecursiveScriptModule", "ScriptFunction", "script",
           "script_method", "copy_tree"]


class ScriptModule(nn.Module):
    """torch.jit.ScriptModule: the base of scripted modules (and of the old API's subclasses
    with @torch.jit.script_method methods)."""

    def save(self, f: Any, **kwargs: Any) -> None:
        from gradsh.torch.jit import save

        save(self, f, **kwargs)


class CopiedModule(ScriptModule):
    """A module of copy_tree's (scripted or traced): its original class's behaviour, and the
    `original_name=...` line PyTorch prints for it."""

    _original_class: type

    @property
    def original_name(self) -> str:
        return self._original_class.__name__

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"


class RecursiveScriptModule(CopiedModule):
    """A scripted module: its original class's behaviour, PyTorch's name and repr."""

    def _get_name(self) -> str:
        return "RecursiveScriptModule"


class ScriptFunction:
    """A scripted (or traced) function: calling it calls the function."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self._fn = fn
        self.__name__ = getattr(fn, "__name__", "fn")
        self.name = self.__name__
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def save(self, f: Any, **kwargs: Any) -> None:
        from gradsh.torch.jit import save

        save(self, f, **kwargs)


ScriptFunction.__module__ = "torch.jit"
ScriptFunction.__qualname__ = "torch.jit.ScriptFunction"
for _cls in (ScriptModule, RecursiveScriptModule):
    _cls.__module__ = "torch.jit._script"

_CLASSES: dict[tuple[type, type], type] = {}


def copy_tree(module: nn.Module, kind: Callable[[nn.Module, bool], type | None],
              memo: dict[int, nn.Module] | None = None, top: bool = True) -> nn.Module:
    """A copy of `module` and its submodules, each of the wrapper class `kind(module, top)`
    gives mixed with its own class (None: its own class alone); the copies share parameters,
    buffers and hooks with the originals, not their training flags. A module reached twice is
    copied once."""
    memo = {} if memo is None else memo
    if id(module) in memo:
        return memo[id(module)]
    original = getattr(module, "_original_class", type(module))
    wrapper = kind(module, top)
    copy = object.__new__(original if wrapper is None else _with_original(wrapper, original))
    memo[id(module)] = copy
    copy.__dict__.update(module.__dict__)
    children = type(module._modules)()
    for name, child in module._modules.items():
        children[name] = None if child is None else copy_tree(child, kind, memo, False)
    copy.__dict__["_modules"] = children
    return copy


def _with_original(wrapper: type, original: type) -> type:
    """`wrapper` mixed with the module's own class (its forward and methods), named as
    `wrapper` is."""
    key = (wrapper, original)
    if key not in _CLASSES:
        cls = type(wrapper.__name__, (wrapper, original), {"_original_class": original})
        cls.__module__, cls.__qualname__ = wrapper.__module__, wrapper.__qualname__
        _CLASSES[key] = cls
    return _CLASSES[key]


def script(obj: Any, optimize: Any = None, _frames_up: int = 0, _rcb: Any = None,
           example_inputs: Any = None) -> Any:
    """torch.jit.script: a module becomes a RecursiveScriptModule (parameters shared), a
    function a ScriptFunction; a class or anything else comes back as it is."""
    if isinstance(obj, RecursiveScriptModule):
        return obj
    if isinstance(obj, nn.Module):
        return copy_tree(obj, lambda module, top: RecursiveScriptModule)
    if isinstance(obj, ScriptFunction) or isinstance(obj, type):
        return obj
    if callable(obj):
        return ScriptFunction(obj)
    return obj


def script_method(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn
