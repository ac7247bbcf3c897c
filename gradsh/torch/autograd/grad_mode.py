"""torch.no_grad, enable_grad, set_grad_enabled and inference_mode: context managers that are
also decorators, as in torch/autograd/grad_mode.py."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Generator
from typing import Any

from gradsh.engine.tensor import _GradMode, is_grad_enabled
from gradsh.engine.variable import INFERENCE, InferenceMode

__all__ = ["enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
           "no_grad", "set_grad_enabled"]


class _DecoratorContextManager:
    """Usable as `with no_grad():` and as `@no_grad()` (each call of the decorated function runs
    in a fresh context; a decorated generator function runs each of its steps in one, as
    torch/utils/_contextlib.py's _wrap_generator does)."""

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return decorated

    def _wrap_generator(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def generator_context(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException:
                        with self.clone():
                            response = gen.throw(*sys.exc_info())
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as e:
                return e.value

        return generator_context

    def clone(self) -> _DecoratorContextManager:
        return self.__class__()

    def __enter__(self) -> None:
        raise NotImplementedError

    def __exit__(self, *exc: Any) -> None:
        raise NotImplementedError


class no_grad(_DecoratorContextManager):  # noqa: N801  (PyTorch's name)
    """Results computed inside do not require grad and record no graph."""

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = False
        self._wrapped = orig_func

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if orig_func is None:  # `no_grad()`
            return super().__new__(cls)
        return cls()(orig_func)  # `@no_grad` without parentheses, as PyTorch allows

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = False

    def __exit__(self, *exc: Any) -> None:
        _GradMode.enabled = self.prev


class enable_grad(_DecoratorContextManager):  # noqa: N801
    """Grad mode on inside, even within a no_grad block."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = True

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = True

    def __exit__(self, *exc: Any) -> None:
        _GradMode.enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):  # noqa: N801
    """Sets grad mode at once (`torch.set_grad_enabled(False)` as a statement turns it off for
    good); as a context manager it restores the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self.prev = _GradMode.enabled
        self.mode = bool(mode)
        _GradMode.enabled = self.mode

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        _GradMode.enabled = self.prev
        return super().__call__(func)

    def __enter__(self) -> None:
        _GradMode.enabled = self.mode

    def __exit__(self, *exc: Any) -> None:
        _GradMode.enabled = self.prev

    def clone(self) -> set_grad_enabled:
        return self.__class__(self.mode)

    def __repr__(self) -> str:  # what a notebook shows for `torch.set_grad_enabled(True)`
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_DecoratorContextManager):  # noqa: N801
    """No autograd, as no_grad, and every tensor made meanwhile is an inference tensor
    (is_inference(); no version counter; not to be saved for backward or changed in place
    outside inference mode), as in PyTorch."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode) and not isinstance(mode, bool):
            return cls()(mode)
        return super().__new__(cls)

    enabled: bool = False  # torch.is_inference_mode_enabled()

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self.prev = True
        self.prev_inference = False

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        self.prev_inference = inference_mode.enabled
        self.prev_counter = InferenceMode.counter
        inference_mode.enabled = self.mode
        InferenceMode.counter = INFERENCE if self.mode else None
        if self.mode:
            _GradMode.enabled = False

    def __exit__(self, *exc: Any) -> None:
        _GradMode.enabled = self.prev
        inference_mode.enabled = self.prev_inference
        InferenceMode.counter = self.prev_counter

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)


def is_inference_mode_enabled() -> bool:
    return inference_mode.enabled
