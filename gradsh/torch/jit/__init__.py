"""torch.jit, run eagerly: script and trace give modules and functions that behave as the
originals and print as PyTorch's scripted and traced ones; save/load keep a scripted module in
a file; the decorators and annotations (ignore, unused, export, Final, annotate) are accepted.
TorchScript's compiler, IR and `.code`/`.graph` are not reproduced."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, TypeVar

from gradsh.torch.jit._script import (
    RecursiveScriptModule,
    ScriptFunction,
    ScriptModule,
    copy_tree,
    script,
    script_method,
)
from gradsh.torch.jit._trace import (
    TopLevelTracedModule,
    TracedModule,
    TracerWarning,
    is_tracing,
    trace,
    trace_module,
)

__all__ = ["Attribute", "Error", "Final", "Future", "RecursiveScriptModule", "ScriptFunction",
           "ScriptModule", "TopLevelTracedModule", "TracedModule", "TracerWarning", "annotate",
           "enable_onednn_fusion", "export", "fork", "freeze", "ignore", "interface",
           "is_scripting", "is_tracing", "load", "optimize_for_inference", "save", "script",
           "script_method", "set_fusion_strategy", "trace", "trace_module", "unused", "wait"]

T = TypeVar("T")
Final = typing.Final


class Error(RuntimeError):
    """torch.jit.Error: a TorchScript runtime error."""


Error.__module__ = "torch.jit"


def is_scripting() -> bool:
    """False: gradsh runs every function eagerly, as Python would outside TorchScript."""
    return False


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn: T) -> T:
    return fn


def export(fn: T) -> T:
    return fn


def interface(obj: T) -> T:
    return obj


def annotate(the_type: Any, the_value: T) -> T:
    return the_value


def Attribute(value: T, type: Any = None) -> T:  # noqa: N802,A002  (PyTorch's names)
    return value


class Future:
    """What torch.jit.fork returns: the call's result, already computed."""

    def __init__(self, value: Any) -> None:
        self._value = value

    def wait(self) -> Any:
        return self._value

    def value(self) -> Any:
        return self._value

    def done(self) -> bool:
        return True


Future.__module__ = "torch.jit"


def fork(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    return Future(func(*args, **kwargs))


def wait(future: Future) -> Any:
    return future.wait()


def freeze(mod: Any, preserved_attrs: Any = None, optimize_numerics: bool = True) -> Any:
    return mod


def optimize_for_inference(mod: Any, other_methods: Any = None) -> Any:
    return mod


def enable_onednn_fusion(enabled: bool) -> None:
    pass


def set_fusion_strategy(strategy: Any) -> Any:
    return []


def save(m: Any, f: Any, _extra_files: Any = None) -> None:
    """torch.jit.save: the scripted or traced module (or function) in a file torch.jit.load
    reads back as a RecursiveScriptModule."""
    from gradsh.torch import nn
    from gradsh.torch import save as torch_save

    if isinstance(m, nn.Module):
        plain = copy_tree(m, lambda module, top: None)  # the modules' own classes: picklable
        torch_save({"gradsh.jit": "module", "module": plain}, f)
    else:
        torch_save({"gradsh.jit": "function", "function": getattr(m, "_fn", m)}, f)


def load(f: Any, map_location: Any = None, _extra_files: Any = None,
         _restore_shapes: bool = False) -> Any:
    from gradsh.torch import load as torch_load

    saved = torch_load(f, map_location=map_location, weights_only=False)
    if not isinstance(saved, dict) or "gradsh.jit" not in saved:
        raise RuntimeError("PytorchStreamReader failed locating file constants.pkl: file not "
                           "found")
    if saved["gradsh.jit"] == "function":
        return ScriptFunction(saved["function"])
    return script(saved["module"])
