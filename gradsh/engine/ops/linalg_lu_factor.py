"""torch.linalg.lu_factor, lu_factor_ex, lu, lu_solve; torch.lu_unpack, and the deprecated
torch.lu and torch.lu_solve (with their warnings): ATen's checks in its order and words, the
torch.return_types they return, over functions/linalg_lu_factor.py's nodes."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError, warn
from gradsh.engine.functions.linalg_lu import batch_prefix
from gradsh.engine.functions.linalg_lu_factor import (
    LinalgLuBackward0,
    LinalgLuFactorExBackward0,
    LinalgLuSolveBackward0,
    LuUnpackBackward0,
)
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_solvers import _return_type
from gradsh.engine.tensor import Tensor, _once

__all__ = ["linalg_lu_factor", "lu_factor_ex", "linalg_lu", "lu_unpack", "linalg_lu_solve",
           "lu", "lu_solve"]

_LU_FACTOR = _return_type("linalg_lu_factor", ("LU", "pivots"))
_LU_FACTOR_EX = _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_LU = _return_type("linalg_lu", ("P", "L", "U"))
_LU_UNPACK = _return_type("lu_unpack", ("P", "L", "U"))
_LU_WITH_INFO = _return_type("_lu_with_info", ("LU", "pivots", "info"))

_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")
_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B)")


def _check_factor(a: Tensor, name: str, pivot: bool) -> None:
    if a.ndim < 2:
        raise TorchRuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                                f"{list(a.shape)} instead")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise TorchNotImplementedError(f"\"lu_cpu\" not implemented for '{a.dtype.short}'")
    if not pivot:
        raise TorchRuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the "
                                "CPU")


def _factor(a: Tensor, name: str, pivot: bool, check_errors: bool,
            function: str) -> tuple[Tensor, Tensor, Tensor]:
    _check_factor(a, name, pivot)
    factors, pivots, info = LinalgLuFactorExBackward0.apply_all(a)
    if check_errors and np.any(info._data):
        value, prefix = batch_prefix(info._data)
        raise TorchRuntimeError(
            f"{function}: {prefix}U[{value},{value}] is zero and using it on lu_solve would "
            "result in a division by zero. If you still want to perform the factorization, "
            "consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return factors, pivots, info


@guarded
def lu_factor_ex(A: Tensor, *, pivot: bool = True,  # noqa: N803  (PyTorch's names)
                 check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """getrf: (LU, pivots, info), info non-zero where a U's diagonal has a zero."""
    return _LU_FACTOR_EX(*_factor(A, "torch.lu_factor", pivot, check_errors,  # type: ignore
                                  "torch.linalg.lu_factor_ex"))


@guarded
def linalg_lu_factor(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor]:  # noqa: N803
    """getrf: (LU, pivots); a singular matrix is an error."""
    factors, pivots, _ = _factor(A, "torch.lu_factor", pivot, True, "torch.linalg.lu_factor")
    return _LU_FACTOR(factors, pivots)  # type: ignore[no-any-return]


@guarded
def linalg_lu(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:  # noqa: N803
    """(P, L, U) with A = P L U."""
    _check_factor(A, "linalg.lu", pivot)
    return _LU(*LinalgLuBackward0.apply_all(A))  # type: ignore[no-any-return]


@guarded
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,  # noqa: N803
              unpack_pivots: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """(P, L, U) from lu_factor's (LU, pivots)."""
    if LU_data.ndim < 2:
        raise TorchRuntimeError("torch.lu_unpack: Expected tensor with 2 or more dimensions. "
                                f"Got size: {list(LU_data.shape)} instead")
    if LU_pivots.dtype is not dtypes.int32:
        raise TorchRuntimeError(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
            "dtype.\nNote: this function is intended to be used with the output produced by "
            "torch.linalg.lu_factor")
    m = LU_data.shape[-2]
    piv = np.asarray(LU_pivots._data)
    if unpack_pivots and piv.size and (piv.min() < 1 or piv.max() > m):
        raise TorchRuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                                "inclusive.Did you properly pass the result of lu_factor?")
    return _LU_UNPACK(*LuUnpackBackward0.apply_all(  # type: ignore[no-any-return]
        LU_data, LU_pivots, unpack_data=unpack_data, unpack_pivots=unpack_pivots))


@guarded
def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,  # noqa: N803
                    adjoint: bool = False) -> Tensor:
    """X with A X = B (A^T X = B with adjoint; X A = B with left=False) from A's LU."""
    if B.ndim < 2:
        raise TorchRuntimeError("linalg.lu_solve: The input tensor B must have at least 2 "
                                "dimensions.")
    if LU.ndim < 2 or LU.shape[-1] != LU.shape[-2]:
        raise TorchRuntimeError("torch.linalg.lu_solve: A must be batches of square matrices, "
                                f"but they are {LU.shape[-2]} by {LU.shape[-1]} matrices")
    if not LU.dtype.is_floating_point:
        raise TorchRuntimeError("torch.linalg.lu_solve: Expected a floating point or complex "
                                f"tensor as input. Got {LU.dtype.short}")
    n = LU.shape[-1]
    rows, cols = (B.shape[-2], B.shape[-1]) if left else (B.shape[-2], B.shape[-1])
    if (rows if left else cols) != n:
        equation = "AX = B" if left else "XA = B"
        raise TorchRuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the "
                                f"equation {equation} ({n}x{n} and {rows}x{cols})")
    if B.dtype is not LU.dtype:
        raise TorchRuntimeError("linalg.lu_solve: Expected LU and B to have the same dtype, but "
                                f"found LU of type {LU.dtype.short} and B of type "
                                f"{B.dtype.short} instead")
    if pivots.dtype is not dtypes.int32:
        raise TorchRuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                                "torch.int32")
    if pivots.ndim == 0 or pivots.shape[-1] != n:
        raise TorchRuntimeError("linalg.lu_solve: Number of pivots per batch should be same as "
                                "the dimension of the matrix")
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise TorchRuntimeError("linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be "
                                f"the same, but got pivots with shape {list(pivots.shape)} "
                                "instead")
    _broadcast_batches(B.shape[:-2], LU.shape[:-2])
    return LinalgLuSolveBackward0.apply(  # type: ignore[no-any-return]
        LU, B, pivots=np.asarray(pivots._data), left=left, adjoint=adjoint)


def _broadcast_batches(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    """PyTorch's broadcasting error for batch shapes that do not broadcast."""
    for i in range(1, min(len(a), len(b)) + 1):
        x, y = a[-i], b[-i]
        if x != y and x != 1 and y != 1:
            raise TorchRuntimeError(f"The size of tensor a ({x}) must match the size of tensor "
                                    f"b ({y}) at non-singleton dimension {max(len(a), len(b)) - i}")


@guarded
def lu(A: Tensor, pivot: bool = True, get_infos: bool = False) -> Any:  # noqa: N803
    """The deprecated torch.lu: linalg.lu_factor(_ex)'s values (a plain tuple without
    get_infos)."""
    if "torch.lu" not in _once:
        _once.add("torch.lu")
        warn(_LU_DEPRECATED)
    factors, pivots, info = _factor(A, "torch.lu_factor", pivot, not get_infos,
                                    "torch.linalg.lu_factor_ex")
    return _LU_WITH_INFO(factors, pivots, info) if get_infos else (factors, pivots)


def tensor_lu(self: Tensor, pivot: bool = True, get_infos: bool = False) -> Any:
    """Tensor.lu: torch.lu's values, a plain tuple either way (and its warning)."""
    return tuple(lu(self, pivot, get_infos))


@guarded
def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    """The deprecated torch.lu_solve(B, LU, pivots): linalg.lu_solve(LU, pivots, B)."""
    if "torch.lu_solve" not in _once:
        _once.add("torch.lu_solve")
        warn(_LU_SOLVE_DEPRECATED)
    return linalg_lu_solve(LU_data, LU_pivots, b)  # type: ignore[no-any-return]
