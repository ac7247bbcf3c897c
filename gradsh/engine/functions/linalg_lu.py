"""torch.linalg's LU and triangular family: inv, det, solve, solve_triangular, cholesky.

The factorizations are LAPACK's algorithms written out in NumPy over a stack of matrices
(getrf's partial pivoting, getrs, trsm's substitutions, potrf's columns), so that the LU a
node saves, the pivots, a singular matrix's zero pivot and a failed Cholesky's order are
PyTorch's. PyTorch runs MKL's getrf and getrs: where the `mkl` package is loaded gradsh calls
them too (vecmath/lapack.py) and inv, solve, det and slogdet are PyTorch's bits; elsewhere
NumPy's `linalg` (OpenBLAS) and the NumPy LU agree with PyTorch's to rounding. On cuda:0
these kernels run on the host too (`backend.host_kernel`), so the device's LU, pivots and
failures are the CPU's; the backward formulas run where the gradients live.

Backward formulas are PyTorch's (FunctionsManual.cpp), written once against `F.la`: NumPy
arrays on a first backward, differentiable ops under create_graph (ops.linalg_decompositions
installs those), as at::GradMode::is_enabled() chooses there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.backend import host_kernel
from gradsh.engine.exceptions import TorchLinAlgError
from gradsh.engine.functions.common import _quiet, xp_of
from gradsh.engine.tensor import RESULT, Array, ArrayOps, Function, Tensor
from gradsh.engine.vecmath import lapack
from gradsh.engine.vecmath import lapack_decompositions as mkl_lapack

__all__ = [
    "lu_factor", "lu_solve", "triangular_solve", "cholesky_lower", "cholesky_factor", "mT",
    "exact_matmul",
    "LinalgInvExBackward0", "LinalgDetBackward0", "LinalgSolveExBackward0",
    "LinalgSolveTriangularBackward0", "LinalgCholeskyExBackward0", "CholeskyBackward0",
    "singular_error", "batch_prefix", "torch_lu", "factors_transpose",
]


def mT(a: Array) -> Array:
    return a.swapaxes(-1, -2)


def _stack(a: Array, n_rows: int, n_cols: int) -> Array:
    count = int(np.prod(a.shape[:-2], dtype=np.int64))
    return np.array(a, copy=True).reshape((count, n_rows, n_cols))


@host_kernel
def lu_factor(a: Array) -> tuple[Array, Array, Array]:
    """getrf on each matrix of a (..., n, n) stack: (LU, 1-based int32 pivots, int32 info, the
    1-based index of the first zero pivot or 0). Multipliers are scaled by the pivot's
    reciprocal, as dgetf2 does when the pivot is not tiny."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    lu = _stack(a, n, n)
    if lapack.available(a.dtype) and lu.size:  # MKL's own getrf, as PyTorch calls it
        lu, pivots, info = lapack.getrf(lu)
        return lu.reshape(a.shape), pivots.reshape(batch + (n,)), info.reshape(batch)
    count = lu.shape[0]
    pivots = np.empty((count, n), np.int32)
    info = np.zeros(count, np.int32)
    rows = np.arange(count)
    tiny = np.finfo(a.dtype).tiny
    with _quiet():
        for k in range(n):
            p = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
            pivots[:, k] = p + 1
            swap = p != k
            if swap.any():
                r, q = rows[swap], p[swap]
                top = lu[r, k, :].copy()
                lu[r, k, :] = lu[r, q, :]
                lu[r, q, :] = top
            pivot = lu[:, k, k]
            zero = pivot == 0
            info[(info == 0) & zero] = k + 1
            if k + 1 < n:
                col = lu[:, k + 1:, k]
                scaled = np.where((np.abs(pivot) < tiny)[:, None], col / pivot[:, None],
                                  col * (np.ones((), a.dtype) / pivot)[:, None])
                col[...] = np.where(zero[:, None], col, scaled)
                lu[:, k + 1:, k + 1:] -= col[:, :, None] * lu[:, k, None, k + 1:]
    return lu.reshape(a.shape), pivots.reshape(batch + (n,)), info.reshape(batch)


def _swap_rows(x: Array, pivots: Array, order: range) -> None:
    rows = np.arange(x.shape[0])
    for k in order:
        q = pivots[:, k] - 1
        swap = q != k
        if swap.any():
            r, q = rows[swap], q[swap]
            top = x[r, k].copy()
            x[r, k] = x[r, q]
            x[r, q] = top


@host_kernel
def lu_solve(lu: Array, pivots: Array, b: Array, adjoint: bool) -> Array:
    """getrs: X with A X = B (adjoint: A^T X = B) from A's LU, over broadcast batches."""
    n = lu.shape[-1]
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    k = b.shape[-1]
    lu_ = np.broadcast_to(lu, batch + (n, n)).reshape((-1, n, n))
    piv = np.broadcast_to(pivots, batch + (n,)).reshape((-1, n))
    x = _stack(np.broadcast_to(b, batch + (n, k)), n, k)
    if lapack.available(lu.dtype) and x.size and x.dtype == lu.dtype:  # MKL's getrs
        return lapack.getrs(lu_, piv, x, transpose=adjoint).reshape(batch + (n, k))
    with _quiet():
        if not adjoint:
            _swap_rows(x, piv, range(n))
            _substitute(lu_, x, lower=True, unit=True)
            _substitute(lu_, x, lower=False, unit=False)
        else:
            t = mT(lu_)
            _substitute(t, x, lower=True, unit=False)
            _substitute(t, x, lower=False, unit=True)
            _swap_rows(x, piv, range(n - 1, -1, -1))
    return x.reshape(batch + (n, k))


def _substitute(a: Array, x: Array, lower: bool, unit: bool) -> None:
    """x <- T^{-1} x in place, T the lower or upper triangle of each a (unit: ones on the
    diagonal), row by row as trsm's substitution."""
    n = a.shape[-1]
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        part = slice(0, i) if lower else slice(i + 1, n)
        if (i > 0) if lower else (i < n - 1):
            x[:, i] -= (a[:, i, None, part] @ x[:, part])[:, 0]
        if not unit:
            x[:, i] /= a[:, i, i, None]


@host_kernel
def triangular_solve(a: Array, b: Array, upper: bool, left: bool, unit: bool) -> Array:
    """X with A X = B (left) or X A = B, A's upper or lower triangle, batches broadcast; MKL's
    trsm on the layouts PyTorch passes where loaded (its bits)."""
    if a.dtype == b.dtype and a.size and b.size and mkl_lapack.available(a.dtype):
        return mkl_lapack.trsm(a, b, upper, left, unit)
    if not left:
        return mT(triangular_solve(mT(a), mT(b), not upper, True, unit))
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    k = b.shape[-1]
    a_ = np.broadcast_to(a, batch + (n, n)).reshape((-1, n, n))
    x = _stack(np.broadcast_to(b, batch + (n, k)), n, k).astype(np.result_type(a, b))
    with _quiet():
        _substitute(a_, x, lower=not upper, unit=unit)
    return x.reshape(batch + (n, k))


@host_kernel
def cholesky_factor(a: Array, upper: bool) -> tuple[Array, Array]:
    """(the factor, int32 info) as linalg_cholesky_ex: MKL's potrf on A's own triangle where
    loaded (PyTorch's bits), else cholesky_lower (of A^T for the upper factor)."""
    if a.size and mkl_lapack.available(a.dtype):
        n = a.shape[-1]
        factor, info = mkl_lapack.potrf(a.reshape((-1, n, n)), upper)
        return factor.reshape(a.shape), info.reshape(a.shape[:-2])
    lower, info = cholesky_lower(mT(a) if upper else a)
    return (np.ascontiguousarray(mT(lower)) if upper else lower), info


@host_kernel
def cholesky_lower(a: Array) -> tuple[Array, Array]:
    """potrf on each matrix's lower triangle: (L, int32 info, the order of the first leading
    minor that is not positive-definite, or 0). NumPy's (LAPACK's) factorization when it
    succeeds; dpotf2's columns otherwise, which leave the failed diagonal element as it was
    found, as PyTorch's cholesky_ex shows it."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    try:
        with _quiet():
            lower = np.linalg.cholesky(a)
        if not np.isnan(np.diagonal(lower, 0, -2, -1)).any():  # NaN passes LAPACK's test
            return lower, np.zeros(batch, np.int32)
    except np.linalg.LinAlgError:
        pass
    m = np.tril(_stack(a, n, n))
    info = np.zeros(m.shape[0], np.int32)
    with _quiet():
        for j in range(n):
            active = info == 0
            ajj = m[:, j, j] - np.einsum("bk,bk->b", m[:, j, :j], m[:, j, :j])
            bad = active & ~(ajj > 0)
            info[bad] = j + 1
            m[bad, j, j] = ajj[bad]
            ok = active & ~bad
            if not ok.any():
                continue
            root = np.sqrt(ajj[ok])
            m[ok, j, j] = root
            rest = m[ok, j + 1:, j] - (m[ok, j + 1:, :j] @ m[ok, j, :j, None])[..., 0]
            m[ok, j + 1:, j] = rest / root[:, None]
    # columns after a failure keep A's lower triangle, as potrf leaves them
    return m.reshape(a.shape), info.reshape(batch)


def batch_prefix(info: Array) -> tuple[int, str]:
    """The first failed matrix's info and PyTorch's "(Batch element i): " when batched."""
    flat = np.asarray(info).reshape(-1)
    index = int(np.flatnonzero(flat)[0])
    prefix = f"(Batch element {index}): " if np.ndim(info) > 0 else ""
    return int(flat[index]), prefix


def singular_error(name: str, info: Array, inverse: bool) -> TorchLinAlgError:
    value, prefix = batch_prefix(info)
    if inverse:
        return TorchLinAlgError(
            f"{name}: {prefix}The diagonal element {value} is zero, the inversion could not be "
            "completed because the input matrix is singular.")
    return TorchLinAlgError(f"torch.linalg.solve: {prefix}The solver failed because the input "
                            "matrix is singular.")


def factors_transpose(a: Tensor) -> bool:
    """det and slogdet factor A^T instead of A when A is contiguous (det(A^T) = det(A), and A^T
    is then the column-major matrix LAPACK reads without a copy); inv and solve factor A."""
    return bool(a._data.flags.c_contiguous)


def torch_lu(a: Array, use_a_t: bool) -> tuple[Array, Array, Array]:
    """The LU PyTorch computes for A: of A^T when `factors_transpose(A)`."""
    return lu_factor(mT(a) if use_a_t else a)


def permutation_sign(pivots: Array, dtype: Any) -> Array:
    n = pivots.shape[-1]
    swaps = (pivots != np.arange(1, n + 1, dtype=pivots.dtype)).sum(-1)
    return np.where(swaps % 2 == 0, 1, -1).astype(dtype)


def diagonal_product(lu: Array) -> Array:
    """prod over each LU's diagonal, left to right."""
    n = lu.shape[-1]
    out = np.ones(lu.shape[:-2], lu.dtype)
    with _quiet():
        for i in range(n):
            out = out * lu[..., i, i]
    return out


def _lu_tensors(node: Function, lu: Array, pivots: Array, device: str) -> None:
    node.save("LU", Tensor._make(lu, device))
    node.save("pivots", Tensor._make(pivots, device))


# ---------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------


class LinalgInvExBackward0(Function):
    """linalg.inv / inv_ex / torch.inverse: gA = -A^{-H} g A^{-H}."""

    node_name = "LinalgInvExBackward0"
    result_name = "inverse"

    def forward(self, a: Tensor, check_errors: bool = True) -> Array:
        self.save("result", RESULT)
        return inverse_array(a._data, False, check_errors)  # (2.13 factors A itself)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        la = F.la
        inverse_h = la.mH(self.saved("inverse", F))
        return (-la.matmul(inverse_h, la.matmul(grad, inverse_h)),)


@host_kernel
def inverse_array(data: Array, use_a_t: bool, check_errors: bool) -> Array:
    """LAPACK's inverse (NumPy's); a singular matrix's from PyTorch's LU, or its error."""
    if data.size == 0:
        return np.empty(data.shape, data.dtype)
    if not lapack.available(data.dtype):  # (with MKL: PyTorch's LU and solve below)
        try:
            with _quiet():
                result = np.linalg.inv(data)
            return result
        except np.linalg.LinAlgError:
            pass
    lu, pivots, info = torch_lu(data, use_a_t)
    if check_errors and info.any():
        raise singular_error("linalg.inv", info, inverse=True)
    eye = np.broadcast_to(np.eye(data.shape[-1], dtype=data.dtype), data.shape)
    return lu_solve(lu, pivots, eye, adjoint=use_a_t)


@host_kernel
def det_array(data: Array, use_a_t: bool) -> tuple[Array, Array, Array]:
    """(LU, pivots, det): det(P) * prod(diag(U))."""
    lu, pivots, _ = torch_lu(data, use_a_t)
    with _quiet():
        return lu, pivots, permutation_sign(pivots, lu.dtype) * diagonal_product(lu)


@host_kernel
def perturbed_lu_solve(lu: Array, pivots: Array, d: Array, eps: float, adjoint: bool) -> Array:
    """linalg_det_backward's solve from the LU with each zero pivot replaced by eps."""
    diag = np.diagonal(lu, 0, -2, -1)
    perturbed = lu + ArrayLinalg.diag_embed(np.where(diag == 0, np.asarray(eps, lu.dtype),
                                                     np.zeros((), lu.dtype)))
    return lu_solve(perturbed, pivots, d, adjoint=adjoint)


class LinalgDetBackward0(Function):
    """linalg.det from the LU: det(P) * prod(diag(U)). Backward: linalg_det_backward, the
    perturbed-LU solve on a first backward, solve or the SVD formula under create_graph."""

    node_name = "LinalgDetBackward0"

    def forward(self, a: Tensor) -> Array:
        self.use_a_t = factors_transpose(a)
        lu, pivots, det = det_array(a._data, self.use_a_t)
        if self.needs_input_grad[0]:
            self.save("A", a)
            _lu_tensors(self, lu, pivots, a.device)
            self.save("result", RESULT)
        return det

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        A = self.saved("A", F)
        lu = self.saved("LU", F)
        pivots = self.saved("pivots", F)
        det = self.saved("result", F)
        la = F.la
        shape = tuple(self.saved_tensors["A"].shape)
        if 0 in shape:  # PyTorch 2.13: an empty gradient of A's shape, not None
            return (la.zeros(shape, grad),)
        n = shape[-1]
        if n == 1:  # PyTorch 2.13 (pytorch#171225): d det(A) / dA = 1 for 1x1 matrices, even
            # at A = 0, as grad.unsqueeze(-1).unsqueeze(-1).expand_as(A) (ExpandBackward0)
            return (la.expand(la.unsqueeze(la.unsqueeze(grad, -1), -1), shape),)
        eps = float(np.finfo(self.saved_tensors["A"].dtype.np).eps)
        d = la.diag_embed(la.expand_last(grad * det, n))
        if not F.as_tensor:
            return (perturbed_lu_solve(lu, pivots, d, eps, not self.use_a_t),)
        return (la.det_backward(A, d, grad, det, eps),)


class LinalgSolveExBackward0(Function):
    """linalg.solve / solve_ex: X = A^{-1} B (left) or B A^{-1}; gB = A^{-H} gX,
    gA = -gB X^H (left) or -X^H gB."""

    node_name = "LinalgSolveExBackward0"

    def forward(self, a: Tensor, b: Tensor, left: bool, vector: bool,
                check_errors: bool = True) -> Array:
        self.left, self.vector = left, vector
        # PyTorch 2.13's _linalg_solve_ex factors A itself (lu_factor(A), then lu_solve), not
        # A^T as earlier versions did for a contiguous A: checked bit for bit with MKL's getrf
        self.use_a_t = False
        need_lu = any(self.needs_input_grad)
        result, lu, pivots = solve_array(a._data, b._data, left, vector, self.use_a_t, need_lu,
                                         check_errors)
        if need_lu:
            self.save("A", a)
            _lu_tensors(self, lu, pivots, a.device)
            self.save("result", RESULT)
        return result

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        la = F.la
        A = self.saved("A", F)
        lu = self.saved("LU", F)
        X = self.saved("result", F)
        need_a, _ = self.needs_input_grad
        gX = la.unsqueeze(grad, -1) if self.vector else grad
        if F.as_tensor:
            gB = la.solve(la.mH(A), gX, self.left)
        else:
            pivots = self.saved("pivots", F)
            if self.left:
                gB = lu_solve(lu, pivots, gX, adjoint=not self.use_a_t)
            else:
                gB = mT(lu_solve(lu, pivots, mT(gX), adjoint=self.use_a_t))
        gA = None
        if need_a:
            Xm = la.unsqueeze(X, -1) if self.vector else X
            gA = -la.matmul(gB, la.mH(Xm)) if self.left else -la.matmul(la.mH(Xm), gB)
        if self.vector:
            gB = la.squeeze_last(gB)
        return gA, gB if self.needs_input_grad[1] else None


@host_kernel
def solve_array(A: Array, B: Array, left: bool, vector: bool, use_a_t: bool,  # noqa: N803
                need_lu: bool, check_errors: bool) -> tuple[Array, Any, Any]:
    """(X, LU, pivots): LAPACK's solve (NumPy's), or from PyTorch's LU for a singular matrix;
    the LU (None unless `need_lu`) is the one backward reads."""
    if vector:
        B = B[..., None]
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A_ = np.broadcast_to(A, batch + A.shape[-2:])
    B_ = np.broadcast_to(B, batch + B.shape[-2:])
    if not left:
        A_, B_ = mT(A_), mT(B_)
    result = None if A_.size and B_.size else np.empty(B_.shape, A.dtype)
    if result is None and not lapack.available(A.dtype):  # (with MKL: PyTorch's LU and getrs)
        try:
            with _quiet():
                result = np.linalg.solve(A_, B_)
        except np.linalg.LinAlgError:
            pass
    lu = pivots = None
    if need_lu or result is None:
        lu, pivots, info = torch_lu(A, use_a_t)
        if result is None:
            if check_errors and np.any(info):  # (A's own batch: a matrix A has no prefix)
                raise singular_error("linalg.solve", info, inverse=False)
            info = np.broadcast_to(info, batch)
            # A X = B reads A^T's LU adjoint; X A = B is A^T X^T = B^T
            result = lu_solve(lu, pivots, B_, adjoint=use_a_t == left)
    if not left:
        result = mT(result)
    return (result[..., 0] if vector else result), lu, pivots


class LinalgSolveTriangularBackward0(Function):
    node_name = "LinalgSolveTriangularBackward0"

    def forward(self, a: Tensor, b: Tensor, upper: bool, left: bool,
                unitriangular: bool) -> Array:
        self.upper, self.left, self.unitriangular = upper, left, unitriangular
        if self.needs_input_grad[0] or self.needs_input_grad[1]:
            self.save("self", a)
            self.save("result", RESULT)
        return triangular_solve(a._data, b._data, upper, left, unitriangular)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        la = F.la
        A = self.saved("self", F)
        X = self.saved("result", F)
        need_a, need_b = self.needs_input_grad
        gB = la.solve_triangular(la.mH(A), grad, not self.upper, self.left, self.unitriangular)
        gA = None
        if need_a:
            gA = -la.matmul(gB, la.mH(X)) if self.left else -la.matmul(la.mH(X), gB)
            k = int(self.unitriangular)
            gA = la.triu(gA, k) if self.upper else la.tril(gA, -k)
        return gA, gB if need_b else None


def cholesky_backward(F: Any, gL: Any, upper: bool, L: Any) -> Any:
    """Iain Murray's formula as PyTorch writes it: L^{-H} Phi(L^H gL) L^{-1}."""
    la = F.la
    if upper:
        L, gL = la.mH(L), la.mH(gL)
    gA = la.tril(la.matmul(la.mH(L), gL), 0)
    gA = 0.5 * (gA + la.mH(la.tril(gA, -1)))
    gA = la.solve_triangular(la.mH(L), gA, True, True, False)
    return la.solve_triangular(L, gA, False, False, False)


class LinalgCholeskyExBackward0(Function):
    node_name = "LinalgCholeskyExBackward0"
    result_name = "L"

    def forward(self, a: Tensor, upper: bool = False) -> Array:
        self.upper = upper
        self.save(self.result_name, RESULT)
        return cholesky_factor(a._data, upper)[0]

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (cholesky_backward(F, grad, self.upper, self.saved(self.result_name, F)),)


class CholeskyBackward0(LinalgCholeskyExBackward0):
    """The deprecated torch.cholesky's node: the same formula, the factor saved as result."""

    node_name = "CholeskyBackward0"
    result_name = "result"


# ---------------------------------------------------------------------------------------------
# F.la on arrays: what the formulas above and in linalg_decompositions call
# ---------------------------------------------------------------------------------------------


class ArrayLinalg:
    """The batched matrix helpers of a first backward, on the arrays' own module (NumPy or
    CuPy); the solves are the host kernels above."""

    mH = staticmethod(mT)

    @staticmethod
    def matmul(a: Array, b: Array) -> Array:
        return exact_matmul(a, b)

    @staticmethod
    def solve(a: Array, b: Array, left: bool = True) -> Array:
        return _solve(a, b) if left else mT(_solve(mT(a), mT(b)))

    @staticmethod
    def solve_triangular(a: Array, b: Array, upper: bool, left: bool, unit: bool) -> Array:
        return triangular_solve(a, b, upper, left, unit)

    @staticmethod
    def tril(a: Array, k: int) -> Array:
        return xp_of(a).tril(a, k)

    @staticmethod
    def triu(a: Array, k: int) -> Array:
        return xp_of(a).triu(a, k)

    @staticmethod
    def diagonal(a: Array) -> Array:
        return a.diagonal(0, -2, -1)

    @staticmethod
    def diag_embed(v: Array) -> Array:
        xp = xp_of(v)
        n = v.shape[-1]
        out = xp.zeros(v.shape + (n,), v.dtype)
        idx = xp.arange(n)
        out[..., idx, idx] = v
        return out

    @staticmethod
    def expand_last(v: Array, n: int) -> Array:
        xp = xp_of(v)
        v = xp.asarray(v)
        return xp.broadcast_to(v[..., None], v.shape + (n,))

    @staticmethod
    def unsqueeze(a: Array, dim: int) -> Array:
        xp = xp_of(a)
        return xp.expand_dims(xp.asarray(a), dim)

    @staticmethod
    def expand(a: Array, shape: tuple[int, ...]) -> Array:
        return xp_of(a).broadcast_to(a, shape)

    @staticmethod
    def squeeze_last(a: Array) -> Array:
        return a[..., 0]

    @staticmethod
    def eye_where(n: int, like: Array, on: Any, off: Array) -> Array:
        """`off` with its diagonal replaced by `on`."""
        xp = xp_of(off)
        out = off.copy()
        idx = xp.arange(n)
        out[..., idx, idx] = on
        return out

    @staticmethod
    def narrow(a: Array, dim: int, start: int, length: int) -> Array:
        key = [slice(None)] * a.ndim
        key[dim] = slice(start, start + length)
        return a[tuple(key)]

    @staticmethod
    def cat(arrays: list[Array], dim: int) -> Array:
        return xp_of(arrays[0]).concatenate(arrays, axis=dim)

    @staticmethod
    def zeros(shape: tuple[int, ...], like: Array) -> Array:
        return xp_of(like).zeros(shape, like.dtype)


def exact_matmul(a: Array, b: Array, requires_grad: tuple[bool, bool] = (False, False)
                 ) -> Array:
    """torch.matmul's algorithm on the arrays' own layouts (mm, mv, bmm, folding), so the
    products of PyTorch's backward formulas are its bits (vecmath/sgemm.py, blas.py).
    `requires_grad`: whether the saved tensors the formula multiplies require grad (a matrix
    that does is folded with a batch, whatever the grad mode: ATen's should_fold)."""
    if a.__class__ is not np.ndarray or b.__class__ is not np.ndarray or a.dtype != b.dtype:
        return a @ b
    from gradsh.engine.grad_mode import set_grad_enabled
    from gradsh.engine.ops.linalg import matmul  # (the ops import these nodes)

    ta, tb = Tensor._make(a, "cpu"), Tensor._make(b, "cpu")
    ta._requires_grad, tb._requires_grad = requires_grad
    with set_grad_enabled(False):
        return matmul(ta, tb)._data


@host_kernel
def _solve(a: Array, b: Array) -> Array:
    with _quiet():
        return np.linalg.solve(a, b)


ArrayOps.la = ArrayLinalg  # type: ignore[attr-defined]
