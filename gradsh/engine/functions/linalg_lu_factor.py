"""The LU nodes: LinalgLuFactorExBackward0 (linalg.lu_factor, lu_factor_ex, torch.lu),
LinalgLuBackward0 (linalg.lu), LuUnpackBackward0 (torch.lu_unpack) and LinalgLuSolveBackward0
(linalg.lu_solve, torch.lu_solve).

The factorizations are getrf's (vecmath/lapack_lu.py: MKL's where loaded, so PyTorch's bits),
the solves getrs's (functions/linalg_lu.py). The backward formulas are PyTorch's
(FunctionsManual.cpp's linalg_lu_backward, lu_factor_ex_backward, lu_unpack_backward), written
with its triangular solves and products in its order for square matrices; wide and tall ones
reduce to the square case on their leading block (A = P L [U1 U2], U2 = L^{-1} P^T A2: U2's
gradient moves onto L's as -L^{-H} gU2 U2^H; A = P [L1; L2] U, L2 = A2 U^{-1}: L2's onto U's
as -L2^H gL2 U^{-H}). lu_solve's
gradient goes through A = P L U's: gA from the solve, then that of the factors. First-order
only: a create_graph backward through them is refused with a gradsh error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.linalg_lu import exact_matmul, lu_solve, mT, triangular_solve
from gradsh.engine.functions.linalg_lu import lu_factor as square_lu
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import lapack, lapack_lu

__all__ = ["LinalgLuBackward0", "LinalgLuFactorExBackward0", "LinalgLuSolveBackward0",
           "LuUnpackBackward0", "lu_factor_arrays", "unpack_arrays"]


def _no_double_backward(F: Any, name: str) -> None:
    if F.as_tensor:
        raise TorchRuntimeError(f"gradsh does not implement the double backward of {name} yet")


def lu_factor_arrays(a: Array) -> tuple[Array, Array, Array]:
    """getrf over a (..., m, n) stack: LU (column-major strides), int32 pivots, int32 info."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    k = min(m, n)
    if lapack.available(a.dtype):
        lu, pivots, info = lapack_lu.getrf(np.asarray(a).reshape((-1, m, n)))
    else:  # linalg_lu's NumPy getrf on the matrix padded square with zeros, which partial
        # pivoting never picks before the real rows and whose updates stay zero
        size = max(m, n)
        square = np.zeros(batch + (size, size), a.dtype)
        square[..., :m, :n] = a
        lu, pivots, info = (x.reshape((-1,) + x.shape[len(batch):]) for x in square_lu(square))
        lu, pivots = lu[:, :m, :n], pivots[:, :k]
        info = np.where(info <= k, info, 0).astype(np.int32)
    lu = np.swapaxes(np.ascontiguousarray(np.swapaxes(lu, -1, -2)).reshape(batch + (n, m)),
                     -1, -2)
    return lu, pivots.reshape(batch + (k,)), info.reshape(batch)


def permutation_arrays(pivots: Array, m: int, dtype: Any) -> Array:
    """P with A = P L U from getrf's 1-based row interchanges."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape((-1, pivots.shape[-1])).astype(np.int64) - 1
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for i in range(flat.shape[1]):
        j = flat[:, i]
        top = perm[rows, i].copy()
        perm[rows, i] = perm[rows, j]
        perm[rows, j] = top
    p = np.zeros((flat.shape[0], m, m), dtype)
    p[rows[:, None], perm, np.arange(m)[None, :]] = 1
    return p.reshape(batch + (m, m))


def unpack_arrays(lu: Array, pivots: Array, unpack_data: bool = True,
                  unpack_pivots: bool = True) -> tuple[Array, Array, Array]:
    """(P, L, U) of getrf's factors; an empty array for each part not asked for."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    empty = np.empty((0,), lu.dtype)
    p = permutation_arrays(pivots, m, lu.dtype) if unpack_pivots else empty
    if not unpack_data:
        return p, empty, empty
    lower = np.tril(lu[..., :, :k], -1)
    idx = np.arange(k)
    lower[..., idx, idx] = 1
    return p, np.ascontiguousarray(lower), np.ascontiguousarray(np.triu(lu[..., :k, :]))


def _square_backward(g_l: Array | None, g_u: Array | None, p: Array, lower: Array,
                     upper: Array) -> Array:
    """A_grad = P L^{-H} [L^H L_grad o 1_L + U_grad U^H o 1_U] U^{-H} (A, L, U square)."""
    with _quiet():
        grad = None
        if g_l is not None:
            grad = np.tril(exact_matmul(mT(lower), g_l), -1)
        if g_u is not None:
            part = np.triu(exact_matmul(g_u, mT(upper)))
            grad = part if grad is None else grad + part
        if grad is None:
            grad = np.zeros(lower.shape[:-2] + (lower.shape[-2], upper.shape[-1]), lower.dtype)
        grad = triangular_solve(mT(upper), grad, upper=False, left=False, unit=False)
        grad = triangular_solve(mT(lower), grad, upper=True, left=True, unit=True)
        return exact_matmul(p, grad)


def lu_backward(g_l: Array | None, g_u: Array | None, p: Array, lower: Array,
                upper: Array) -> Array:
    """The gradient of A = P L U from those of L (m, k) and U (k, n)."""
    m, k = lower.shape[-2:]
    n = upper.shape[-1]
    if m == n:
        return _square_backward(g_l, g_u, p, lower, upper)
    with _quiet():
        if m < n:  # wide: A = P L [U1 U2]
            u1, u2 = upper[..., :, :m], upper[..., :, m:]
            g_u1 = g_u2 = None
            if g_u is not None:
                g_u1, g_u2 = g_u[..., :, :m], g_u[..., :, m:]
                moved = -triangular_solve(mT(lower), exact_matmul(g_u2, mT(u2)), upper=True,
                                          left=True, unit=True)  # -L^{-H} gU2 U2^H
                g_l = moved if g_l is None else g_l + moved
            grad1 = _square_backward(g_l, g_u1, p, lower, u1)
            grad2 = np.zeros(lower.shape[:-2] + (m, n - m), lower.dtype) if g_u2 is None else \
                exact_matmul(p, triangular_solve(mT(lower), g_u2, upper=True, left=True,
                                                 unit=True))
            return np.concatenate([grad1, grad2], axis=-1)
        l1, l2 = lower[..., :k, :], lower[..., k:, :]  # tall: A = P [L1; L2] U
        g_l1 = g_l2 = None
        if g_l is not None:
            g_l1, g_l2 = g_l[..., :k, :], g_l[..., k:, :]
            moved = -triangular_solve(mT(upper), exact_matmul(mT(l2), g_l2), upper=False,
                                      left=False, unit=False)  # -L2^H gL2 U^{-H}
            g_u = moved if g_u is None else g_u + moved
        eye = np.broadcast_to(np.eye(k, dtype=lower.dtype), lower.shape[:-2] + (k, k))
        grad1 = _square_backward(g_l1, g_u, eye, l1, upper)
        grad2 = np.zeros(lower.shape[:-2] + (m - k, k), lower.dtype) if g_l2 is None else \
            triangular_solve(mT(upper), g_l2, upper=False, left=False, unit=False)
        return exact_matmul(p, np.concatenate([grad1, grad2], axis=-2))


class _LuFactorNode(MultiOutputFunction):
    """A node over getrf's factors of its input: `_outputs` makes its three outputs of them."""

    num_outputs = 3

    def forward(self, a: Tensor) -> tuple[Array, Array, Array]:
        self.lu, self.pivots, info = lu_factor_arrays(np.asarray(a._data))
        return self._outputs(info)

    def _outputs(self, info: Array) -> tuple[Array, Array, Array]:
        raise NotImplementedError


class LinalgLuFactorExBackward0(_LuFactorNode):
    node_name = "LinalgLuFactorExBackward0"
    differentiable = (True, False, False)

    def _outputs(self, info: Array) -> tuple[Array, Array, Array]:
        return self.lu, self.pivots, info

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "linalg.lu_factor")
        grad = grads[0]
        if grad is None:
            return (None,)
        k = min(self.lu.shape[-2:])
        p, lower, upper = unpack_arrays(self.lu, self.pivots)
        grad = np.asarray(grad)
        return (lu_backward(grad[..., :, :k], grad[..., :k, :], p, lower, upper),)


class LinalgLuBackward0(_LuFactorNode):
    node_name = "LinalgLuBackward0"
    differentiable = (False, True, True)

    def _outputs(self, info: Array) -> tuple[Array, Array, Array]:
        self.p, self.lower, self.upper = unpack_arrays(self.lu, self.pivots)
        return self.p, self.lower, self.upper

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "linalg.lu")
        g_l, g_u = (None if g is None else np.asarray(g) for g in grads[1:])
        return (lu_backward(g_l, g_u, self.p, self.lower, self.upper),)


class LuUnpackBackward0(MultiOutputFunction):
    node_name = "LuUnpackBackward0"
    num_outputs = 3
    differentiable = (False, True, True)

    def forward(self, lu: Tensor, pivots: Tensor, unpack_data: bool,
                unpack_pivots: bool) -> tuple[Array, Array, Array]:
        self.shape = tuple(lu.shape)
        return unpack_arrays(np.asarray(lu._data), np.asarray(pivots._data), unpack_data,
                             unpack_pivots)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "lu_unpack")
        g_l, g_u = grads[1:]
        m, n = self.shape[-2:]
        k = min(m, n)
        dtype = (g_l if g_l is not None else g_u).dtype
        grad = np.zeros(self.shape, dtype)
        if g_l is not None and np.size(g_l):
            grad[..., :, :k] += np.tril(np.asarray(g_l), -1)
        if g_u is not None and np.size(g_u):
            grad[..., :k, :] += np.triu(np.asarray(g_u))
        return grad, None


def solve_arrays(lu: Array, pivots: Array, b: Array, left: bool, adjoint: bool) -> Array:
    """X with op(A) X = B (left) or X op(A) = B, op the transpose when `adjoint`: getrs on B,
    or on B^T with the other op for a right-hand solve, as ATen's linalg_lu_solve."""
    if left:
        return lu_solve(lu, pivots, b, adjoint)
    return mT(lu_solve(lu, pivots, mT(b), not adjoint))


class LinalgLuSolveBackward0(Function):
    node_name = "LinalgLuSolveBackward0"

    def forward(self, lu: Tensor, b: Tensor, pivots: Array, left: bool, adjoint: bool) -> Array:
        self.lu, self.pivots, self.left, self.adjoint = np.asarray(lu._data), pivots, left, \
            adjoint
        self.x = solve_arrays(self.lu, pivots, np.asarray(b._data), left, adjoint)
        self.b_shape = tuple(b.shape)
        return self.x

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        _no_double_backward(F, "linalg.lu_solve")
        need_lu, need_b = self.needs_input_grad
        g = np.asarray(grad)
        gb = solve_arrays(self.lu, self.pivots, g, self.left, not self.adjoint)
        g_lu = None
        if need_lu:
            x = self.x
            with _quiet():
                if self.left:  # gA = -gB X^H, or its adjoint
                    ga = -(exact_matmul(gb, mT(x)) if not self.adjoint else exact_matmul(x, mT(gb)))
                else:
                    ga = -(exact_matmul(mT(x), gb) if not self.adjoint else exact_matmul(mT(gb), x))
            p, lower, upper = unpack_arrays(self.lu, self.pivots)
            with _quiet():
                pa = exact_matmul(mT(p), ga)
                g_l = np.tril(exact_matmul(pa, mT(upper)), -1)
                g_u = np.triu(exact_matmul(mT(lower), pa))
            g_lu = g_l + g_u
        return g_lu, (gb if need_b else None)
