"""LinalgHouseholderProductBackward0 (torch.linalg.householder_product, torch.orgqr) and
GeqrfBackward0 (torch.geqrf, which PyTorch cannot differentiate).

The values are MKL's orgqr and geqrf where MKL is loaded (vecmath/lapack_householder.py, so
PyTorch's bits), NumPy's product of the reflectors and its QR otherwise. The gradient of
Q = H_1 ... H_k E (H_i = I - tau_i v_i v_i^T, v_i the i-th column below the diagonal with an
implicit 1 on it, E the first n columns of the identity) is, for each i, with M the gradient of
H_i (the product before it, transposed, times G times the product after it, transposed):
d tau_i = -v_i^T M v_i and d v_i = -tau_i (M + M^T) v_i, of which the entries below the diagonal
are the input's gradient (values within rounding of PyTorch's householder_product_backward).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.common import _quiet
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath import lapack
from gradsh.engine.vecmath import lapack_householder as mkl

__all__ = ["GeqrfBackward0", "LinalgHouseholderProductBackward0", "householder_vectors"]


def _stack(a: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]]:
    return a.reshape((-1,) + a.shape[-2:]), a.shape[:-2]


def householder_vectors(a: np.ndarray, k: int) -> np.ndarray:
    """The (count, m, k) reflector vectors v_i: column i of `a` below the diagonal, 1 on it."""
    m = a.shape[-2]
    v = np.tril(a[..., :k], -1)
    idx = np.arange(min(k, m))
    v[..., idx, idx] = 1
    return v


def _product(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """H_1 ... H_k E without MKL: each reflector applied to the columns from the right end."""
    count, m, n = a.shape
    k = tau.shape[-1]
    v = householder_vectors(a, k)
    q = np.zeros((count, m, n), a.dtype)
    q[:, np.arange(n), np.arange(n)] = 1
    with _quiet():
        for i in range(k - 1, -1, -1):
            vi = v[:, :, i:i + 1]
            q = q - tau[:, i, None, None] * vi @ (np.swapaxes(vi, -1, -2) @ q)
    return q


def householder_product_array(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    stack, batch = _stack(a)
    taus = tau.reshape(-1, tau.shape[-1])
    if lapack.available(a.dtype):
        q = mkl.orgqr(stack, taus)
    else:
        q = _product(stack, taus)
    return q.reshape(batch + stack.shape[1:])


def householder_product_backward(a: np.ndarray, tau: np.ndarray,
                                 grad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    stack, batch = _stack(a)
    taus = tau.reshape(-1, tau.shape[-1])
    g = grad.reshape(stack.shape)
    count, m, n = stack.shape
    k = taus.shape[-1]
    v = householder_vectors(stack, k)
    eye = np.broadcast_to(np.eye(m, dtype=a.dtype), (count, m, m))
    reflectors = [eye - taus[:, i, None, None] * (v[:, :, i:i + 1] @ v[:, None, :, i])
                  for i in range(k)]
    with _quiet():
        after = [np.zeros((count, m, n), a.dtype)] * k  # H_{i+1} ... H_k E
        right = np.ascontiguousarray(eye[:, :, :n])
        for i in range(k - 1, -1, -1):
            after[i] = right
            right = reflectors[i] @ right
        before = np.array(eye)  # H_1 ... H_{i-1}
        grad_a, grad_tau = np.zeros_like(stack), np.zeros_like(taus)
        for i in range(k):
            mgrad = np.swapaxes(before, -1, -2) @ g @ np.swapaxes(after[i], -1, -2)
            vi = v[:, :, i]
            mv = np.einsum("bij,bj->bi", mgrad, vi)
            mtv = np.einsum("bji,bj->bi", mgrad, vi)
            grad_tau[:, i] = -np.einsum("bi,bi->b", vi, mv)
            grad_v = -taus[:, i, None] * (mv + mtv)
            grad_a[:, i + 1:, i] = grad_v[:, i + 1:]
            before = before @ reflectors[i]
    return grad_a.reshape(a.shape), grad_tau.reshape(tau.shape)


class LinalgHouseholderProductBackward0(Function):
    node_name = "LinalgHouseholderProductBackward0"

    def forward(self, a: Tensor, tau: Tensor) -> Array:
        self.a, self.tau = np.asarray(a._data), np.asarray(tau._data)
        return householder_product_array(self.a, self.tau)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            raise TorchRuntimeError("gradsh does not implement the double backward of "
                                    "linalg.householder_product yet")
        return householder_product_backward(self.a, self.tau, np.asarray(grad))


def geqrf_array(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """torch.geqrf's (a, tau), the factors with column-major strides."""
    stack, batch = _stack(a)
    count, m, n = stack.shape
    if lapack.available(a.dtype):
        factors, tau = mkl.geqrf(stack)
    else:  # NumPy's LAPACK: the same Householder convention (raw mode)
        factors = np.empty_like(stack)
        tau = np.empty((count, min(m, n)), a.dtype)
        for i in range(count):
            h, t = np.linalg.qr(stack[i], mode="raw")
            factors[i], tau[i] = h.T, t
    out = np.swapaxes(np.ascontiguousarray(np.swapaxes(factors, -1, -2)), -1, -2)
    return out.reshape(batch + (m, n)), tau.reshape(batch + (min(m, n),))


class GeqrfBackward0(MultiOutputFunction):
    """torch.geqrf's node: its outputs require grad, but PyTorch has no derivative for it."""

    node_name = "GeqrfBackward0"

    def forward(self, a: Tensor) -> tuple[Array, Array]:
        return geqrf_array(np.asarray(a._data))

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        raise TorchNotImplementedError("the derivative for 'geqrf' is not implemented.")
