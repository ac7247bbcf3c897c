"""torch.linalg's LU family: inv, det, slogdet, solve, solve_triangular, cholesky (and
torch.inverse, det, logdet, slogdet, cholesky), checked as ATen checks them (same order, same
texts); the torch.return_types they return and the checks linalg_decompositions shares."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import backend
from gradsh.engine.exceptions import (
    TorchLinAlgError,
    TorchNotImplementedError,
    TorchRuntimeError,
    warn,
)
from gradsh.engine.functions.linalg_decompositions import LinalgSlogdetBackward0
from gradsh.engine.functions.linalg_lu import (
    CholeskyBackward0,
    LinalgCholeskyExBackward0,
    LinalgDetBackward0,
    LinalgInvExBackward0,
    LinalgSolveExBackward0,
    LinalgSolveTriangularBackward0,
    batch_prefix,
    cholesky_factor,
    factors_transpose,
    mT,
    torch_lu,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.comparison import eq
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.return_types import return_type
from gradsh.engine.ops.selection import where
from gradsh.engine.tensor import Tensor, is_grad_enabled

__all__ = [
    "linalg_inv", "inv_ex", "inverse", "det", "slogdet", "linalg_slogdet", "logdet",
    "linalg_solve", "solve_ex", "solve_triangular", "linalg_cholesky", "cholesky_ex",
    "cholesky", "triangular_solve", "RETURN_TYPES_LINALG",
]


_return_type = return_type  # (the name the linalg modules import)


RETURN_TYPES_LINALG = {kind: _return_type(kind, fields) for kind, fields in {
    "linalg_inv_ex": ("inverse", "info"), "linalg_cholesky_ex": ("L", "info"),
    "linalg_solve_ex": ("result", "info"), "linalg_slogdet": ("sign", "logabsdet"),
    "slogdet": ("sign", "logabsdet"), "linalg_qr": ("Q", "R"), "linalg_svd": ("U", "S", "Vh"),
    "svd": ("U", "S", "V"), "linalg_eigh": ("eigenvalues", "eigenvectors"),
    "linalg_lstsq": ("solution", "residuals", "rank", "singular_values"),
    "triangular_solve": ("solution", "cloned_coefficient"),
}.items()}


# ---------------------------------------------------------------------------------------------
# Checks (ATen's squareCheckInputs, checkFloatingOrComplex, checkIsMatrix)
# ---------------------------------------------------------------------------------------------


def _matrix(a: Tensor, name: str, arg: str = "A") -> None:
    if a.ndim < 2:
        raise TorchRuntimeError(f"{name}: The input tensor {arg} must have at least 2 "
                                "dimensions.")


def _square(a: Tensor, name: str, arg: str = "A") -> None:
    _matrix(a, name, arg)
    if a.shape[-1] != a.shape[-2]:
        raise TorchRuntimeError(f"{name}: {arg} must be batches of square matrices, but they "
                                f"are {a.shape[-2]} by {a.shape[-1]} matrices")


def _floating(a: Tensor, name: str, low_precision: bool = True) -> None:
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError(f"{name}: Expected a floating point or complex tensor as "
                                f"input. Got {a.dtype.short}")
    if not low_precision and a.dtype.itemsize < 4:
        raise TorchRuntimeError(f"{name}: Low precision dtypes not supported. Got "
                                f"{a.dtype.short}")


def _kernel(a: Tensor, kernel: str) -> None:
    """The CPU kernel's dispatch: LAPACK runs in float32 and float64 only."""
    if a.dtype.itemsize < 4 or not a.dtype.is_floating_point:
        raise TorchNotImplementedError(f'"{kernel}" not implemented for \'{a.dtype.short}\'')


def _info(values: Any, device: str) -> Tensor:
    """An info tensor on `device` from the host's infos."""
    return Tensor._make(backend.to_device(np.asarray(values, np.int32), device), device)


# ---------------------------------------------------------------------------------------------
# inv, det, slogdet, logdet
# ---------------------------------------------------------------------------------------------


def _inv_checks(a: Tensor) -> None:
    _square(a, "linalg.inv")
    if a.dtype.is_complex:  # (NumPy's LAPACK inverse; a singular one raises as PyTorch's)
        if a.requires_grad and is_grad_enabled():
            raise TorchNotImplementedError("gradsh does not implement the gradient of "
                                           "torch.linalg.inv of complex matrices yet")
        if a._data.size and not all(np.linalg.matrix_rank(m) == m.shape[-1]
                                    for m in np.asarray(a._data).reshape((-1,) + a.shape[-2:])):
            raise TorchLinAlgError("linalg.inv: The diagonal element 1 is zero, the inversion "
                                   "could not be completed because the input matrix is "
                                   "singular.")
        return
    _floating(a, "linalg.inv", low_precision=False)


@guarded(name="linalg_inv")
def linalg_inv(A: Tensor) -> Tensor:  # noqa: N803
    """torch.linalg.inv (LinalgInvExBackward0); a singular matrix raises LinAlgError."""
    A = _check_tensor(A, "linalg_inv")
    _inv_checks(A)
    return LinalgInvExBackward0.apply(A, check_errors=True)


@guarded(name="linalg_inv_ex")
def inv_ex(A: Tensor, *, check_errors: bool = False) -> Any:  # noqa: N803
    """torch.linalg.inv_ex: (inverse, info), info the first zero pivot of each matrix's LU."""
    A = _check_tensor(A, "linalg_inv_ex")
    _inv_checks(A)
    inverse_ = LinalgInvExBackward0.apply(A, check_errors=check_errors)
    return RETURN_TYPES_LINALG["linalg_inv_ex"](inverse_, _info(_lu_info(A), A.device))


def _lu_info(A: Tensor) -> Any:
    """getrf's info for each matrix of A (solve_ex factors A itself), on the host, where errors
    and info tensors are made from."""
    if A.numel() == 0:
        return np.zeros(A.shape[:-2], np.int32)
    return torch_lu(backend.to_host(A._data), False)[2]


@guarded
def inverse(input: Tensor) -> Tensor:  # noqa: A002
    """torch.inverse: linalg.inv."""
    input = _check_tensor(input, "inverse")
    _inv_checks(input)
    return LinalgInvExBackward0.apply(input, check_errors=True)


@guarded
def det(A: Tensor) -> Tensor:  # noqa: N803
    """torch.det and torch.linalg.det (LinalgDetBackward0)."""
    A = _check_tensor(A, "det")
    _square(A, "linalg.det")
    _floating(A, "linalg.det")
    _kernel(A, "lu_cpu")
    return LinalgDetBackward0.apply(A)


def _slogdet(A: Tensor, name: str, kind: str) -> Any:
    _square(A, name)
    _floating(A, name, low_precision=False)
    sign, logabsdet = LinalgSlogdetBackward0.apply_all(A)
    return RETURN_TYPES_LINALG[kind](sign, logabsdet)


@guarded(name="linalg_slogdet")
def linalg_slogdet(A: Tensor) -> Any:  # noqa: N803
    """torch.linalg.slogdet: (sign, logabsdet), one LinalgSlogdetBackward0 for both."""
    return _slogdet(_check_tensor(A, "linalg_slogdet"), "linalg.slogdet", "linalg_slogdet")


@guarded
def slogdet(input: Tensor) -> Any:  # noqa: A002
    """torch.slogdet: as linalg.slogdet, a torch.return_types.slogdet."""
    return _slogdet(_check_tensor(input, "slogdet"), "linalg.slogdet", "slogdet")


@guarded
def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """torch.logdet: where(sign == -1, nan, logabsdet) (WhereBackward0)."""
    input = _check_tensor(input, "logdet")
    _square(input, "logdet")
    _floating(input, "logdet", low_precision=False)
    sign, logabsdet = LinalgSlogdetBackward0.apply_all(input)
    return where(eq(sign, -1.0), math.nan, logabsdet)


# ---------------------------------------------------------------------------------------------
# solve, solve_triangular
# ---------------------------------------------------------------------------------------------


def _solve_checks(A: Tensor, B: Tensor, left: bool, name: str = "linalg.solve") -> bool:
    _floating(A, name)
    if A.dtype is not B.dtype:
        raise TorchRuntimeError(f"{name}: Expected A and B to have the same dtype, but found A "
                                f"of type {A.dtype.short} and B of type {B.dtype.short} "
                                "instead")
    vector = B.ndim == 1 or (A.ndim - 1 == B.ndim and tuple(B.shape) == tuple(A.shape[:-1]))
    shape_b = tuple(B.shape) + (1,) if vector else tuple(B.shape)
    _square(A, name)
    if len(shape_b) < 2:
        raise TorchRuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _incompatible(A, shape_b, left, name)
    try:
        np.broadcast_shapes(shape_b[:-2], tuple(A.shape[:-2]))
    except ValueError:
        from gradsh.engine.functions.common import infer_size

        infer_size(shape_b[:-2], tuple(A.shape[:-2]))
    if not left and vector:
        raise TorchRuntimeError(f"{name}: Vector broadcasting of the left hand side is not "
                                "supported for left=False. In this case linalg.solve is "
                                "equivalent to B / A.squeeze(-1)")
    return vector


def _incompatible(A: Tensor, shape_b: tuple[int, ...], left: bool, name: str) -> None:
    ok = A.shape[-2] == shape_b[-2] if left else A.shape[-1] == shape_b[-1]
    if not ok:
        raise TorchRuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({A.shape[-2]}x{A.shape[-1]} and "
            f"{shape_b[-2]}x{shape_b[-1]})")


@guarded(name="linalg_solve")
def linalg_solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """torch.linalg.solve (LinalgSolveExBackward0); a singular A raises LinAlgError."""
    A = _check_tensor(A, "linalg_solve")
    B = _check_tensor(B, "linalg_solve", "B", 2)
    vector = _solve_checks(A, B, left)
    _kernel(A, "lu_cpu")
    return LinalgSolveExBackward0.apply(A, B, left=left, vector=vector, check_errors=True)


@guarded(name="linalg_solve_ex")
def solve_ex(A: Tensor, B: Tensor, *, left: bool = True,  # noqa: N803
             check_errors: bool = False) -> Any:
    """torch.linalg.solve_ex: (result, info)."""
    A = _check_tensor(A, "linalg_solve_ex")
    B = _check_tensor(B, "linalg_solve_ex", "B", 2)
    vector = _solve_checks(A, B, left)
    _kernel(A, "lu_cpu")
    result = LinalgSolveExBackward0.apply(A, B, left=left, vector=vector,
                                          check_errors=check_errors)
    # (info is the LU factorisation's of A: A's own batch shape, not the broadcast one)
    return RETURN_TYPES_LINALG["linalg_solve_ex"](result, _info(_lu_info(A), A.device))


@guarded(name="linalg_solve_triangular")
def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True,  # noqa: N803
                     unitriangular: bool = False) -> Tensor:
    """torch.linalg.solve_triangular (LinalgSolveTriangularBackward0)."""
    A = _check_tensor(A, "linalg_solve_triangular")
    B = _check_tensor(B, "linalg_solve_triangular", "B", 2)
    name = "linalg.solve_triangular"
    _square(A, name)
    _matrix(B, name, "B")
    _incompatible(A, tuple(B.shape), left, name)
    _kernel(A, "triangular_solve_cpu")
    _kernel(B, "triangular_solve_cpu")
    if B.dtype is not A.dtype:
        B = to(B, A.dtype)
    return LinalgSolveTriangularBackward0.apply(A, B, upper=bool(upper), left=bool(left),
                                                unitriangular=bool(unitriangular))


_WARNED: set[str] = set()


@guarded(name="triangular_solve")
def triangular_solve(b: Tensor, A: Tensor, upper: bool = True,  # noqa: N803
                     transpose: bool = False, unitriangular: bool = False) -> Any:
    """torch.triangular_solve (deprecated): (solution of op(A) X = b, a copy of A broadcast to
    the batch), through linalg.solve_triangular (its grad_fn, not TriangularSolveBackward0)."""
    b = _check_tensor(b, "triangular_solve")
    A = _check_tensor(A, "triangular_solve", "A", 2)
    if "triangular_solve" not in _WARNED:  # TORCH_WARN_ONCE
        _WARNED.add("triangular_solve")
        warn("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
             "and will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular "
             "has its arguments reversed and does not return a copy of one of the inputs.\nX = "
             "torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
             "torch.linalg.solve_triangular(A, B).")
    for label, t in (("b", b), ("A", A)):
        if t.ndim < 2:
            raise TorchRuntimeError(f"torch.triangular_solve: Expected {label} to have at least 2 "
                                    f"dimensions, but it has {t.ndim} dimensions instead")
    if b.dtype is not A.dtype:
        raise TorchRuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                                f"{b.dtype.short} and A of type {A.dtype.short} instead.")
    if A.shape[-1] != A.shape[-2]:
        raise TorchRuntimeError(f"A must be batches of square matrices, but they are "
                                f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if A.shape[-1] != b.shape[-2]:
        raise TorchRuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix "
                                f"is {A.shape[-1]} by {A.shape[-1]} but each b matrix is "
                                f"{b.shape[-2]} by {b.shape[-1]}")
    _kernel(A, "triangular_solve_cpu")
    from gradsh.engine.ops.copies import clone
    from gradsh.engine.ops.shape import expand, transpose as swap

    batch = tuple(np.broadcast_shapes(tuple(A.shape[:-2]), tuple(b.shape[:-2])))
    coefficient = clone(expand(A, *(batch + tuple(A.shape[-2:]))))
    op = swap(A, -2, -1) if transpose else A
    solution = solve_triangular(op, b, upper=bool(upper) != bool(transpose),
                                unitriangular=unitriangular)
    return RETURN_TYPES_LINALG["triangular_solve"](solution, coefficient)


# ---------------------------------------------------------------------------------------------
# cholesky
# ---------------------------------------------------------------------------------------------


def _cholesky_error(name: str, info: Any) -> TorchLinAlgError:
    value, prefix = batch_prefix(info)
    return TorchLinAlgError(
        f"{name}: {prefix}The factorization could not be completed because the input is not "
        f"positive-definite (the leading minor of order {value} is not positive-definite).")


@guarded(name="linalg_cholesky")
def linalg_cholesky(A: Tensor, *, upper: bool = False) -> Tensor:  # noqa: N803
    """torch.linalg.cholesky (LinalgCholeskyExBackward0): the lower factor, or its
    transpose with upper=True."""
    A = _check_tensor(A, "linalg_cholesky")
    return _cholesky(A, upper, "linalg.cholesky", LinalgCholeskyExBackward0)


def _cholesky_checks(A: Tensor, name: str) -> None:
    _square(A, name)
    _floating(A, name)
    _kernel(A, "cholesky_cpu")


def _cholesky(A: Tensor, upper: bool, name: str, cls: type) -> Tensor:
    _cholesky_checks(A, name)
    info = _cholesky_info(A, upper)
    if np.any(info):
        raise _cholesky_error(name, info)
    return cls.apply(A, upper=bool(upper))  # type: ignore[no-any-return]


@guarded(name="linalg_cholesky_ex")
def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> Any:  # noqa: N803
    """torch.linalg.cholesky_ex: (L, info); a failed factorization's L as potrf left it."""
    A = _check_tensor(A, "linalg_cholesky_ex")
    _cholesky_checks(A, "linalg.cholesky")
    info = _cholesky_info(A, upper)
    if check_errors and np.any(info):
        raise _cholesky_error("linalg.cholesky", info)
    L = LinalgCholeskyExBackward0.apply(A, upper=bool(upper))
    return RETURN_TYPES_LINALG["linalg_cholesky_ex"](L, _info(info, A.device))


def _cholesky_info(A: Tensor, upper: bool) -> Any:
    """potrf's info on the host (see _lu_info)."""
    data = backend.to_host(A._data)
    return cholesky_factor(data, upper)[1]


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\n"
    "should be replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
    "equivalent results for all valid (symmetric positive definite) inputs.")
_warned: set[str] = set()


@guarded
def cholesky(input: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """The deprecated torch.cholesky (CholeskyBackward0), with its warning once."""
    input = _check_tensor(input, "cholesky")
    if "cholesky" not in _warned:
        _warned.add("cholesky")
        warn(_CHOLESKY_DEPRECATED)
    return _cholesky(input, upper, "cholesky", CholeskyBackward0)
