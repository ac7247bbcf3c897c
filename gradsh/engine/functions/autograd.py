"""The identity node nn.Module's full backward hooks put on a module's inputs and outputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["BackwardHookFunctionBackward"]


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
