"""torch.linalg's composite functions cond and matrix_rank, built from the ops ATen composes them
of (aten/src/ATen/native/LinearAlgebra.cpp), so their graphs and bits are PyTorch's; and
torch.cholesky_solve and cholesky_inverse (functions/linalg_cholesky.py) and linalg.lstsq
(functions/linalg_lstsq.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import infer_size
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_decompositions import eigvalsh, matrix_norm, svdvals
from gradsh.engine.functions.linalg_cholesky import (
    CholeskyInverseBackward0,
    CholeskySolveBackward0,
)
from gradsh.engine.functions.linalg_lstsq import LinalgLstsqBackward0
from gradsh.engine.ops.linalg_solvers import RETURN_TYPES_LINALG, _kernel, _matrix, _square, inv_ex
from gradsh.engine.ops.shape import narrow, squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["cond", "matrix_rank", "cholesky_solve", "cholesky_inverse", "lstsq"]


def _ord_text(ord: Any) -> str:  # noqa: A002
    """The order as ATen prints it: a float with std::to_string's six decimals, inf as inf."""
    if isinstance(ord, str):
        return ord
    if isinstance(ord, float) and not math.isinf(ord):
        return f"{ord:.6f}"
    if isinstance(ord, float):
        return "inf" if ord > 0 else "-inf"
    return str(int(ord))


@guarded(name="linalg_cond")
def cond(A: Tensor, p: Any = None) -> Tensor:  # noqa: N803
    """torch.linalg.cond: the condition number in the p-norm, as ATen composes it: for None
    and +-2 the ratio of the extreme singular values (svdvals), for 'nuc' the nuclear norms of
    A and (through the reciprocals of the singular values) A^{-1}, else matrix_norm(A) times
    matrix_norm(inv(A)) with a singular matrix's inverse filled with inf."""
    A = _check_tensor(A, "linalg_cond")
    name = "linalg.cond"
    if A.ndim < 2:
        raise TorchRuntimeError(f"{name}: The input tensor must have at least 2 dimensions.")
    ord = 2 if p is None else p  # noqa: A001
    if isinstance(ord, Tensor):
        ord = ord.item()  # noqa: A001
    if isinstance(ord, str):
        valid = ord in ("fro", "nuc")
    else:
        valid = abs(float(ord)) in (1.0, 2.0, math.inf)
    if not isinstance(ord, str) and abs(float(ord)) == 2.0:
        if not valid:
            raise TorchRuntimeError(f"{name} got an invalid norm type: {_ord_text(ord)}")
        if A.numel() == 0:
            return _empty(A)
        values = svdvals(A)
        s_max = narrow(values, -1, 0, 1)
        s_min = narrow(values, -1, values.shape[-1] - 1, 1)
        ratio = s_min / s_max if float(ord) == -2.0 else s_max / s_min
        return squeeze(ratio, -1)
    _square(A, f"linalg.cond(ord={_ord_text(ord)})")
    if not valid:
        raise TorchRuntimeError(f"{name} got an invalid norm type: {_ord_text(ord)}")
    if A.numel() == 0:
        return _empty(A)
    if ord == "nuc":
        values = svdvals(A)
        return values.sum(-1) * values.reciprocal().sum(-1)
    inverse, info = inv_ex(A)
    singular = unsqueeze(unsqueeze(info, -1), -1) > 0
    inverse.masked_fill_(singular, math.inf)  # (in place, as ATen: its backward then fails)
    result = matrix_norm(A, ord) * matrix_norm(inverse, ord)
    # ATen: nan_to_num_(inf, inf, -inf), zero times infinity as NumPy answers it
    return result.nan_to_num_(math.inf, math.inf, -math.inf)


def _empty(A: Tensor) -> Tensor:  # noqa: N803
    from gradsh.engine.ops.creation import zeros

    return zeros(tuple(A.shape[:-2]), dtype=A.dtype, device=A.device)


@guarded(name="linalg_matrix_rank")
def matrix_rank(A: Tensor, tol: Any = None, hermitian: bool = False, *,  # noqa: N803
                atol: Any = None, rtol: Any = None) -> Tensor:
    """torch.linalg.matrix_rank: the number of singular values (absolute eigenvalues when
    hermitian) above max(atol, rtol * the largest), the tolerances float64 as ATen's
    get_atol_rtol makes them; `tol` (positional) is an absolute tolerance with rtol 0."""
    A = _check_tensor(A, "linalg_matrix_rank")
    if tol is not None:
        if atol is not None or rtol is not None:
            raise TorchRuntimeError(
                "linalg_matrix_rank() received an invalid combination of arguments - got "
                "(Tensor, atol=float, tol=float)")
        atol, rtol = tol, 0.0
    _matrix(A, "torch.linalg.matrix_rank", "input")
    if A.dtype not in (dtypes.float32, dtypes.float64):
        raise TorchRuntimeError("This function doesn't handle types other than float and double")
    if A.numel() == 0:
        from gradsh.engine.ops.creation import zeros

        return zeros(tuple(A.shape[:-2]), dtype=dtypes.int64, device=A.device)
    atol_ = np.float64(0.0 if atol is None else _number(atol))
    if rtol is None:
        default = np.float64(np.finfo(A.dtype.np).eps) * max(A.shape[-2:])
        rtol_ = np.float64(0.0) if atol is not None and atol_ > 0 else default
    else:
        rtol_ = np.float64(_number(rtol))
    if hermitian:
        values = np.abs(backend.to_host(eigvalsh(A)._data))
        top = values.max(-1, keepdims=True)
    else:
        values = backend.to_host(svdvals(A)._data)
        top = values[..., :1]
    # atol and rtol unsqueezed to 1-d float64 tensors: the product and the comparison are
    # float64
    threshold = np.maximum(atol_, rtol_ * top.astype(np.float64))
    counts = (values > threshold).sum(-1).astype(np.int64)
    return Tensor._make(backend.to_device(np.asarray(counts), A.device), A.device)


def _number(value: Any) -> float:
    return float(value.item()) if isinstance(value, Tensor) else float(value)


# ---------------------------------------------------------------------------------------------
# cholesky_solve, cholesky_inverse
# ---------------------------------------------------------------------------------------------


@guarded
def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """torch.cholesky_solve(B, L): X with (L L^H) X = B (CholeskySolveBackward0), checked in
    ATen's order (ranks, dtypes, square, sizes, batch broadcast, the kernel's dtypes)."""
    b = _check_tensor(input, "cholesky_solve")
    factor = _check_tensor(input2, "cholesky_solve", "input2", 2)
    for arg, t in (("b", b), ("u", factor)):
        if t.ndim < 2:
            raise TorchRuntimeError(f"{arg} should have at least 2 dimensions, but has "
                                    f"{t.ndim} dimensions instead")
    if b.dtype is not factor.dtype:
        raise TorchRuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {b.dtype.short} and "
            f"A of type {factor.dtype.short} instead.")
    n = factor.shape[-1]
    if factor.shape[-2] != n:
        raise TorchRuntimeError(f"A must be batches of square matrices, but they are "
                                f"{factor.shape[-2]} by {n} matrices")
    if b.shape[-2] != n:
        raise TorchRuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n} but each "
            f"b matrix is {b.shape[-2]} by {b.shape[-1]}")
    infer_size(tuple(b.shape[:-2]), tuple(factor.shape[:-2]))
    _kernel(b, "cholesky_solve_cpu")
    return CholeskySolveBackward0.apply(b, factor, upper=bool(upper))  # type: ignore


@guarded
def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """torch.cholesky_inverse(L): (L L^H)^{-1} from the factor (CholeskyInverseBackward0)."""
    factor = _check_tensor(input, "cholesky_inverse")
    _square(factor, "cholesky_inverse")
    _kernel(factor, "cholesky_inverse_out_cpu")
    return CholeskyInverseBackward0.apply(factor, upper=bool(upper))  # type: ignore


# ---------------------------------------------------------------------------------------------
# lstsq
# ---------------------------------------------------------------------------------------------

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


@guarded(name="linalg_lstsq")
def lstsq(A: Tensor, B: Tensor, rcond: Any = None, *, driver: Any = None) -> Any:  # noqa: N803
    """torch.linalg.lstsq: (solution, residuals, rank, singular_values) from one
    LinalgLstsqBackward0, checked as ATen checks them; the driver defaults to gelsy and rcond
    to eps * max(m, n)."""
    A = _check_tensor(A, "linalg_lstsq")
    B = _check_tensor(B, "linalg_lstsq", "b", 2)
    name = "torch.linalg.lstsq"
    if A.dtype is not B.dtype:
        raise TorchRuntimeError(
            f"{name}: Expected input and other to have the same dtype, but got input's dtype "
            f"{A.dtype.short} and other's dtype {B.dtype.short}")
    if A.ndim < 2:
        raise TorchRuntimeError(f"{name}: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise TorchRuntimeError(f"{name}: other must have at least 1 dimension.")
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    if B.shape[-1 if vector else -2] != A.shape[-2]:
        raise TorchRuntimeError(f"{name}: input.size(-2) should match other.size("
                                f"{-1 if vector else -2})")
    if A.dtype not in (dtypes.float32, dtypes.float64):
        raise TorchRuntimeError("This function doesn't handle types other than float and double")
    chosen = "gelsy" if driver is None else driver
    if chosen not in _DRIVERS:
        raise TorchRuntimeError(f"{name}: parameter `driver` should be one of "
                                "(gels, gelsy, gelsd, gelss)")
    m, n = A.shape[-2:]
    value = float(np.finfo(A.dtype.np).eps) * max(m, n) if rcond is None else float(rcond)
    if tuple(A.shape[:-2]) != tuple(B.shape[:-1 if vector else -2]):
        batch = infer_size(tuple(A.shape[:-2]), tuple(B.shape[:-1 if vector else -2]))
        A = A.expand(batch + tuple(A.shape[-2:]))
        B = B.expand(batch + tuple(B.shape[-1 if vector else -2:]))
    outputs = LinalgLstsqBackward0.apply_all(A, B, rcond=value, driver=chosen, vector=vector)
    return RETURN_TYPES_LINALG["linalg_lstsq"](*outputs)
