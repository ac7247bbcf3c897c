"""Nodes of the BLAS-style fused ops addmv, addr and addbmm: beta * input + alpha * product
(values within rounding of PyTorch's; MKL's gemv and batched accumulation orders are not
reproduced)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.linalg import product
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["AddbmmBackward0", "AddmvBackward0", "AddrBackward0"]


def _scale(t: Any, factor: float) -> Any:
    """maybe_multiply: unchanged for 1."""
    return t if factor == 1 else t * factor


def _combine(inp: Array, prod: Array, beta: float, alpha: float) -> Array:
    with _quiet():
        prod = _scale(prod, alpha)
        if beta == 0:  # the input is ignored, NaN and all
            return xp_of(prod).ascontiguousarray(prod + xp_of(prod).zeros_like(prod))
        return xp_of(prod).ascontiguousarray((_scale(inp, beta) + prod).astype(prod.dtype))


class _Fused(Function):
    def forward(self, inp: Tensor, a: Tensor, b: Tensor, beta: float, alpha: float) -> Array:
        self.beta, self.alpha, self.input_shape = beta, alpha, tuple(inp.shape)
        self.save("a", a)
        self.save("b", b)
        return _combine(inp._data, self.product(a._data, b._data), beta, alpha)

    def product(self, a: Array, b: Array) -> Array:
        raise NotImplementedError

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_input, need_a, need_b = self.needs_input_grad
        a, b = self.saved("a", F), self.saved("b", F)
        g_input = F.sum_to(_scale(grad, self.beta), self.input_shape) if need_input else None
        g_a, g_b = self.operand_grads(F, grad, a, b)
        return (g_input, _scale(g_a, self.alpha) if need_a else None,
                _scale(g_b, self.alpha) if need_b else None)

    def operand_grads(self, F: Any, grad: Any, a: Any, b: Any) -> tuple[Any, Any]:
        raise NotImplementedError


class AddmvBackward0(_Fused):
    node_name = "AddmvBackward0"

    def product(self, a: Array, b: Array) -> Array:
        return product(a, b)

    def operand_grads(self, F: Any, grad: Any, a: Any, b: Any) -> tuple[Any, Any]:
        return F.outer(grad, b), F.mv(F.t(a), grad)


class AddrBackward0(_Fused):
    node_name = "AddrBackward0"

    def product(self, a: Array, b: Array) -> Array:
        return xp_of(a).outer(a, b)

    def operand_grads(self, F: Any, grad: Any, a: Any, b: Any) -> tuple[Any, Any]:
        return F.mv(grad, b), F.mv(F.t(grad), a)


class AddbmmBackward0(_Fused):
    node_name = "AddbmmBackward0"

    def product(self, a: Array, b: Array) -> Array:
        return product(a, b).sum(axis=0)

    def operand_grads(self, F: Any, grad: Any, a: Any, b: Any) -> tuple[Any, Any]:
        batch = a.shape[0]
        expanded = F.expand(F.unsqueeze(grad, 0), (batch,) + tuple(grad.shape))
        return (F.bmm(expanded, F.transpose(b, 1, 2)),
                F.bmm(F.transpose(a, 1, 2), expanded))
