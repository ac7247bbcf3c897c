"""torch.compile, run eagerly: a module comes back wrapped in an OptimizedModule (its
`_orig_mod`, as PyTorch prints it and names its state_dict keys), a function wrapped in a
function. The results are eager PyTorch's; Inductor's generated kernels, whose last bits can
differ from eager ones, are not reproduced."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from gradsh.torch import nn

__all__ = ["OptimizedModule", "compile"]


class OptimizedModule(nn.Module):
    """The module torch.compile returns for a module: calls go to `_orig_mod`, and so does any
    attribute it does not have itself."""

    def __init__(self, mod: nn.Module, dynamo_ctx: Any = None) -> None:
        super().__init__()
        self._orig_mod = mod
        self.training = mod.training

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "_orig_mod":
                raise
            return getattr(self._orig_mod, name)


OptimizedModule.__module__ = "torch._dynamo.eval_frame"

_MODES = (None, "default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs",
          "max-autotune")


def compile(model: Any = None, *, fullgraph: bool = False, dynamic: Any = None,  # noqa: A001
            backend: Any = "inductor", mode: str | None = None, options: Any = None,
            disable: bool = False) -> Any:
    """torch.compile: with a model, the compiled model; without, a decorator."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: "
                           + ", ".join(m for m in _MODES if m))
    if model is None:
        def decorator(fn: Any) -> Any:
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)

        return decorator
    if disable:
        return model
    if isinstance(model, nn.Module):
        return OptimizedModule(model)
    if not callable(model):
        raise RuntimeError("Invalid type for model: expected callable")
    return _wrap(model)


def _wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    compiled._torchdynamo_orig_callable = fn  # type: ignore[attr-defined]
    return compiled
