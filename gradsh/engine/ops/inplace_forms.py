"""In-place method forms PyTorch has beside their out-of-place ops: tril_, triu_, cumsum_,
cumprod_, the comparisons (eq_ ...), logical_*_, floor_divide_, heaviside_, addmm_, baddbmm_,
fill_diagonal_."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.attention import BaddbmmBackward0
from gradsh.engine.functions.inplace_forms import NotImplementedInplace, comparison_node
from gradsh.engine.functions.linalg import AddmmBackward0, TrilBackward0, TriuBackward0
from gradsh.engine.functions.reductions import CumprodBackward0, CumsumBackward0
from gradsh.engine.ops import comparison as _comparison
from gradsh.engine.ops.arguments import TensorLike, _check_tensor, as_tensor_operand, wrap_dim
from gradsh.engine.ops.arithmetic import floor_divide
from gradsh.engine.ops.attention import baddbmm
from gradsh.engine.ops.copies import fill_
from gradsh.engine.ops.discrete import heaviside
from gradsh.engine.ops.guard import guarded, unguarded
from gradsh.engine.ops.linalg import addmm
from gradsh.engine.ops.strided import as_strided
from gradsh.engine.tensor import Tensor, apply_inplace, check_inplace
from gradsh.engine.functions.common import check_output_shape
from gradsh.engine.inplace import _can_cast, check_writable

__all__ = [
    "tril_", "triu_", "cumsum_", "cumprod_", "eq_", "ne_", "lt_", "le_", "gt_", "ge_",
    "greater_", "greater_equal_", "less_", "less_equal_", "not_equal_", "logical_and_",
    "logical_or_", "logical_xor_", "logical_not_", "floor_divide_", "heaviside_", "addmm_",
    "baddbmm_", "fill_diagonal_",
]


def _cast_into(target: Tensor, result: Tensor) -> Any:
    """result's values in target's dtype, after PyTorch's check that the shapes agree."""
    if result.shape != target.shape:
        raise TorchRuntimeError(f"output with shape {list(target.shape)} doesn't match the "
                                f"broadcast shape {list(result.shape)}")
    return result._data.astype(target.dtype.np, copy=False)


@guarded
def tril_(a: Tensor, diagonal: int = 0) -> Tensor:
    if a.ndim < 2:
        raise TorchRuntimeError("tril: input tensor must have at least 2 dimensions")
    return apply_inplace(TrilBackward0, a, diagonal=diagonal)


@guarded
def triu_(a: Tensor, diagonal: int = 0) -> Tensor:
    if a.ndim < 2:
        raise TorchRuntimeError("triu: input tensor must have at least 2 dimensions")
    return apply_inplace(TriuBackward0, a, diagonal=diagonal)


@guarded
def cumsum_(a: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return apply_inplace(CumsumBackward0, a, dim=wrap_dim(dim, a.ndim),
                         dtype=dtype or a.dtype)


@guarded
def cumprod_(a: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return apply_inplace(CumprodBackward0, a, dim=wrap_dim(dim, a.ndim),
                         dtype=dtype or a.dtype)


def _comparison_inplace(name: str) -> Callable[..., Tensor]:
    compare = unguarded(getattr(_comparison, name))
    node = comparison_node(name)

    def op(a: Tensor, other: TensorLike) -> Tensor:
        operand = as_tensor_operand(other)
        value = _cast_into(a, compare(a, operand))
        others = (operand,) if operand.requires_grad else ()
        return apply_inplace(node, a, *others, value=value)

    op.__name__ = f"{name}_"
    op.__doc__ = f"Tensor.{name}_: the comparison written into self, in self's dtype."
    return guarded(op)


eq_ = _comparison_inplace("eq")
ne_ = _comparison_inplace("ne")
lt_ = _comparison_inplace("lt")
le_ = _comparison_inplace("le")
gt_ = _comparison_inplace("gt")
ge_ = _comparison_inplace("ge")
greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_


def _write_unrecorded(a: Tensor, result: Tensor, others: tuple[Any, ...] = ()) -> Tensor:
    """PyTorch's logical_*_ kernels write without recording (the history stays the same)."""
    check_inplace(a, others)
    check_writable(a)
    a._inplace_data(_cast_into(a, result))
    return a


@guarded
def logical_and_(a: Tensor, other: Tensor) -> Tensor:
    return _write_unrecorded(a, _comparison.logical_and(a, other), (other,))


@guarded
def logical_or_(a: Tensor, other: Tensor) -> Tensor:
    return _write_unrecorded(a, _comparison.logical_or(a, other), (other,))


@guarded
def logical_xor_(a: Tensor, other: Tensor) -> Tensor:
    return _write_unrecorded(a, _comparison.logical_xor(a, other), (other,))


@guarded
def logical_not_(a: Tensor) -> Tensor:
    return _write_unrecorded(a, _comparison.logical_not(a))


def _not_implemented_inplace(a: Tensor, result: Tensor, operands: tuple[Tensor, ...],
                             op: str) -> Tensor:
    others = tuple(t for t in operands if t.requires_grad)
    return apply_inplace(NotImplementedInplace, a, *others, value=_cast_into(a, result), op=op)


@guarded
def floor_divide_(a: Tensor, other: TensorLike) -> Tensor:
    operand = as_tensor_operand(other)
    check_output_shape(a, operand)  # (before the kernel's ZeroDivisionError)
    result = unguarded(floor_divide)(a, operand)
    if not _can_cast(result.dtype, a.dtype):
        raise TorchRuntimeError(f"result type {result.dtype.short} can't be cast to the "
                                f"desired output type {a.dtype.short}")
    return _not_implemented_inplace(a, result, (operand,), "floor_divide_")


@guarded
def heaviside_(a: Tensor, values: Tensor) -> Tensor:
    _check_tensor(values, "heaviside_", "values", 2)
    result = unguarded(heaviside)(a, values)
    return _not_implemented_inplace(a, result, (values,), "heaviside_")


@guarded
def addmm_(a: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    unguarded(addmm)(a.detach(), mat1.detach(), mat2.detach(), beta, alpha)  # its errors
    if tuple(a.shape) != (mat1.shape[0], mat2.shape[1]):
        raise TorchRuntimeError(f"The input tensor must be a matrix with size "
                                f"{mat1.shape[0]}x{mat2.shape[1]}, but got a {a.ndim}-D "
                                f"tensor with size {a.shape[0]}x{a.shape[-1]}")
    return apply_inplace(AddmmBackward0, a, mat1, mat2, beta=beta, alpha=alpha)


@guarded
def baddbmm_(a: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
             alpha: Any = 1) -> Tensor:
    unguarded(baddbmm)(a.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)
    return apply_inplace(BaddbmmBackward0, a, batch1, batch2, beta=beta, alpha=alpha)


@guarded
def fill_diagonal_(a: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """ATen's fill_diagonal_: the diagonal as one strided view of the storage, filled (wrap=True
    restarts it every width + 1 rows of a tall matrix); CopySlices on a tensor with history."""
    _check_tensor(a, "fill_diagonal_")
    if a.ndim < 2:
        raise TorchRuntimeError("dimensions must larger than 1")
    height, width = a.shape[0], a.shape[1]
    if a.ndim > 2 and any(n != height for n in a.shape):
        raise TorchRuntimeError("all dimensions of input must be of equal length")
    size = min(a.shape)
    step = sum(a.stride())
    if wrap and a.ndim == 2 and height > width + 1:
        size = (a.numel() + step - 1) // step
    return _fill_view(a, as_strided(a, (size,), (step,), a.storage_offset()), fill_value)


def _fill_view(a: Tensor, view: Tensor, fill_value: Any) -> Tensor:
    fill_(view, fill_value)
    return a
