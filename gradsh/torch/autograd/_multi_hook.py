"""torch.autograd.graph.register_multi_grad_hook, as torch/autograd/graph.py builds it from
tensor hooks: "all" waits for every tensor the running backward will reach (the engine's
current task says which), "any" runs on the first gradient of each backward."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gradsh.engine import backward as engine
from gradsh.engine.tensor import Tensor
from gradsh.torch.utils.hooks import RemovableHandle


def _node_of(t: Tensor) -> Any:
    """The node whose run computes t's gradient: its grad_fn, or a leaf's AccumulateGrad."""
    return t._gradient_edge()[0]


def _task_id() -> int:
    if not engine.GRAPH_TASKS:
        raise AssertionError("expected this hook to be called inside a backward call")
    return engine.GRAPH_TASKS[-1][0]


class _Handles:
    """One handle removing every tensor hook of the multi-hook (PyTorch's Handle)."""

    def __init__(self, handles: tuple[Any, ...]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self) -> _Handles:
        return self

    def __exit__(self, *args: Any) -> None:
        self.remove()


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable[..., Any], *,
                             mode: str = "all") -> RemovableHandle | _Handles:
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    if mode == "any":
        ran: set[int] = set()

        def first(grad: Tensor) -> None:
            task = _task_id()
            if task not in ran:
                ran.add(task)
                fn(grad)

        return _Handles(tuple(t.register_hook(first) for t in tensors))
    nodes = [_node_of(t) for t in tensors]
    counts: dict[int, int] = {}
    buffers: dict[int, list[Any]] = {}
    expected = [0]

    def inner(index: int) -> Callable[[Tensor], None]:
        def hook(grad: Tensor) -> None:
            task = _task_id()
            count = counts.get(task, 0)
            buffer = buffers.setdefault(task, [None] * len(tensors))
            counts[task] = count + 1
            if count == 0:  # on the first call, how many of the tensors this backward reaches
                expected[0] = sum(node is not None and engine.will_execute(node)
                                  for node in nodes)
            buffer[index] = grad
            if count == expected[0] - 1:
                fn(buffer)
                del counts[task], buffers[task]
        return hook

    return _Handles(tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors)))
