"""Nodes of the less common element-wise ops and reductions: LdexpBackward0, FrexpBackward0,
NextafterBackward0, AminmaxBackward0."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import RESULT, Array, Function, Tensor

__all__ = ["AminmaxBackward0", "FrexpBackward0", "LdexpBackward0", "NextafterBackward0"]


class LdexpBackward0(Function):
    """x * 2 ** e, as derivatives.yaml's ldexp: x's gradient is grad * pow(2, e) (in integers
    for an integer e, so 0 where e is negative; PowBackward2 under create_graph where e
    requires grad), e's is grad * result * ln 2."""

    node_name = "LdexpBackward0"

    def forward(self, a: Tensor, other: Tensor, scale: Array, grad_scale: Array) -> Array:
        self.grad_scale = grad_scale
        if self.needs_input_grad[1]:
            self.save("other", other)
            self.save("result", RESULT)
        with _quiet():
            return a._data.astype(scale.dtype, copy=False) * scale

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_e = self.needs_input_grad
        gx = ge = None
        if need_x:
            scale = self.grad_scale
            if F.as_tensor:
                scale = 2.0 ** self.saved("other", F) if need_e else \
                    Tensor._make(scale, grad.device)
            gx = grad * scale
        if need_e:
            with _quiet():
                ge = grad * self.saved("result", F) * math.log(2.0)
        return gx, ge


class FrexpBackward0(MultiOutputFunction):
    """(mantissa, exponent): the mantissa's gradient is grad / 2 ** exponent."""

    node_name = "FrexpBackward0"
    differentiable = (True, False)

    def forward(self, a: Tensor) -> tuple[Array, Array]:  # type: ignore[override]
        mantissa, exponent = np.frexp(a._data)
        self.scale = np.ldexp(np.ones((), dtype=a._data.dtype), exponent)
        return mantissa, exponent.astype(np.int32)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        grad = grads[0]
        if grad is None:
            return (None,)
        scale = Tensor._make(self.scale, grad.device) if F.as_tensor else self.scale
        return (grad / scale,)


class NextafterBackward0(Function):
    """nextafter: PyTorch passes the gradient to self and none to other."""

    node_name = "NextafterBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.other_shape = tuple(b.shape)
        x, y = np.broadcast_arrays(a._data, b._data)
        y = y.astype(x.dtype, copy=False)
        if x.dtype.itemsize == 2:  # (NumPy's half nextafter returns x where x == y: -0 to +0)
            return np.where(x == y, y, np.nextafter(x, y))
        return np.nextafter(x, y)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (grad, F.zeros(self.other_shape, grad))


class AminmaxBackward0(MultiOutputFunction):
    """(min, max) over dim (or all): each output's gradient shared evenly among its ties, as
    amin's and amax's."""

    node_name = "AminmaxBackward0"
    differentiable: ClassVar[tuple[bool, ...]] = (True, True)

    def forward(self, a: Tensor, dim: int | None,  # type: ignore[override]
                keepdim: bool) -> tuple[Array, Array]:
        x = a._data
        self.dim, self.keepdim, self.x = dim, keepdim, x
        axis = None if dim is None else dim
        with _quiet():
            low = np.min(x, axis=axis, keepdims=keepdim)
            high = np.max(x, axis=axis, keepdims=keepdim)
        self.low, self.high = low, high
        return low, high

    def _share(self, grad: Array, result: Array) -> Array:
        x = self.x
        # scale_grad_by_count: (grad / count) * mask, so a negative grad leaves -0 elsewhere
        if self.dim is None:
            mask = x == result
            return (grad / grad.dtype.type(mask.sum())) * mask.astype(grad.dtype)
        expand = (lambda t: t) if self.keepdim else (lambda t: np.expand_dims(t, self.dim))
        mask = x == expand(result)
        count = mask.sum(axis=self.dim, keepdims=True).astype(grad.dtype)
        return (expand(grad) / count) * mask.astype(grad.dtype)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of aminmax "
                                    "yet")
        g_min, g_max = grads
        total = None
        for grad, result in ((g_min, self.low), (g_max, self.high)):
            if grad is not None:
                part = self._share(xp_of(grad).asarray(grad), result)
                total = part if total is None else total + part
        return (total,)
