"""torch._dynamo: what programs configure or call around torch.compile (config, reset,
disable, allow_in_graph, is_compiling), for gradsh's eager torch.compile."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, TypeVar

from gradsh.torch._dynamo.eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "allow_in_graph", "config", "disable", "is_compiling",
           "mark_dynamic", "mark_static", "reset"]

T = TypeVar("T")


class _Config(types.SimpleNamespace):
    """torch._dynamo.config: settings are accepted and read back; nothing compiles."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"torch._dynamo.config.{name} does not exist")


config = _Config(suppress_errors=False, verbose=False, cache_size_limit=8,
                 recompile_limit=8, accumulated_cache_size_limit=256,
                 capture_scalar_outputs=False, capture_dynamic_output_shape_ops=False,
                 automatic_dynamic_shapes=True, assume_static_by_default=True,
                 optimize_ddp=True, inline_inbuilt_nn_modules=True)


def reset() -> None:
    pass


def disable(fn: Any = None, recursive: bool = True, *, reason: str | None = None) -> Any:
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn: T) -> T:
    return fn


def is_compiling() -> bool:
    return False


def mark_dynamic(t: Any, index: Any, **kwargs: Any) -> None:
    pass


def mark_static(t: Any, index: Any = None) -> None:
    pass


def explain(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("gradsh does not implement torch._dynamo.explain")
