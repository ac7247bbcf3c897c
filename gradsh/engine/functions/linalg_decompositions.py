"""torch.linalg's decompositions: slogdet, qr, svd, eigh (nodes with several outputs) and pinv.

A decomposition's outputs share one node, as in PyTorch (`U.grad_fn is S.grad_fn`): the node
has `num_outputs` slots, the edge to output i is (node, i), and backward receives one gradient
per output, None where nothing flowed. Where the `mkl` package is loaded the factorizations are
MKL's routines called as ATen calls them (vecmath/lapack_decompositions.py): PyTorch's bits,
signs and column-major strides. NOTE: without it NumPy's LAPACK (OpenBLAS) may pick the
opposite sign for a singular vector or an eigenvector; values, singular values, eigenvalues
and anything invariant under those signs agree to rounding. On cuda:0 the
factorizations run on the host too (`backend.host_kernel`), the backward formulas on the device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.backend import host_kernel
from gradsh.engine.exceptions import TorchLinAlgError, TorchRuntimeError
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.linalg_lu import (
    exact_matmul,
    factors_transpose,
    lu_factor,
    lu_solve,
    mT,
    permutation_sign,
)
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import RESULT, Array, Function, Tensor
from gradsh.engine.vecmath import lapack_decompositions as mkl_lapack

__all__ = [
    "MultiOutputFunction", "LinalgSlogdetBackward0", "LinalgQrBackward0",
    "LinalgSvdBackward0", "LinalgEighBackward0", "LinalgPinvBackward0", "pinv_array",
]


@host_kernel
def slogdet_array(data: Array, use_a_t: bool) -> tuple[Array, Array, Array, Array]:
    """(sign, log|det|, LU, pivots) from PyTorch's LU."""
    lu, pivots, _ = lu_factor(mT(data) if use_a_t else data)
    diag = np.diagonal(lu, 0, -2, -1)
    with _quiet():
        signs = np.sign(diag)
        sign = permutation_sign(pivots, lu.dtype)
        for i in range(diag.shape[-1]):
            sign = sign * signs[..., i]
        # ATen: sum(log_(abs(diag)), -1): the tensor op log (MKL's VML where loaded) of a
        # contiguous copy, then its sum's order
        logabs = torch_sum(pointwise.unary("log", np.abs(diag)), -1, False, lu.dtype) if (
            diag.shape[-1]) else np.zeros(diag.shape[:-1], lu.dtype)
    return np.asarray(sign, lu.dtype), np.asarray(logabs, lu.dtype), lu, pivots


class LinalgSlogdetBackward0(MultiOutputFunction):
    """(sign, logabsdet) from the LU; gA = g_logabsdet * A^{-H} (sign is constant for real A)."""

    node_name = "LinalgSlogdetBackward0"
    outputs_saved = ("sign", None)

    def forward(self, a: Tensor) -> tuple[Array, ...]:  # type: ignore[override]
        self.use_a_t = factors_transpose(a)
        sign, logabs, lu, pivots = slogdet_array(a._data, self.use_a_t)
        if any(self.needs_input_grad):
            self.save("A", a)
            self.save("LU", Tensor._make(lu, a.device))
            self.save("pivots", Tensor._make(pivots, a.device))
        return sign, logabs

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        _, g = grads
        A = self.saved("A", F)
        lu = self.saved("LU", F)
        pivots = self.saved("pivots", F)
        self.saved("sign", F)
        if g is None:
            return (None,)
        la = F.la
        n = self.saved_tensors["A"].shape[-1]
        d = la.diag_embed(la.expand_last(g, n))
        if not F.as_tensor:
            return (lu_solve(lu, pivots, d, adjoint=not self.use_a_t),)
        return (la.solve(la.mH(A), d, True),)


def _qr_modes(mode: str) -> tuple[bool, bool]:
    """(compute_q, reduced)"""
    return mode != "r", mode != "complete"


@host_kernel
def qr_array(data: Array, mode: str) -> tuple[Array, Array]:
    """(Q, R), Q empty with mode='r': MKL's geqrf + orgqr as PyTorch calls them where loaded
    (its bits), else NumPy's LAPACK."""
    if data.size and mkl_lapack.available(data.dtype):
        compute_q, reduced = _qr_modes(mode)
        m, n = data.shape[-2:]
        q, r = mkl_lapack.qr(data.reshape((-1, m, n)), compute_q, reduced)
        batch = data.shape[:-2]
        return (q.reshape(batch + q.shape[1:]) if compute_q else q), r.reshape(
            batch + r.shape[1:])
    with _quiet():
        if mode == "r":
            r = np.linalg.qr(data, mode="r")
            return np.empty((0,), data.dtype), np.asarray(r, data.dtype)
        q, r = np.linalg.qr(data, mode=mode)
    return np.asarray(q, data.dtype), np.asarray(r, data.dtype)


class LinalgQrBackward0(MultiOutputFunction):
    node_name = "LinalgQrBackward0"
    outputs_saved = ("Q", "R")

    def forward(self, a: Tensor, mode: str) -> tuple[Array, ...]:  # type: ignore[override]
        self.mode = mode
        return qr_array(a._data, mode)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        gQ, gR = grads
        compute_q, reduced = _qr_modes(self.mode)
        Q = self.saved("Q", F)
        R = self.saved("R", F)
        if not compute_q:
            raise TorchRuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                "through linalg.qr.")
        m = self.saved_tensors["Q"].shape[-2]
        n = self.saved_tensors["R"].shape[-1]
        if not reduced and m > n:
            raise TorchRuntimeError("The QR decomposition is not differentiable when "
                                    "mode='complete' and nrows > ncols.")
        if gQ is None and gR is None:
            return (None,)
        la = F.la
        if gQ is not None:
            gA = (la.matmul(gR, la.mH(R)) - la.matmul(la.mH(Q), gQ) if gR is not None
                  else -la.matmul(la.mH(Q), gQ))
        else:
            gA = la.matmul(gR, la.mH(R))
        if m >= n:
            sym = la.triu(gA, 0)
            sym = sym + la.mH(sym)
            sym = la.eye_where(sym.shape[-1], sym, la.diagonal(sym) * 0.5, sym)
            gA = la.matmul(Q, sym)
            if gQ is not None:
                gA = gA + gQ
            return (la.solve_triangular(la.mH(R), gA, False, False, False),)
        X = -gA
        gA = la.matmul(Q, la.tril(X - la.mH(X), 0))
        gA = la.solve_triangular(la.mH(la.narrow(R, -1, 0, m)), gA, False, False, False)
        shape = tuple(self.saved_tensors["R"].shape[:-1]) + (n - m,)
        gA = la.cat([gA, la.zeros(shape, gA)], -1)
        if gR is not None:
            gA = gA + la.matmul(Q, gR)
        return (gA,)


@host_kernel
def svd_array(data: Array, full_matrices: bool, compute_uv: bool) -> tuple[Array, ...]:
    """compute_uv=False (svdvals without a gradient) gives NaN singular values for a
    non-finite input where the SVD itself raises, as LAPACK's gesdd without vectors."""
    m, n = data.shape[-2:]
    k = min(m, n)
    if data.size == 0:
        batch = data.shape[:-2]
        eye = np.broadcast_to
        u = eye(np.eye(m, m if full_matrices else k, dtype=data.dtype), batch + (
            m, m if full_matrices else k)).copy()
        vh = eye(np.eye(n if full_matrices else k, n, dtype=data.dtype), batch + (
            n if full_matrices else k, n)).copy()
        return u, np.zeros(batch + (k,), data.dtype), vh
    if not np.isfinite(data).all():
        # gesdd refuses a NaN; an infinity only when vectors are asked for
        nan_in = np.isnan(data).any(axis=(-2, -1))
        failed = nan_in | (~np.isfinite(data).all(axis=(-2, -1)) if compute_uv else nan_in)
        if failed.any():
            prefix = (f"(Batch element {int(np.flatnonzero(failed)[0])}): "
                      if data.ndim > 2 else "")
            raise TorchLinAlgError(
                f"linalg.svd: {prefix}The algorithm failed to converge because the input "
                "matrix contained non-finite values.")
        nan = np.full(data.shape[:-2] + (k,), np.nan, data.dtype)
        return np.zeros(data.shape[:-2] + (m, k), data.dtype), nan, np.zeros(
            data.shape[:-2] + (k, n), data.dtype)
    if mkl_lapack.available(data.dtype):  # MKL's gesdd as PyTorch calls it: its bits
        batch = data.shape[:-2]
        u, s, vh, info = mkl_lapack.gesdd(data.reshape((-1, m, n)), full_matrices, compute_uv)
        if info.any():
            failed = int(np.flatnonzero(info)[0])
            prefix = f"(Batch element {failed}): " if data.ndim > 2 else ""
            raise TorchLinAlgError(
                f"linalg.svd: {prefix}The algorithm failed to converge because the input matrix "
                "is ill-conditioned or has too many repeated singular values (error code: "
                f"{int(info[failed])}).")
        if not compute_uv:  # (svdvals: U and Vh are never read)
            return (np.zeros(batch + (m, k), data.dtype), s.reshape(batch + (k,)),
                    np.zeros(batch + (k, n), data.dtype))
        return (u.reshape(batch + u.shape[1:]), s.reshape(batch + (k,)),  # type: ignore
                vh.reshape(batch + vh.shape[1:]))  # type: ignore[union-attr]
    with _quiet():
        u, s, vh = np.linalg.svd(data, full_matrices=full_matrices)
    return (np.asarray(u, data.dtype), np.asarray(s, data.dtype),
            np.asarray(vh, data.dtype))


class LinalgSvdBackward0(MultiOutputFunction):
    """(U, S, Vh); svdvals returns S alone from the same node (output 1)."""

    node_name = "LinalgSvdBackward0"
    num_outputs = 3
    differentiable = (True, True, True)
    outputs_saved = ("U", "S", "Vh")

    def forward(self, a: Tensor, full_matrices: bool,  # type: ignore[override]
                compute_uv: bool = True) -> tuple[Array, ...]:
        self.full_matrices = full_matrices
        return svd_array(a._data, full_matrices, compute_uv)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        gU, gS, gVh = grads
        U = self.saved("U", F)
        S = self.saved("S", F)
        Vh = self.saved("Vh", F)
        la = F.la
        k = self.saved_tensors["S"].shape[-1]
        if self.full_matrices:
            gU = la.narrow(gU, -1, 0, k) if gU is not None else None
            gVh = la.narrow(gVh, -2, 0, k) if gVh is not None else None
            U = la.narrow(U, -1, 0, k)
            Vh = la.narrow(Vh, -2, 0, k)
        return (svd_backward(F, gU, gS, gVh, U, S, Vh),)


def svd_backward(F: Any, gU: Any, gS: Any, gVh: Any, U: Any, S: Any, Vh: Any) -> Any:
    la = F.la
    if gS is None and gU is None and gVh is None:
        return None
    m = U.shape[-2]
    n = Vh.shape[-1]
    if gU is None and gVh is None:
        return (la.matmul(U, la.unsqueeze(gS, -1) * Vh) if m >= n
                else la.matmul(U * la.unsqueeze(gS, -2), Vh))
    UhgU = None
    VhgV = None
    if gU is not None:
        t = la.matmul(la.mH(U), gU)
        UhgU = t - la.mH(t)
    if gVh is not None:
        t = la.matmul(Vh, la.mH(gVh))
        VhgV = t - la.mH(t)
    S2 = S * S
    E = la.unsqueeze(S2, -2) - la.unsqueeze(S2, -1)
    E = la.eye_where(S.shape[-1], E, 1.0, E)
    if UhgU is not None:
        if VhgV is not None:
            ret = (UhgU * la.unsqueeze(S, -2) + la.unsqueeze(S, -1) * VhgV) / E
        else:
            ret = (UhgU / E) * la.unsqueeze(S, -2)
    else:
        ret = la.unsqueeze(S, -1) * (VhgV / E)
    if gS is not None:
        ret = ret + la.diag_embed(gS)
    if m > n and gU is not None:
        gA = la.matmul(U, ret)
        gUSinv = gU / la.unsqueeze(S, -2)
        gA = gA + gUSinv - la.matmul(U, la.matmul(la.mH(U), gUSinv))
        return la.matmul(gA, Vh)
    if m < n and gVh is not None:
        gA = la.matmul(ret, Vh)
        SinvgVh = gVh / la.unsqueeze(S, -1)
        gA = gA + SinvgVh - la.matmul(la.matmul(SinvgVh, la.mH(Vh)), Vh)
        return la.matmul(U, gA)
    return (la.matmul(U, la.matmul(ret, Vh)) if m >= n
            else la.matmul(la.matmul(U, ret), Vh))


@host_kernel
def eigh_array(data: Array, UPLO: str, compute_v: bool = True  # noqa: N803
               ) -> tuple[Array, Array]:
    """(eigenvalues, eigenvectors): MKL's syevd as PyTorch calls it where loaded (jobz 'N'
    without compute_v, as eigvalsh of a tensor needing no gradient), else NumPy's LAPACK."""
    n = data.shape[-1]
    if data.size and mkl_lapack.available(data.dtype):
        batch = data.shape[:-2]
        w, v, info = mkl_lapack.syevd(data.reshape((-1, n, n)), UPLO == "U", compute_v)
        if info.any():
            failed = int(np.flatnonzero(info)[0])
            prefix = f"(Batch element {failed}): " if data.ndim > 2 else ""
            raise TorchLinAlgError(
                f"linalg.eigh: {prefix}The algorithm failed to converge because the input "
                "matrix is ill-conditioned or has too many repeated eigenvalues (error code: "
                f"{int(info[failed])}).")
        return w.reshape(batch + (n,)), v.reshape(data.shape)
    with _quiet():
        w, v = np.linalg.eigh(data, UPLO=UPLO)
    return np.asarray(w, data.dtype), np.asarray(v, data.dtype)


class LinalgEighBackward0(MultiOutputFunction):
    """(eigenvalues, eigenvectors); eigvalsh returns the eigenvalues alone (output 0)."""

    node_name = "LinalgEighBackward0"
    outputs_saved = ("eigenvalues", "eigenvectors")

    def forward(self, a: Tensor, UPLO: str,  # type: ignore[override]  # noqa: N803
                compute_v: bool = True) -> tuple[Array, ...]:
        return eigh_array(a._data, UPLO, compute_v)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:  # type: ignore[override]
        gL, gV = grads
        L = self.saved("eigenvalues", F)
        V = self.saved("eigenvectors", F)
        if gL is None and gV is None:
            return (None,)
        la = F.la
        if gV is None:
            return (la.matmul(V * la.unsqueeze(gL, -2), la.mH(V)),)
        VhgV = la.matmul(la.mH(V), gV)
        VhgV = 0.5 * (VhgV - la.mH(VhgV))
        E = la.unsqueeze(L, -2) - la.unsqueeze(L, -1)
        E = la.eye_where(L.shape[-1], E, 1.0, E)
        ret = VhgV / E
        if gL is not None:
            ret = la.eye_where(L.shape[-1], ret, gL, ret)
        return (la.matmul(V, la.matmul(ret, la.mH(V))),)


@host_kernel
def pinv_array(data: Array, atol: Any, rtol: Any, hermitian: bool) -> Array:
    """linalg.pinv's forward: the SVD (or eigh) with singular values at most
    max(atol, rtol * largest) dropped; the tolerance in float64 as PyTorch's."""
    m, n = data.shape[-2:]
    if data.size == 0:
        return np.zeros(data.shape[:-2] + (n, m), data.dtype)
    eps = float(np.finfo(data.dtype).eps)
    atol_ = np.float64(0.0 if atol is None else atol)
    if rtol is None:
        default = np.float64(eps * max(m, n))
        rtol_ = default if atol is None else np.where(atol_ > 0, np.float64(0), default)
    else:
        rtol_ = np.float64(rtol)
    if not hermitian and not np.isfinite(data).all():
        raise TorchLinAlgError("linalg.svd: The algorithm failed to converge because the input "
                               "matrix contained non-finite values.")
    # ATen's composite: the tolerances are 1-element float64 tensors, so max(atol, rtol *
    # largest) and the comparison with it are float64; the reciprocals and the products are
    # the input dtype's, S^+ scaling V's (or the eigenvectors') columns, then one matmul
    with _quiet():
        if not hermitian:
            u, s, vh = svd_array(data, False, True)
            top = s[..., :1]
            tol = np.maximum(atol_, np.asarray(rtol_) * top)
            inv = np.where(s > tol, np.ones((), data.dtype) / s, np.zeros((), data.dtype))
            return exact_matmul(mT(vh) * inv[..., None, :], mT(u))
        w, v = eigh_array(data, "L")
        absw = np.abs(w)
        tol = np.maximum(atol_, np.asarray(rtol_) * absw.max(-1, keepdims=True))
        inv = np.where(absw > tol, np.ones((), data.dtype) / w, np.zeros((), data.dtype))
        return exact_matmul(v * inv[..., None, :], mT(v))


class LinalgPinvBackward0(Function):
    node_name = "LinalgPinvBackward0"

    def forward(self, a: Tensor, atol: Any = None, rtol: Any = None,
                hermitian: bool = False) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
            self.save("result", RESULT)
        return pinv_array(a._data, atol, rtol, hermitian)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        A = self.saved("self", F)
        pinvA = self.saved("result", F)
        return (pinv_backward(F, grad, pinvA, A),)


def pinv_backward(F: Any, grad: Any, pinvA: Any, A: Any) -> Any:
    """FunctionsManual's pinv_backward (linalg.pinv's and linalg.lstsq's A gradient)."""
    la = F.la
    m, n = A.shape[-2:]
    pinvAh = la.mH(pinvA)
    gradh = la.mH(grad)
    if m <= n:
        K = la.matmul(gradh, pinvA)
        KpinvAh = la.matmul(K, pinvAh)
        return (-la.mH(la.matmul(pinvA, K)) + KpinvAh
                - la.matmul(la.matmul(A, pinvA), KpinvAh)
                + la.matmul(la.matmul(pinvAh, pinvA),
                            _first_layout(F, gradh, gradh - la.matmul(K, A))))
    K = la.matmul(pinvA, gradh)
    pinvAhK = la.matmul(pinvAh, K)
    return (-la.mH(la.matmul(K, pinvA))
            + la.matmul(la.matmul(_first_layout(F, gradh, gradh - la.matmul(A, K)), pinvA),
                        pinvAh) + pinvAhK
            - la.matmul(la.matmul(pinvAhK, pinvA), A))


def _first_layout(F: Any, first: Any, result: Any) -> Any:
    """`result` (first - ...) in the memory order PyTorch's TensorIterator gives it, the first
    operand's, where that is column-major (NumPy's arithmetic answers row-major): the layout
    the next product's bits depend on."""
    if F.as_tensor or not isinstance(first, np.ndarray) or first.flags.c_contiguous:
        return result
    if not mT(first).flags.c_contiguous:
        return result
    return mT(np.ascontiguousarray(mT(result)))
