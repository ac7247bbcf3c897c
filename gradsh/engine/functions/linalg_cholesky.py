"""Nodes of torch.cholesky_solve and torch.cholesky_inverse: MKL's potrs and potri on
column-major copies, as ATen's apply_cholesky_solve / apply_cholesky_inverse call them, where
the `mkl` package is loaded (PyTorch's bits); two triangular solves without it."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.backend import host_kernel
from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.linalg_lu import (
    exact_matmul,
    mT,
    singular_error,
    triangular_solve,
)
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.vecmath import lapack_decompositions as mkl_lapack

__all__ = ["CholeskySolveBackward0", "CholeskyInverseBackward0", "cholesky_solve_array",
           "cholesky_inverse_array"]


@host_kernel
def cholesky_solve_array(b: Array, factor: Array, upper: bool) -> Array:
    """X with A X = B, A = L L^H (U^H U with upper) from its factor; the batches broadcast."""
    batch = np.broadcast_shapes(b.shape[:-2], factor.shape[:-2])
    n, k = b.shape[-2:]
    b_ = np.broadcast_to(b, batch + (n, k))
    f_ = np.broadcast_to(factor, batch + (n, n))
    if b_.size == 0 or f_.size == 0:
        return np.zeros(batch + (n, k), b.dtype)
    if b.size and factor.size and mkl_lapack.available(b.dtype):
        x = mkl_lapack.potrs(f_.reshape((-1, n, n)), b_.reshape((-1, n, k)), upper)
        return x.reshape(batch + (n, k))
    lower = mT(f_) if upper else f_
    with _quiet():
        y = triangular_solve(lower, b_, False, True, False)
        return triangular_solve(mT(lower), y, True, True, False)


@host_kernel
def cholesky_inverse_array(factor: Array, upper: bool) -> Array:
    """(L L^H)^{-1} (U^H U with upper) from the factor; a zero on its diagonal is ATen's
    error."""
    n = factor.shape[-1]
    if factor.size == 0:
        return np.zeros(factor.shape, factor.dtype)
    if mkl_lapack.available(factor.dtype):
        inverse, info = mkl_lapack.potri(factor.reshape((-1, n, n)), upper)
        info = info.reshape(factor.shape[:-2])
    else:
        diagonal = np.diagonal(factor, 0, -2, -1)
        zero = diagonal == 0
        info = np.where(zero.any(-1), zero.argmax(-1) + 1, 0).astype(np.int32)
        inverse = None
    if info.any():
        raise singular_error("cholesky_inverse", info, inverse=True)
    if inverse is not None:
        return inverse.reshape(factor.shape)
    eye = np.broadcast_to(np.eye(n, dtype=factor.dtype), factor.shape)
    return cholesky_solve_array(eye, factor, upper)


class CholeskySolveBackward0(Function):
    """gB = cholesky_solve(gX, L); gL from (gB X^H) + its adjoint, as cholesky_solve_backward."""

    node_name = "CholeskySolveBackward0"

    def forward(self, b: Tensor, factor: Tensor, upper: bool) -> Array:
        self.upper = upper
        if any(self.needs_input_grad):
            self.save("self", b)
            self.save("input2", factor)
            self.save("result", RESULT)
        return cholesky_solve_array(b._data, factor._data, upper)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        la = F.la
        factor = self.saved("input2", F)
        X = self.saved("result", F)
        self.saved("self", F)
        if F.as_tensor:
            from gradsh.engine.ops.linalg_composites import cholesky_solve

            g_self = cholesky_solve(grad, factor, self.upper)
        else:
            g_self = cholesky_solve_array(grad, factor, self.upper)
        g_factor = None
        if self.needs_input_grad[1]:
            common = la.matmul(g_self, la.mH(X))
            common = common + la.mH(common)
            # the saved factor requires grad: a matrix one is folded with a batch
            matmul = la.matmul if F.as_tensor else exact_matmul
            flags = {} if F.as_tensor else {"requires_grad": (self.upper, not self.upper)}
            g_factor = (-matmul(factor, common, **flags) if self.upper
                        else -matmul(common, factor, **flags))
        return g_self, g_factor


class CholeskyInverseBackward0(Function):
    """gL = -L (A^{-1} (g + g^H) A^{-1}) (upper) or -(...) L, as cholesky_inverse_backward."""

    node_name = "CholeskyInverseBackward0"

    def forward(self, factor: Tensor, upper: bool) -> Array:
        self.upper = upper
        if self.needs_input_grad[0]:
            self.save("self", factor)
            self.save("result", RESULT)
        return cholesky_inverse_array(factor._data, upper)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        la = F.la
        factor = self.saved("self", F)
        inverse = self.saved("result", F)
        common = grad + la.mH(grad)
        common = la.matmul(inverse, la.matmul(common, inverse))
        return (-la.matmul(factor, common) if self.upper else -la.matmul(common, factor),)
