"""The identity node nn.Module's full backward hooks put on a module's inputs and outputs."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Tensor
from gradsh.engine.view_rules import IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, alias_view

__all__ = ["BackwardHookFunctionBackward"]


class BackwardHookFunctionBackward(MultiOutputFunction):
    """PyTorch's BackwardHookFunction (torch/nn/modules/_functions.py): the identity node that
    nn.Module's full backward hooks put over a module call's tensor inputs, and another over
    its tensor outputs. One node, one output per tensor (the tensor's data, unchanged; one that
    does not require grad gives a non-differentiable output). In backward `callback` gets every
    output's gradient at once and returns the gradients to pass on.

    Over the inputs, a gradient nothing reached is zeros (a custom Function's materialized
    gradient: a bool mask's are False); over the outputs it stays None and is handed on as
    None, as PyTorch's output pre-hook leaves it (the nodes below still run, and a tensor hook
    there sees None)."""

    node_name = "BackwardHookFunctionBackward"
    function_name = "BackwardHookFunction"  # the name PyTorch's view+inplace error gives
    runs_without_grad = True  # a Python Function's node: it runs when nothing reached it

    @classmethod
    def apply_hooked(cls, tensors: Sequence[Tensor],
                     callback: Callable[[tuple[Tensor | None, ...]], tuple[Any, ...]],
                     materialize: bool) -> tuple[Tensor, ...]:
        node = cls()
        node.callback = callback
        node.materialize = materialize
        needs = tuple(t.requires_grad for t in tensors)
        node.needs_input_grad = needs
        node.num_outputs = len(tensors)  # type: ignore[misc]
        node.like = [(t.shape, t._data.dtype, t.device) for t in tensors]
        node._activate(tuple(tensors))
        # (each output its own array object over the input's memory: one tensor passed twice
        # gives two outputs), a view of its input as a Function's input returned as is; one
        # that requires grad may not be modified in place (view_rules)
        creation = IN_CUSTOM_FUNCTION if sum(needs) == 1 else MULTI_OUTPUT_NODE
        outputs = tuple(alias_view(Tensor._make(t._data.view(), t.device, node if need else None),
                                   t) for t, need in zip(tensors, needs, strict=True))
        for t, need in zip(outputs, needs, strict=True):
            if need:
                t._view_creation = creation
        node.output_device = tensors[0].device
        node._outputs = [weakref.ref(t) for t in outputs]
        node._output_ids = [id(t._data) for t in outputs]
        return outputs

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        if self.num_outputs == 1:  # the engine hands a one-output node its gradient itself
            grads = (grads,)
        full: list[Tensor | None] = []
        for g, (shape, dtype, device) in zip(grads, self.like, strict=True):
            if g is None and self.materialize:
                g = np.zeros(tuple(shape), dtype)
            full.append(g if g is None or isinstance(g, Tensor) else Tensor._make(g, device))
        result = self.callback(tuple(full))
        return tuple(r if r is None or F.as_tensor else r._data for r in result)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.node_name} object at {id(self):#x}>"


BackwardHookFunctionBackward.__module__ = "torch.autograd.function"  # a Python Function's node
