"""torch._weight_norm and torch.norm_except_dim as ATen has them on the CPU: the fused kernel
(WeightNormInterfaceBackward0) for the first or last dim, v * (g / norm_except_dim(v, 2, dim))
otherwise."""

from __future__ import annotations

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.weight_norm import WeightNormInterfaceBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import div, mul
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.reductions import norm
from gradsh.engine.ops.shape import contiguous, reshape, transpose
from gradsh.engine.tensor import Tensor

__all__ = ["_weight_norm", "norm_except_dim"]


@guarded
def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:  # noqa: A002
    """The pow-norm of v over every dimension but `dim` (kept, the others of size 1); dim -1
    is the norm of everything."""
    v = _check_tensor(v, "norm_except_dim")
    last = v.ndim - 1
    if dim == -1:
        return norm(v, pow)
    if dim == 0:
        shape = [v.shape[0]] + [1] * last
        return reshape(norm(reshape(contiguous(v), (v.shape[0], -1)), pow, 1), shape)
    if dim == last:
        shape = [1] * last + [v.shape[last]]
        return reshape(norm(reshape(contiguous(v), (-1, v.shape[last])), pow, 0), shape)
    return transpose(norm_except_dim(transpose(v, 0, dim), pow, 0), 0, dim)


@guarded
def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """w = v * (g / ||v||) with the norm over every dimension but `dim`."""
    v = _check_tensor(v, "_weight_norm")
    g = _check_tensor(g, "_weight_norm", "g", 2)
    if not v.dtype.is_floating_point:
        raise TorchRuntimeError(f"\"weight_norm_kernel\" not implemented for "
                                f"'{v.dtype.short}'")
    fused = dim in (0, v.ndim - 1) and v.dtype in (dtypes.float32, dtypes.float64)
    if fused and v.ndim > 0:
        return WeightNormInterfaceBackward0.apply(contiguous(v), contiguous(g),
                                                  last=dim != 0)
    return mul(v, div(g, norm_except_dim(v, 2, dim)))
