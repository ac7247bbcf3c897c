"""torch.linalg.eig and torch.linalg.eigvals: complex eigenvalues (and eigenvectors) of square
matrices, from LAPACK's geev as PyTorch's CPU kernel calls it (vecmath/lapack_eig.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_solvers import _return_type, _square
from gradsh.engine.tensor import Tensor, is_grad_enabled
from gradsh.engine.vecmath.lapack_eig import geev

__all__ = ["eig", "eigvals"]

_EIG = _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))


def _checks(A: Tensor, name: str) -> None:  # noqa: N803
    _square(A, name)
    if A.dtype.category < 2 or A.dtype.itemsize < 4 or A.dtype is dtypes.bfloat16:
        if A.dtype.category < 2:  # (ATen makes the complex result's dtype first)
            raise TorchRuntimeError(f"Unknown Complex ScalarType for {A.dtype.short}")
        raise TorchNotImplementedError(f'"linalg_eig_cpu" not implemented for '
                                       f"'{A.dtype.short}'")
    if A.requires_grad and is_grad_enabled():
        raise TorchNotImplementedError(f"gradsh does not implement the gradient of "
                                       f"torch.{name} yet")


def _geev(A: Tensor, vectors: bool) -> tuple[Tensor, Tensor | None]:  # noqa: N803
    data = np.asarray(A._data)
    batch, n = data.shape[:-2], data.shape[-1]
    values, vecs, _ = geev(data.reshape((-1, n, n)), vectors)
    out_values = Tensor._make(values.reshape(batch + (n,)), A.device)
    if vecs is None:
        return out_values, None
    return out_values, Tensor._make(vecs.reshape(batch + (n, n)), A.device)


@guarded(name="linalg_eig")
def eig(A: Tensor, *, out: Any = None) -> Any:  # noqa: N803
    """torch.linalg.eig: (eigenvalues, eigenvectors), complex, the vectors of unit norm with
    LAPACK's phase (each one's largest component real)."""
    A = _check_tensor(A, "linalg_eig")
    _checks(A, "linalg.eig")
    if A._data.size and not np.isfinite(A._data).all():  # (eigvals does not check)
        raise TorchRuntimeError("torch.linalg.eig: input tensor should not contain infs or "
                                "NaNs.")
    return _EIG(*_geev(A, True))


@guarded(name="linalg_eigvals")
def eigvals(A: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803
    A = _check_tensor(A, "linalg_eigvals")
    _checks(A, "linalg.eigvals")
    return _geev(A, False)[0]
