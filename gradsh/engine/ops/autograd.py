"""Autograd entry points: backward, autograd.backward, autograd.grad, tensor and module hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.functions.autograd import BackwardHookFunctionBackward
from gradsh.engine.ops.creation import zeros_like
from gradsh.engine.ops.guard import _describe, guarded
from gradsh.engine.tensor import Tensor, is_grad_enabled, run_backward

__all__ = ["backward", "autograd_backward", "grad", "register_hook", "backward_hook_identity"]


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, Tensor):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise TorchTypeError(f"'{_describe(value)}' object is not iterable")
    return list(value)


def _outputs(value: Any) -> list[Tensor]:
    outs = _as_list(value)
    for t in outs:
        if not isinstance(t, Tensor):
            raise TorchTypeError("Expected output to be a torch.Tensor")
    return outs


def _inputs(value: Any) -> list[Tensor]:
    ins = _as_list(value)
    for t in ins:
        if not isinstance(t, Tensor):
            raise TorchRuntimeError(
                f"all inputs have to be Tensors or GradientEdges, but got {_describe(t)}"
            )
    return ins


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    if not isinstance(t, Tensor):
        raise TorchTypeError("Expected output to be a torch.Tensor")
    ins = _inputs(inputs) if inputs is not None else None
    if ins is not None and not ins:
        raise TorchRuntimeError("`inputs` argument to `backward()` cannot be empty.")
    run_backward([t], [gradient], retain_graph=retain_graph, create_graph=create_graph,
                 inputs=ins)


def autograd_backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
                      create_graph: bool = False, inputs: Any = None) -> None:
    outs = _outputs(tensors)
    grads: list[Any] = [None] * len(outs) if grad_tensors is None else _as_list(grad_tensors)
    ins = _inputs(inputs) if inputs is not None else None
    run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph, inputs=ins)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    outs = _outputs(outputs)
    ins = _inputs(inputs)
    if not ins:
        raise TorchRuntimeError("grad requires non-empty inputs.")
    gouts: list[Any] = [None] * len(outs) if grad_outputs is None else _as_list(grad_outputs)
    if len(gouts) != len(outs):
        raise TorchRuntimeError(
            f"grad_outputs should be a sequence of length {len(outs)}, got {len(gouts)}"
        )
    result = run_backward(outs, gouts, retain_graph=retain_graph, create_graph=create_graph,
                          inputs=ins, allow_unused=bool(allow_unused) or materialize_grads,
                          accumulate=False)
    assert result is not None
    if materialize_grads:
        result = [zeros_like(i) if g is None else g for g, i in zip(result, ins, strict=True)]
    return tuple(result)


@guarded
def register_hook(t: Tensor, hook: Callable[[Tensor], Tensor | None]) -> Any:
    return t.register_hook(hook)


def backward_hook_identity(t: Tensor, callback: Callable[[Tensor], Tensor | None]) -> Tensor:
    """`t` passed through a BackwardHookFunctionBackward node (t itself when no graph is being
    recorded for it)."""
    if not (is_grad_enabled() and t.requires_grad):
        return t
    return BackwardHookFunctionBackward.apply(t, callback=callback)
