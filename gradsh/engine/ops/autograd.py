"""Autograd entry points: backward, autograd.backward, autograd.grad, tensor and module hooks."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.ops.creation import zeros_like
from gradsh.engine.ops.guard import _describe, guarded
from gradsh.engine.tensor import Tensor, run_backward

__all__ = ["backward", "autograd_backward", "grad", "register_hook"]


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
         create_graph: bool = False, only_inputs: bool = True,
         allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> Any:
    if is_grads_batched:
        raise TorchRuntimeError("gradsh does not implement torch.autograd.grad("
                                "is_grads_batched=True) yet")
    names = list(inputs) if type(inputs) is dict else None
    outs = _outputs(outputs)
    ins = _inputs(list(inputs.values()) if names is not None else inputs)
    if not ins:
        raise TorchRuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
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
    if names is not None:  # inputs given as a dict: the gradients under the same keys
        return dict(zip(names, result, strict=True))
    return tuple(result)


@guarded
def register_hook(t: Tensor, hook: Callable[[Tensor], Tensor | None]) -> Any:
    return t.register_hook(hook)

