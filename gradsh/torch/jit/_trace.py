"""torch.jit.trace, run eagerly: a traced module is a copy of the module tree sharing its
parameters (TopLevelTracedModule, TracedModule inside), printed as PyTorch prints it. As in
PyTorch, tracing runs the module, and checking the trace runs it again (a second trace, the
traced module, the Python module, and once more when those agree), under no_grad: dropout's
random numbers and batch norm's running statistics advance as they do in PyTorch. The traced
module runs no Python of the program's forward, so it prints nothing."""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from gradsh.torch import nn
from gradsh.torch.jit._script import CopiedModule, ScriptFunction, ScriptModule, copy_tree

__all__ = ["TracedModule", "TopLevelTracedModule", "TracerWarning", "trace", "trace_module",
           "is_tracing"]


class TracerWarning(Warning):
    pass


class TracedModule(CopiedModule):
    """A traced module: printed under its original class's name."""

    def _get_name(self) -> str:
        return self._original_class.__name__


class TopLevelTracedModule(TracedModule):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with _silent():
            return super().__call__(*args, **kwargs)


class TracedFunction(ScriptFunction):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with _silent():
            return self._fn(*args, **kwargs)


for _cls in (TracedModule, TopLevelTracedModule, TracerWarning):
    _cls.__module__ = "torch.jit._trace"

_TRACING = [False]


def is_tracing() -> bool:
    return _TRACING[0]


@contextlib.contextmanager
def _tracing() -> Iterator[None]:
    before, _TRACING[0] = _TRACING[0], True
    try:
        yield
    finally:
        _TRACING[0] = before


@contextlib.contextmanager
def _silent() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def trace(func: Any, example_inputs: Any = None, optimize: Any = None, check_trace: bool = True,
          check_inputs: Any = None, check_tolerance: float = 1e-5, strict: bool = True,
          _force_outplace: bool = False, _module_class: Any = None,
          _compilation_unit: Any = None, example_kwarg_inputs: Any = None,
          _store_inputs: bool = True) -> Any:
    """torch.jit.trace of a module (its forward) or a function."""
    if isinstance(func, ScriptModule) or isinstance(func, ScriptFunction):
        return func
    kwargs = example_kwarg_inputs if isinstance(example_kwarg_inputs, dict) else None
    inputs = _as_tuple(example_inputs)
    with _tracing():
        _call(func, inputs, kwargs)
    if isinstance(func, nn.Module):
        traced: Any = copy_tree(
            func, lambda module, top: TopLevelTracedModule if top else TracedModule)
    else:
        traced = TracedFunction(func)
    if check_trace:
        _check(func, traced, [inputs] if check_inputs is None else
               [_as_tuple(i) for i in check_inputs], kwargs, check_tolerance)
    return traced


def trace_module(mod: nn.Module, inputs: dict[str, Any], **kwargs: Any) -> Any:
    return trace(mod, inputs.get("forward"), **kwargs)


def _as_tuple(inputs: Any) -> tuple[Any, ...]:
    from gradsh.torch import Tensor

    if inputs is None:
        return ()
    return (inputs,) if isinstance(inputs, Tensor) or not isinstance(inputs, tuple) else inputs


def _call(fn: Callable[..., Any], inputs: tuple[Any, ...], kwargs: dict[str, Any] | None) -> Any:
    return fn(**kwargs) if kwargs is not None else fn(*_clone(inputs))


def _clone(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    from gradsh.torch import Tensor

    return tuple(x.clone() if isinstance(x, Tensor) else x for x in inputs)


def _check(func: Any, traced: Any, check_inputs: list[tuple[Any, ...]],
           kwargs: dict[str, Any] | None, tolerance: float) -> None:
    """_check_trace's runs, in its order, under no_grad."""
    from gradsh.torch import no_grad

    with no_grad():
        for inputs in check_inputs:
            with _tracing():
                _call(func, inputs, kwargs)  # the repeated trace
            traced_outs = _tensors(_call(traced, inputs, kwargs))
            python_outs = _tensors(_call(func, inputs, kwargs))
            if _compare(traced_outs, python_outs, "Python function", tolerance):
                with _silent():
                    again = _tensors(_call(func, inputs, kwargs))
                _compare(traced_outs, again, "repeated trace", tolerance)


def _tensors(value: Any) -> list[Any]:
    from gradsh.torch import Tensor

    values = value if isinstance(value, (tuple, list)) else (value,)
    return [v for v in values if isinstance(v, Tensor)]


# torch.testing's default absolute tolerances, by the outputs' own dtypes (_check_trace passes
# default_tolerances(orig, ref)[1])
_ATOL = {"torch.float16": 1e-5, "torch.bfloat16": 1e-5, "torch.float32": 1e-5,
         "torch.float64": 1e-7}


def _compare(original: list[Any], reference: list[Any], what: str, tolerance: float) -> bool:
    from gradsh.torch import testing

    ok = True
    for i, (a, b) in enumerate(zip(original, reference, strict=False)):
        atol = max(_ATOL.get(str(a.dtype), 0.0), _ATOL.get(str(b.dtype), 0.0))
        try:
            testing.assert_close(a.double(), b.double(), rtol=tolerance, atol=atol,
                                 equal_nan=True)
        except AssertionError as error:
            warnings.warn(f"Output nr {i + 1}. of the traced function does not match the "
                          f"corresponding output of the {what}. Detailed error:\n{error}",
                          TracerWarning, stacklevel=4)
            ok = False
    return ok
