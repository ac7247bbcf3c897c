"""The double backward of max pooling with indices (max_pool2d, adaptive_max_pool2d): the
first backward recorded as one node, MaxPool2DWithIndicesBackwardBackward0 or
AdaptiveMaxPool2DBackwardBackward0, whose own gradient (max_pool_double_backward) gathers the
incoming gradient at the pooled positions; the pooled input gets zeros, as in PyTorch."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Array, ArrayOps, Function, Tensor

__all__ = ["MaxPoolBackwardBackward", "AdaptiveMaxPoolBackwardBackward",
           "recorded_pool_backward"]


class MaxPoolBackwardBackward(Function):
    """grad_output scattered to the input's shape at `indices` (the first-order node's own
    array kernel computes it). Its edges: grad_output's, then the pooled input's (given the
    first-order node's edge after apply), which receives zeros."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    def forward(self, grad_output: Tensor, first: Any) -> Array:
        self.indices, self.grad_shape = first.indices, tuple(grad_output.shape)
        self.input_shape = first.input_shape
        return first.backward(ArrayOps, grad_output._data)[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        lead = self.grad_shape[:-2]
        plane = grad.shape[-1] * grad.shape[-2]
        flat = F.reshape(grad, tuple(grad.shape[:-2]) + (plane,))
        index = self.indices.reshape(lead + (-1,))
        if F.as_tensor:
            index = Tensor._make(index, grad.device)
        gathered = F.reshape(F.gather(flat, len(lead), index), self.grad_shape)
        if len(self.next_functions) == 1:
            return (gathered,)
        return gathered, F.zeros(self.input_shape, grad)


class AdaptiveMaxPoolBackwardBackward(MaxPoolBackwardBackward):
    node_name = "AdaptiveMaxPool2DBackwardBackward0"


def recorded_pool_backward(first: Any, grad: Tensor, adaptive: bool) -> Tensor:
    """The first-order pooling backward under create_graph: one recorded node, with an edge to
    the pooled input too (it gets zeros), as PyTorch's has."""
    node = AdaptiveMaxPoolBackwardBackward if adaptive else MaxPoolBackwardBackward
    out = node.apply(grad, first=first)
    fn = out._grad_fn
    edge = first.next_functions[0] if first.next_functions else (None, 0)
    if fn is not None and edge[0] is not None:
        fn.next_functions = tuple(fn.next_functions) + (edge,)
        fn.input_meta = tuple(fn.input_meta) + (first.input_meta[0],)
        fn.needs_input_grad = tuple(fn.needs_input_grad) + (True,)
    return out
