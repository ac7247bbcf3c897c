"""The node of 3-D average pooling without padding (what local_response_norm pools with):
AvgPool3DBackward0, its window sums in the kernel's order."""

from __future__ import annotations

import itertools
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AvgPool3DBackward0"]

Triple = tuple[int, int, int]


def _window(offset: Triple, stride: Triple, out: Triple) -> tuple[slice, ...]:
    return (Ellipsis,) + tuple(slice(k, k + s * (o - 1) + 1, s)
                               for k, s, o in zip(offset, stride, out, strict=True))


class AvgPool3DBackward0(Function):
    node_name = "AvgPool3DBackward0"

    def forward(self, x: Tensor, kernel: Triple, stride: Triple, out_size: Triple,
                divisor: int) -> Array:
        data = x._data
        self.kernel, self.stride, self.out_size, self.divisor = kernel, stride, out_size, divisor
        self.input_shape = tuple(data.shape)
        total = None
        with _quiet():
            for offset in itertools.product(*(range(k) for k in kernel)):
                part = data[_window(offset, stride, out_size)]
                total = part.copy() if total is None else total + part
            return xp_of(data).ascontiguousarray(total / data.dtype.type(divisor))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "avg_pool3d yet")
        xp = xp_of(grad)
        share = grad / grad.dtype.type(self.divisor)
        result = xp.zeros(self.input_shape, dtype=grad.dtype)
        # each input gathers its outputs' shares in output order: offsets in reverse
        for offset in reversed(list(itertools.product(*(range(k) for k in self.kernel)))):
            result[_window(offset, self.stride, self.out_size)] += share
        return (result,)
