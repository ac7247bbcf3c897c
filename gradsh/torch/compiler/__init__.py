"""torch.compiler: the public face of torch.compile's machinery (reset, disable,
is_compiling, allow_in_graph), for gradsh's eager torch.compile."""

from __future__ import annotations

from typing import Any

from gradsh.torch._dynamo import allow_in_graph, disable, is_compiling, reset

__all__ = ["allow_in_graph", "assume_constant_result", "cudagraph_mark_step_begin", "disable",
           "is_compiling", "is_dynamo_compiling", "reset"]


def is_dynamo_compiling() -> bool:
    return False


def assume_constant_result(fn: Any) -> Any:
    return fn


def cudagraph_mark_step_begin() -> None:
    pass
