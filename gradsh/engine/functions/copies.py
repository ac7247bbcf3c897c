"""Nodes of copies, casts and fills: clone, to, zero_, fill_, copy_."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions import complex_nodes
from gradsh.engine.functions.common import c_order, infer_size, preserve_layout, xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = [
    "CloneBackward0", "ToCopyBackward0", "ZeroBackward0", "FillBackward2", "FillBackward3",
    "CopyBackwards",
]


def in_memory_order(data: Array, order: tuple[int, ...]) -> Array:
    """A copy of data laid out with its dimensions `order` outermost first (channels_last is
    (0, 2, 3, 1)), viewed in the logical order."""
    dense = xp_of(data).ascontiguousarray(data.transpose(order))
    return dense.transpose([order.index(d) for d in range(data.ndim)])


class CloneBackward0(Function):
    """clone: memory_format "preserve" keeps a dense layout (a transposed clone stays
    transposed), "contiguous" is what reshape and contiguous() use."""

    node_name = "CloneBackward0"

    def forward(self, a: Tensor, memory_format: Any = "preserve") -> Array:
        if isinstance(memory_format, tuple):  # a memory order: channels_last's
            return in_memory_order(a._data, memory_format)
        if memory_format == "preserve":
            return preserve_layout(a._data.copy(order="K"), a._data)
        return c_order(a._data.copy(order="C"))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad,)


class ToCopyBackward0(Function):
    """A dtype or device change: the gradient goes back in the input's dtype and device."""

    node_name = "ToCopyBackward0"

    def forward(self, a: Tensor, dtype: DType, device: str,
                order: tuple[int, ...] | None = None) -> Array:
        self.output_device = device
        data = a._data if order is None else in_memory_order(a._data, order)
        if device == "meta":
            return meta.array(data.shape, dtype.np)
        if a.device == "meta":
            raise meta.no_data()
        if data.dtype == dtypes.BF16_NP and not dtype.is_floating_point:
            # c10 converts BFloat16 to an integer through float (ml_dtypes saturates instead)
            data = data.astype(np.float32)
        if data.dtype.kind == "c" and not dtype.is_complex:
            complex_nodes.warn_discarding_imaginary()
            data = data.real
        out = data.astype(dtype.np, copy=True)
        return backend.to_device(out if order is not None else preserve_layout(out, data), device)

    def common_device(self, inputs: Any, params: Any) -> str:  # the device is a parameter
        return inputs[0].device

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # _to_copy_backward: grad.to(self.options()), dtype and device in one copy
        _shape, dtype, device = self.input_meta[0]
        return (F.to_copy(grad, dtype, device),)


class ZeroBackward0(Function):
    node_name = "ZeroBackward0"

    def forward(self, a: Tensor) -> Array:
        return xp_of(a._data).zeros_like(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FillBackward2(Function):
    """fill_(number)."""

    node_name = "FillBackward2"

    def forward(self, a: Tensor, value: Any) -> Array:
        return xp_of(a._data).full_like(a._data, value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class FillBackward3(Function):
    """fill_(0-d tensor): the value is an input and receives the sum of the gradient."""

    operand_overlap_check = False  # (ATen reads the value first: no overlap check)

    node_name = "FillBackward3"

    def forward(self, a: Tensor, value: Tensor) -> Array:
        if value.ndim != 0:
            raise TorchRuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return xp_of(a._data).full_like(a._data, value._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (F.zeros_like(grad) if a else None, F.sum(grad, None, False) if b else None)


class CopyBackwards(Function):
    """copy_(src): self's old values get no gradient, src gets it (summed to its shape)."""

    node_name = "CopyBackwards"

    def forward(self, a: Tensor, src: Tensor) -> Array:
        try:
            infer_size(a.shape, src.shape)
            if len(src.shape) > len(a.shape) or infer_size(a.shape, src.shape) != a.shape:
                raise TorchRuntimeError("")
        except TorchRuntimeError:
            raise TorchRuntimeError(
                f"The size of tensor a ({a.shape[-1] if a.shape else 1}) must match the size of "
                f"tensor b ({src.shape[-1] if src.shape else 1}) at non-singleton dimension "
                f"{max(len(a.shape) - 1, 0)}"
            ) from None
        src_data = src._data
        if src.device != a.device:
            src_data = backend.to_device(src_data, a.device)  # copy_ crosses devices
        xp = xp_of(a._data)
        return xp.broadcast_to(src_data, a.shape).astype(a._data.dtype, copy=True)

    def common_device(self, inputs: Any, params: Any) -> str:  # copy_ reads from any device
        return inputs[0].device

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        g_src = None
        if b:
            # grad.to(src's options): its dtype and device, before the engine sums it
            _shape, dtype, device = self.input_meta[1]
            g_src = F.to_copy(grad, dtype, device)
        return (F.zeros_like(grad) if a else None, g_src)
