"""Nodes of the BLAS-style fused ops addmv, addr and addbmm: beta * input + alpha * product
(values within rounding of PyTorch's; MKL's gemv and batched accumulation orders are not
reproduced)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.functions.linalg import product
from gradsh.engine.vecmath import blas, half_gemm, sgemm
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


_WIDE = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


class AddbmmBackward0(_Fused):
    node_name = "AddbmmBackward0"

    def forward(self, inp: Tensor, a: Tensor, b: Tensor, beta: float, alpha: float) -> Array:
        m1, m2 = a._data, b._data
        if (m1.dtype not in _WIDE and m1.dtype not in REDUCED_FLOAT_NP) or m1.__class__ is not np.ndarray or not len(m1) \
                or m2.__class__ is not np.ndarray or m2.dtype != m1.dtype:
            return super().forward(inp, a, b, beta, alpha)
        # ATen's addbmm_impl_: one addmm_ per batch into the result, each rounded to the dtype
        # (float32's and float64's through MKL's gemm, bfloat16's through float32, float16's
        # through its own gemm)
        self.beta, self.alpha, self.input_shape = beta, alpha, tuple(inp.shape)
        self.save("a", a)
        self.save("b", b)
        out = np.broadcast_to(inp._data, (m1.shape[1], m2.shape[2]))
        with _quiet():
            for i in range(len(m1)):
                scale = beta if i == 0 else 1
                if m1.dtype == np.float16:
                    out = half_gemm.addmm_half(out, m1[i], m2[i], scale, alpha)
                    continue
                if m1.dtype == np.float32:
                    out = sgemm.addmm(np.ascontiguousarray(out), m1[i], m2[i], scale, alpha)
                    continue
                if m1.dtype == np.float64:
                    wide = blas.addmm(np.ascontiguousarray(out), m1[i], m2[i], scale, alpha)
                    if wide is None:
                        return super().forward(inp, a, b, beta, alpha)
                    out = wide
                    continue
                wide = np.matmul(m1[i].astype(np.float32), m2[i].astype(np.float32))
                wide = _scale(wide, np.float32(alpha))
                if scale != 0:
                    wide = wide + _scale(out.astype(np.float32), np.float32(scale))
                out = wide.astype(m1.dtype)
        return np.ascontiguousarray(out)

    def product(self, a: Array, b: Array) -> Array:
        return product(a, b).sum(axis=0)

    def operand_grads(self, F: Any, grad: Any, a: Any, b: Any) -> tuple[Any, Any]:
        batch = a.shape[0]
        expanded = F.expand(F.unsqueeze(grad, 0), (batch,) + tuple(grad.shape))
        return (F.bmm(expanded, F.transpose(b, 1, 2)),
                F.bmm(F.transpose(a, 1, 2), expanded))
