"""Nodes of linear algebra: mm, mv, dot, bmm, addmm, trilinear (bilinear), trace, tril/triu,
diag."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions import trilinear
from gradsh.engine.functions import complex_kernels
from gradsh.engine.functions.common import _quiet, c_order, cj, xp_of
from gradsh.engine.tensor import Array, Function, Shape, Tensor
from gradsh.engine.vecmath import blas, half_gemm, sgemm

__all__ = [
    "MmBackward0", "MvBackward0", "DotBackward0", "BmmBackward0", "AddmmBackward0",
    "TraceBackward0", "TrilBackward0", "TriuBackward0", "DiagEmbedBackward0",
    "DiagonalBackward0Copy", "TrilinearBackward0",
]

F32 = np.float32
F64 = np.float64


def product(a: Array, b: Array) -> Array:
    """a @ b (mm, mv, bmm): float32 NumPy arrays with MKL's bits where gradsh reproduces them
    (vecmath/sgemm.py), float64 ones through MKL where it is loaded (vecmath/blas.py),
    everything else with NumPy / CuPy."""
    if a.__class__ is np.ndarray and b.__class__ is np.ndarray and a.dtype == b.dtype:
        if a.dtype == F32:
            return sgemm.matmul(a, b)
        if a.dtype == F64 or a.dtype.kind == "c":  # (complex: cgemm_ / zgemm_ for mm, bmm)
            out = _double_product(a, b)
            if out is not None:
                return out
        if a.dtype == np.float16 and a.ndim == 2 and b.ndim == 2 \
                and _column_major(a) == _column_major(b):
            # ATen's reduced-float gemm_notrans_ (both row-major, or both column-major): each
            # dot through sum()'s four partial sums, rounded once; a column-major a with a
            # row-major b (gemm_transa_) adds in order, as NumPy's loop does
            with _quiet():
                return half_gemm.ilp4_product(a, b).astype(np.float16)
        if a.dtype == np.float16 and a.ndim == 2 and b.ndim == 2 and _column_major(a):
            with _quiet():
                return half_gemm.ordered_product(a, b).astype(np.float16)
        if a.dtype == np.float16 and a.ndim == 2 and b.ndim == 2 and _column_major(b):
            with _quiet():
                return half_gemm.dot_fp32_arith(a, b).astype(np.float16)
    return xp_of(a).matmul(a, b)


def matrix_product(a: Array, b: Array) -> Array:
    """mm's product (backward formulas' F.mm): two float32 NumPy matrices straight to MKL's
    sgemm where it is loaded (what product reaches through sgemm.matmul and sgemm.mm, three
    calls later: every linear layer's backward makes two or three), else product."""
    if (a.__class__ is np.ndarray and b.__class__ is np.ndarray and a.dtype == F32
            and b.dtype == F32 and a.ndim == 2 and b.ndim == 2):
        out = blas.mm(a, b)
        if out is not None:
            return out
    return product(a, b)


def _double_product(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """MKL's dgemm / dgemv / ddot as ATen calls them, by dimension (bmm: from 400
    multiply-adds a matrix, below which ATen runs its own loop); None: NumPy's."""
    if a.ndim == 2 and b.ndim == 2:
        return blas.mm(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return blas.mv(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return blas.dot(a, b)
    if a.ndim == 3 and b.ndim == 3:
        if a.shape[1] * a.shape[2] * b.shape[2] >= 400:
            return blas.bmm(a, b)
        if not blas.available():
            return None
        # ATen's own small bmm loop (baddbmm_cpu_kernel): an unfused chain over k, in order
        acc = np.zeros(a.shape[:-1] + b.shape[-1:], a.dtype)
        for k in range(a.shape[-1]):
            if a.dtype.kind == "c":
                acc += complex_kernels.mul(a[..., :, k:k + 1], b[..., k:k + 1, :], a.dtype)
            else:
                acc += a[..., :, k:k + 1] * b[..., k:k + 1, :]
        return acc
    return None


def _strides(array: Array) -> tuple[int, ...]:
    item = array.itemsize
    return tuple(s // item for s in array.strides)


class MmBackward0(Function):
    node_name = "MmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        # NOTE: PyTorch returns the gradient in column-major form when the input was
        # column-major (mm_mat1_backward / mm_mat2_backward); the layout decides the formula.
        self.self_column_major = _column_major(a._data)
        self.mat2_column_major = _column_major(b._data)
        return product(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        ga = gb = None
        if a:
            mat2 = cj(self.saved("mat2", F))
            if self.self_column_major:
                ga = F.t(F.mm(mat2, F.t(grad)))
            else:
                ga = F.mm(grad, F.t(mat2))
        if b:
            mat1 = cj(self.saved("self", F))
            if self.mat2_column_major:
                gb = F.t(F.mm(F.t(grad), mat1))
            else:
                gb = F.mm(F.t(mat1), grad)
        return ga, gb


def _column_major(array: Array) -> bool:
    if array.ndim != 2:
        return False
    item = array.itemsize  # (_strides' values, without the tuple)
    first, second = array.strides
    return first // item == 1 and second // item == array.shape[0]


class MvBackward0(Function):
    node_name = "MvBackward0"

    def forward(self, a: Tensor, v: Tensor) -> Array:
        self.save("self", a)
        self.save("vec", v)
        return product(a._data, v._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.outer(grad, cj(self.saved("vec", F))) if a else None,
            F.mv(F.t(cj(self.saved("self", F))), grad) if b else None,
        )


class DotBackward0(Function):
    node_name = "DotBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        self.save("self", a)
        self.save("tensor", b)
        if a._data.__class__ is np.ndarray and a._data.dtype == b._data.dtype == F32:
            return sgemm.dot(a._data, b._data)
        if a._data.__class__ is np.ndarray and a._data.dtype == b._data.dtype == F64:
            out = blas.dot(a._data, b._data)
            if out is not None:
                return out
        return xp_of(a._data).dot(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            grad * cj(self.saved("tensor", F)) if a else None,
            grad * cj(self.saved("self", F)) if b else None,
        )


class BmmBackward0(Function):
    node_name = "BmmBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if self.needs_input_grad[0]:
            self.save("mat2", b)
        if self.needs_input_grad[1]:
            self.save("self", a)
        return product(a._data, b._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        return (
            F.bmm(grad, F.transpose(cj(self.saved("mat2", F)), 1, 2)) if a else None,
            F.bmm(F.transpose(cj(self.saved("self", F)), 1, 2), grad) if b else None,
        )


class AddmmBackward0(Function):
    """addmm(input, mat1, mat2, beta, alpha) = beta * input + alpha * (mat1 @ mat2): the fused
    op F.linear uses for 2-D inputs with a bias."""

    node_name = "AddmmBackward0"

    def forward(self, bias: Tensor, mat1: Tensor, mat2: Tensor, beta: float,
                alpha: float) -> Array:
        _, need_1, need_2 = self.needs_input_grad
        if need_1:
            self.save("mat2", mat2)
        if need_2:
            self.save("mat1", mat1)
        self.beta, self.alpha = beta, alpha
        m1, m2, b = mat1._data, mat2._data, bias._data
        self.mat1_column_major = _column_major(m1)
        self.mat2_column_major = _column_major(m2)
        if (m1.__class__ is np.ndarray and m2.__class__ is np.ndarray and b.__class__ is np.ndarray
                and m1.dtype == m2.dtype == b.dtype == F32):
            # (NumPy's warnings are off engine-wide: see _quiet) a new row-major result, as
            # ATen's (the rank-1 kernel's is not)
            return np.ascontiguousarray(sgemm.addmm(b, m1, m2, beta, alpha))
        xp = xp_of(m1)
        if (m1.__class__ is np.ndarray and m2.__class__ is np.ndarray and b.__class__ is np.ndarray
                and m1.dtype == m2.dtype == b.dtype == F64):
            with _quiet():
                out = blas.addmm(b, m1, m2, beta, alpha)  # MKL's dgemm where loaded
            if out is not None:
                return out
        if m1.dtype == m2.dtype == b.dtype == np.float16 and m1.__class__ is np.ndarray:
            with _quiet():  # ATen's reduced-float gemm: float32 sums, rounded once
                return half_gemm.addmm_half(b, m1, m2, beta, alpha)
        product = xp.matmul(mat1._data, mat2._data)
        if alpha != 1:
            product = product * alpha
        if beta == 0:  # the input is ignored, NaN and all
            return product
        scaled = bias._data if beta == 1 else bias._data * beta
        with _quiet():
            if scaled.dtype == product.dtype and product.__class__ is np.ndarray:
                product += scaled  # the product is ours: no second (batch, out) array
                return product
            return xp.asarray(product + scaled, dtype=product.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_bias, need_1, need_2 = self.needs_input_grad
        g_bias = g1 = g2 = None
        if need_bias:
            g_bias = grad if self.beta == 1 else grad * self.beta
        if need_1:
            mat2 = self.saved("mat2", F)
            g1 = (F.t(F.mm(mat2, F.t(grad))) if self.mat1_column_major
                  else F.mm(grad, F.t(mat2)))
            g1 = g1 if self.alpha == 1 else g1 * self.alpha
        if need_2:
            mat1 = self.saved("mat1", F)
            g2 = (F.t(F.mm(F.t(grad), mat1)) if self.mat2_column_major
                  else F.mm(F.t(mat1), grad))
            g2 = g2 if self.alpha == 1 else g2 * self.alpha
        return g_bias, g1, g2


class TraceBackward0(Function):
    node_name = "TraceBackward0"

    def forward(self, a: Tensor) -> Array:
        self.shape = a.shape
        return xp_of(a._data).asarray(xp_of(a._data).trace(a._data), dtype=a._data.dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        rows, cols = self.shape
        return (F.diagonal_matrix(grad, rows, cols),)


class TrilBackward0(Function):
    node_name = "TrilBackward0"
    upper = False

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal = diagonal
        xp = xp_of(a._data)
        return c_order((xp.triu if self.upper else xp.tril)(a._data, diagonal))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.triangle(grad, self.diagonal, self.upper),)


class TriuBackward0(TrilBackward0):
    node_name = "TriuBackward0"
    upper = True


def _array_diagonal_scatter(g: Array, shape: Shape, k: int) -> Array:
    """A zero matrix of `shape` with g on its k-th diagonal."""
    out = xp_of(g).zeros(shape, dtype=g.dtype)
    n = g.shape[0]
    rows = xp_of(g).arange(n) + (0 if k >= 0 else -k)
    out[rows, rows + k] = g
    return out


class DiagEmbedBackward0(Function):
    """diag of a vector: the matrix with it on the `diagonal`-th diagonal."""

    node_name = "DiagEmbedBackward0"

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal = diagonal
        return xp_of(a._data).diag(a._data, diagonal)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal(grad, self.diagonal),)


class DiagonalBackward0Copy(Function):
    """diag of a matrix: a copy of its `diagonal`-th diagonal."""

    node_name = "DiagonalBackward0_copy"

    def forward(self, a: Tensor, diagonal: int) -> Array:
        self.diagonal, self.shape = diagonal, a.shape
        return xp_of(a._data).diagonal(a._data, diagonal).copy()

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.diagonal_scatter(grad, self.shape, self.diagonal),)


class TrilinearBackward0(Function):
    """at::_trilinear as bilinear uses it: out[b, o] = sum_ij x1[b, i] w[o, i, j] x2[b, j]."""

    node_name = "TrilinearBackward0"

    def forward(self, x1: Tensor, weight: Tensor, x2: Tensor) -> Array:
        self.save("i1", x1)
        self.save("i2", weight)
        self.save("i3", x2)
        arrays = (x1._data, weight._data, x2._data)
        if _exact_trilinear(*arrays):
            return trilinear.trilinear(*arrays, (1, 3), (0,), (1, 2), (2, 3))
        xp = xp_of(x1._data)
        return xp.einsum("bi,oij,bj->bo", *arrays, optimize=True)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x1, w, x2 = (self.saved(k, F) for k in ("i1", "i2", "i3"))
        n1, nw, n2 = self.needs_input_grad
        if F.as_tensor:
            unsqueeze = F.unsqueeze
            gw = unsqueeze(unsqueeze(grad, 2), 3)  # (b, o, 1, 1)
            full = gw * unsqueeze(w, 0) * unsqueeze(unsqueeze(x2, 1), 1)  # g w x2: (b, o, i, j)
            g1 = F.sum(full, (1, 3), False) if n1 else None
            outer = unsqueeze(unsqueeze(x1, 1), 3) * unsqueeze(unsqueeze(x2, 1), 1)  # (b,1,i,j)
            g_w = F.sum(gw * outer, (0,), False) if nw else None
            g2 = None
            if n2:
                g2 = F.sum(gw * unsqueeze(w, 0) * unsqueeze(unsqueeze(x1, 1), 3), (1, 2), False)
            return g1, g_w, g2
        if _exact_trilinear(grad, x1, w, x2):  # _trilinear_backward: three more _trilinear
            e1, e2, e3, sums = (1, 3), (0,), (1, 2), (2, 3)
            return (trilinear.trilinear(grad, w, x2, sums, e2, e3, e1) if n1 else None,
                    trilinear.trilinear(x1, grad, x2, e1, sums, e3, e2) if nw else None,
                    trilinear.trilinear(x1, w, grad, e1, e2, sums, e3) if n2 else None)
        xp = xp_of(grad)
        return (xp.einsum("bo,oij,bj->bi", grad, w, x2, optimize=True) if n1 else None,
                xp.einsum("bo,bi,bj->oij", grad, x1, x2, optimize=True) if nw else None,
                xp.einsum("bo,oij,bi->bj", grad, w, x1, optimize=True) if n2 else None)


def _exact_trilinear(*arrays: Array) -> bool:
    """Whether _trilinear runs step for step (functions/trilinear.py): float32 or float64 NumPy
    arrays of one dtype."""
    return all(a.__class__ is np.ndarray for a in arrays) and arrays[0].dtype in (F32, F64) \
        and all(a.dtype == arrays[0].dtype for a in arrays)
