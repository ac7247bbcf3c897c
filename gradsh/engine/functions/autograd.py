"""The identity node nn.Module's full backward hooks put on a module's inputs and outputs."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["BackwardHookFunctionBackward", "BackwardHookInputsBackward"]


class BackwardHookFunctionBackward(Function):
    """PyTorch's BackwardHookFunction: passes its input through unchanged; in backward it hands
    the incoming gradient (as a Tensor) to `callback`, which may return a replacement."""

    node_name = "BackwardHookFunctionBackward"

    def forward(self, a: Tensor, callback: Callable[[Tensor], Tensor | None]) -> Array:
        self.callback = callback
        return a._data

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        device = self.input_meta[0][2] if self.input_meta and self.input_meta[0] else "cpu"
        given = grad if isinstance(grad, Tensor) else Tensor._make(grad, device)
        result = self.callback(given)
        if result is None:
            return (grad,)
        return (result if F.as_tensor else result._data,)


class BackwardHookInputsBackward(MultiOutputFunction):
    """PyTorch's BackwardHookFunction over all of a module call's tensor inputs at once: one
    node, one output per input (the input's data, unchanged; an input that does not require
    grad gives a non-differentiable output). In backward `callback` gets every output's
    gradient together, zeros for those nothing reached (a custom Function's materialized
    gradients: a bool mask's are False), and returns the input gradients to pass on."""

    node_name = "BackwardHookFunctionBackward"

    @classmethod
    def apply_hooked(cls, tensors: Sequence[Tensor],
                     callback: Callable[[tuple[Tensor, ...]], tuple[Any, ...]]
                     ) -> tuple[Tensor, ...]:
        node = cls()
        node.callback = callback
        needs = tuple(t.requires_grad for t in tensors)
        node.needs_input_grad = needs
        node.num_outputs = len(tensors)  # type: ignore[misc]
        node.like = [(t.shape, t._data.dtype, t.device) for t in tensors]
        node._activate(tuple(tensors))
        # (each output its own array object over the input's memory: one tensor passed twice
        # gives two outputs)
        outputs = tuple(Tensor._make(t._data.view(), t.device, node if need else None)
                        for t, need in zip(tensors, needs, strict=True))
        node.output_device = tensors[0].device
        node._outputs = [weakref.ref(t) for t in outputs]
        node._output_ids = [id(t._data) for t in outputs]
        return outputs

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        if self.num_outputs == 1:  # the engine hands a one-output node its gradient itself
            grads = (grads,)
        full = []
        for g, (shape, dtype, device) in zip(grads, self.like, strict=True):
            if g is None:
                g = np.zeros(tuple(shape), dtype)
            full.append(g if isinstance(g, Tensor) else Tensor._make(g, device))
        result = self.callback(tuple(full))
        return tuple(r if r is None or F.as_tensor else r._data for r in result)
