"""Nodes of attention: _safe_softmax, the CPU flash attention kernel (one node for the whole
softmax(q k^T s) v), and baddbmm (MultiheadAttention's masked scores)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.activations import _softmax_array
from gradsh.engine.functions.common import _quiet, c_order, xp_of
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.vecmath import blas, flash_attention, half_gemm, sgemm

__all__ = ["SafeSoftmaxBackward0", "ScaledDotProductFlashAttentionForCpuBackward0",
           "BaddbmmBackward0", "attention_probabilities"]


def _safe_softmax_array(x: Array, dim: int) -> Array:
    """softmax, with 0 (not NaN) on the rows whose every entry is -inf (ATen's _safe_softmax)."""
    out = _softmax_array(x, dim)
    xp = xp_of(x)
    if x.ndim == 0 or x.size == 0:
        return out
    masked_rows = xp.all(x == -math.inf, axis=dim, keepdims=True)
    if masked_rows.any():
        out = xp.where(masked_rows, xp.zeros((), dtype=out.dtype), out)
    return out


class SafeSoftmaxBackward0(Function):
    """The math attention's softmax: its backward is softmax's, from the result."""

    node_name = "SafeSoftmaxBackward0"

    def forward(self, a: Tensor, dim: int) -> Array:
        self.dim = dim
        self.save("result", RESULT)
        return c_order(_safe_softmax_array(a._data, dim))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.softmax_backward(grad, self.saved("result", F), self.dim),)


def attention_probabilities(q: Array, k: Array, scale: float, mask: Array | None,
                            is_causal: bool) -> Array:
    """softmax(q k^T * scale + mask) over the keys, fully masked rows 0 (flash's convention)."""
    xp = xp_of(q)
    with _quiet():
        scores = xp.matmul(q, xp.swapaxes(k, -1, -2)) * q.dtype.type(scale)
        if is_causal:
            rows, cols = scores.shape[-2:]
            keep = xp.tril(xp.ones((rows, cols), dtype=bool))
            scores = xp.where(keep, scores, -xp.inf)
        if mask is not None:
            scores = scores + mask.astype(scores.dtype)
        return _safe_softmax_array(scores, -1)


def _sum_groups(grad: Array, groups: int) -> Array:
    """The gradient of a head repeated `groups` times: its copies' gradients summed."""
    *lead, heads, rows, cols = grad.shape
    return grad.reshape(*lead, heads // groups, groups, rows, cols).sum(axis=-3)


def _like_layout(result: Array, like: Array) -> Array:
    """result laid out in memory as `like` is (the kernel writes its output in the query's
    dimension order, so MultiheadAttention's permute-then-reshape after it is a view)."""
    order = sorted(range(like.ndim), key=lambda d: -like.strides[d])
    inverse = sorted(range(like.ndim), key=lambda d: order[d])
    return xp_of(result).ascontiguousarray(result.transpose(order)).transpose(inverse)


class ScaledDotProductFlashAttentionForCpuBackward0(Function):
    """F.scaled_dot_product_attention on PyTorch's CPU flash kernel (4-D inputs, no dropout):
    one node; the gradients are the attention's, computed from the saved probabilities."""

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"

    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask: Array | None, is_causal: bool,
                scale: float, groups: int = 1) -> Array:
        self.scale, self.groups, self.is_causal, self.mask = scale, groups, is_causal, mask
        self.kernel = flash_attention.available(q._data, k._data, v._data)
        if self.kernel:  # ATen's kernel itself (MKL's gemm, its online softmax): its bits
            out, self.lse = flash_attention.forward(q._data, k._data, v._data, mask, is_causal,
                                                    scale)
            self.out = out
        else:
            keys, values = k._data, v._data
            if groups > 1:  # grouped-query attention: each key/value head serves `groups`
                keys = xp_of(keys).repeat(keys, groups, axis=-3)
                values = xp_of(values).repeat(values, groups, axis=-3)
            probs = attention_probabilities(q._data, keys, scale, mask, is_causal)
            self.probs = probs
            with _quiet():
                out = xp_of(probs).matmul(probs, values)
        if any(self.needs_input_grad):
            self.save("query", q)
            self.save("key", k)
            self.save("value", v)
        return _like_layout(out, q._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("derivative for aten::_scaled_dot_product_flash_attention_"
                                    "for_cpu_backward is not implemented")
        q, k, v = (self.saved(name, F) for name in ("query", "key", "value"))
        xp = xp_of(grad)
        if self.kernel:
            g_q, g_k, g_v = flash_attention.backward(
                xp.asarray(grad, dtype=q.dtype), q, k, v, self.out, self.lse, self.mask,
                self.is_causal, self.scale)
        else:
            if self.groups > 1:
                k, v = xp.repeat(k, self.groups, axis=-3), xp.repeat(v, self.groups, axis=-3)
            g_q, g_k, g_v = self._composed_backward(grad, q, k, v)
            if self.groups > 1:
                g_k, g_v = (_sum_groups(g, self.groups) for g in (g_k, g_v))
        need_q, need_k, need_v = self.needs_input_grad
        return (g_q if need_q else None, g_k if need_k else None, g_v if need_v else None)

    def _composed_backward(self, grad: Array, q: Array, k: Array, v: Array
                           ) -> tuple[Array, Array, Array]:
        """The gradients from the saved probabilities (without MKL: NumPy's products)."""
        probs = self.probs
        xp = xp_of(grad)
        with _quiet():
            g_v = xp.matmul(xp.swapaxes(probs, -1, -2), grad)
            g_p = xp.matmul(grad, xp.swapaxes(v, -1, -2))
            g_s = probs * (g_p - (g_p * probs).sum(axis=-1, keepdims=True))
            g_s = g_s * g_s.dtype.type(self.scale)
            return xp.matmul(g_s, k), xp.matmul(xp.swapaxes(g_s, -1, -2), q), g_v


_KERNEL_DTYPES = frozenset({np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)})


_GEMMS = {np.dtype(np.float16): half_gemm.addmm_half, np.dtype(np.float32): sgemm.addmm,
          np.dtype(np.float64): blas.addmm}


def _baddbmm_cpu(bias: Array, b1: Array, b2: Array, beta: float, alpha: float) -> Array | None:
    """baddbmm of float NumPy arrays as ATen's CPU kernels, where gradsh reproduces them: below
    400 multiply-adds per batch baddbmm_cpu_kernel (each dot in order in the op math type,
    float32 for float16, then r * beta + alpha * dot, rounded once); above, float16's one
    reduced-float gemm per batch (half_gemm.addmm_half), float32's and float64's MKL gemm per
    batch (sgemm.addmm, blas.addmm: MKL's batched gemm's bits differ now and then). None:
    NumPy's product will do."""
    small = b1.shape[1] * b1.shape[2] * b2.shape[2] < 400
    if not len(b1):
        return None
    out = np.broadcast_to(bias, (b1.shape[0], b1.shape[1], b2.shape[2]))
    with _quiet():
        if not small:
            gemm = _GEMMS[b1.dtype]
            pieces = [gemm(np.ascontiguousarray(out[i]), b1[i], b2[i], beta, alpha)
                      for i in range(len(b1))]
            return None if pieces[0] is None else np.stack(pieces)
        acc = np.float64 if b1.dtype == np.float64 else np.float32
        # (the products of each dot summed in order: add.accumulate's last partial sum)
        terms = b1.astype(acc)[:, :, :, None] * b2.astype(acc)[:, None, :, :]
        wide = np.add.accumulate(terms, axis=2)[:, :, -1] if b1.shape[2] else \
            np.zeros(out.shape, acc)
        wide = wide * acc(alpha)
        if beta != 0:
            wide = out.astype(acc) * acc(beta) + wide
        return wide.astype(b1.dtype)


class BaddbmmBackward0(Function):
    """baddbmm(input, b1, b2, beta, alpha) = beta * input + alpha * (b1 @ b2), batched; input
    broadcasts to the product's shape."""

    node_name = "BaddbmmBackward0"

    def forward(self, bias: Tensor, b1: Tensor, b2: Tensor, beta: float,
                alpha: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1:
            self.save("batch2", b2)
        if need_2:
            self.save("batch1", b1)
        self.beta, self.alpha, self.bias_shape = beta, alpha, tuple(bias.shape)
        xp = xp_of(b1._data)
        if b1._data.dtype in _KERNEL_DTYPES and b1._data.__class__ is np.ndarray:
            out = _baddbmm_cpu(bias._data, b1._data, b2._data, beta, alpha)
            if out is not None:
                return out
        with _quiet():
            product = xp.matmul(b1._data, b2._data)
            if alpha != 1:
                product = product * product.dtype.type(alpha)
            if beta == 0:
                return product
            scaled = bias._data if beta == 1 else bias._data * bias._data.dtype.type(beta)
            return xp.asarray(product + scaled, dtype=product.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_bias, need_1, need_2 = self.needs_input_grad
        g_bias = g1 = g2 = None
        if need_bias:
            g_bias = F.sum_to(grad if self.beta == 1 else grad * self.beta, self.bias_shape)
        if need_1:
            g1 = F.bmm(grad, F.transpose(self.saved("batch2", F), 1, 2))
            g1 = g1 if self.alpha == 1 else g1 * self.alpha
        if need_2:
            g2 = F.bmm(F.transpose(self.saved("batch1", F), 1, 2), grad)
            g2 = g2 if self.alpha == 1 else g2 * self.alpha
        return g_bias, g1, g2
