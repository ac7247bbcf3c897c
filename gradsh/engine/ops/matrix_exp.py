"""torch.matrix_exp / torch.linalg.matrix_exp, and its gradient as differentiable ops (for
create_graph: the same block formula, recorded)."""

from __future__ import annotations

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.matrix_exp import LinalgMatrixExpBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.copies import copy_
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import narrow, transpose
from gradsh.engine.ops.special import TENSOR_SPECIAL
from gradsh.engine.tensor import Tensor

__all__ = ["matrix_exp", "linalg_matrix_exp"]

_NAME = "linalg.matrix_exp"


@guarded
def matrix_exp(input: Tensor) -> Tensor:  # noqa: A002
    """exp(A) of each square matrix, as ATen computes it (functions/matrix_exp.py)."""
    a = _check_tensor(input, "matrix_exp")
    if a.ndim < 2:
        raise TorchRuntimeError(f"{_NAME}: The input tensor A must have at least 2 dimensions.")
    rows, cols = a.shape[-2], a.shape[-1]
    if rows != cols:
        raise TorchRuntimeError(f"{_NAME}: A must be batches of square matrices, but they are "
                                f"{rows} by {cols} matrices")
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError(f"{_NAME}: Expected a floating point or complex tensor as "
                                f"input. Got {_scalar_name(a)}")
    return LinalgMatrixExpBackward0.apply(a)


linalg_matrix_exp = matrix_exp


def _scalar_name(a: Tensor) -> str:
    """ATen's ScalarType name ("Long", "Int", "Bool")."""
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}.get(str(a.dtype).removeprefix("torch."), str(a.dtype))


def _differential(a: Tensor, grad: Tensor) -> Tensor:
    """linalg_matrix_exp_differential(self, grad, adjoint=True) as recorded ops: zeros,
    copies into its blocks, matrix_exp, and the upper right block (SliceBackward0)."""
    n = a.shape[-1]
    at = transpose(a, -2, -1)
    meta = zeros(tuple(a.shape[:-2]) + (2 * n, 2 * n), dtype=grad.dtype, device=grad.device)
    copy_(narrow(narrow(meta, -2, 0, n), -1, 0, n), at)
    copy_(narrow(narrow(meta, -2, n, n), -1, n, n), at)
    copy_(narrow(narrow(meta, -2, 0, n), -1, n, n), grad)
    return narrow(narrow(matrix_exp(meta), -2, 0, n), -1, n, n)


TENSOR_SPECIAL["matrix_exp_differential"] = _differential
