"""torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve: MKL's Bunch-Kaufman LDL^T
(vecmath/lapack_ldl.py), PyTorch's bits, checks and messages. PyTorch has no derivative for
them: a factor of a tensor that requires grad gets a NotImplemented node that refuses backward
with PyTorch's text. Without MKL they are refused (gradsh has no NumPy sytrf)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_solvers import _return_type
from gradsh.engine.tensor import Array, Tensor
from gradsh.engine.vecmath import lapack, lapack_ldl

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

_LDL = _return_type("linalg_ldl_factor", ("LD", "pivots"))
_LDL_EX = _return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


class NotImplemented(MultiOutputFunction):  # noqa: A001  (PyTorch's node name)
    """linalg_ldl_factor_ex's node: PyTorch records one and cannot differentiate it."""

    node_name = "NotImplemented"
    num_outputs = 3
    differentiable = (True, False, False)

    def forward(self, a: Tensor) -> tuple[Array, Array, Array]:
        m = a.shape[-1]
        batch = tuple(a.shape[:-2])
        ld, pivots, info = lapack_ldl.sytrf(np.asarray(a._data).reshape((-1, m, m)))
        ld = np.swapaxes(np.swapaxes(ld, -1, -2).reshape(batch + (m, m)), -1, -2)
        return ld, pivots.reshape(batch + (m,)), info.reshape(batch)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")


def _check_real(a: Tensor, name: str) -> None:
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                                f"Got {a.dtype.short}")
    if not lapack.available(a.dtype.np):
        raise TorchNotImplementedError(f"gradsh does not implement {name} without MKL")


@guarded
def ldl_factor_ex(A: Tensor, *, hermitian: bool = False,  # noqa: N803  (PyTorch's names)
                  check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """A = L D L^T with L unit lower triangular and D block diagonal (1 x 1 and 2 x 2 blocks):
    (LD, pivots, info)."""
    name = "torch.linalg.ldl_factor_ex"
    if A.ndim < 2:
        raise TorchRuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise TorchRuntimeError(f"{name}: A must be batches of square matrices, but they are "
                                f"{A.shape[-2]} by {A.shape[-1]} matrices")
    _check_real(A, name)
    ld, pivots, info = NotImplemented.apply_all(A)
    if check_errors and np.any(info._data):
        code = int(np.asarray(info._data).reshape(-1)[np.flatnonzero(info._data)[0]])
        raise TorchRuntimeError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
            f"torch.linalg.ldl_factor: Unknown error code: {code}.")
    return _LDL_EX(ld, pivots, info)  # type: ignore[no-any-return]


@guarded
def ldl_factor(A: Tensor, *, hermitian: bool = False) -> tuple[Tensor, Tensor]:  # noqa: N803
    ld, pivots, _ = ldl_factor_ex(A, hermitian=hermitian, check_errors=True)
    return _LDL(ld, pivots)  # type: ignore[no-any-return]


@guarded
def ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *,  # noqa: N803
              hermitian: bool = False) -> Tensor:
    """X with A X = B from ldl_factor's (LD, pivots)."""
    if B.dtype is not LD.dtype:
        raise TorchRuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                                f"{B.dtype.short} and A of type {LD.dtype.short} instead.")
    n = LD.shape[-1]
    if B.shape[-2] != n:
        raise TorchRuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A "
                                f"matrix is {n} by {n} but each b matrix is {B.shape[-2]} by "
                                f"{B.shape[-1]}")
    _check_real(LD, "torch.linalg.ldl_solve")
    batch = np.broadcast_shapes(tuple(LD.shape[:-2]), tuple(B.shape[:-2]))
    k = B.shape[-1]
    ld = np.broadcast_to(np.asarray(LD._data), batch + (n, n)).reshape((-1, n, n))
    piv = np.broadcast_to(np.asarray(pivots._data), batch + (n,)).reshape((-1, n))
    rhs = np.broadcast_to(np.asarray(B._data), batch + (n, k)).reshape((-1, n, k))
    x = lapack_ldl.sytrs(ld, piv, rhs)
    x = np.swapaxes(np.swapaxes(x, -1, -2).reshape(batch + (k, n)), -1, -2)
    return Tensor._make(x, LD.device)
