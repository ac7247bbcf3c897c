"""pdist and logcumsumexp."""

from __future__ import annotations

import math

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.distance_extras import LogcumsumexpBackward0, PdistBackward0
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["pdist", "logcumsumexp"]


@guarded
def pdist(input: Tensor, p: float = 2) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "pdist")
    if input.ndim != 2:
        raise TorchRuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise TorchRuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise TorchRuntimeError("pdist only supports non-negative p values")
    return PdistBackward0.apply(input, p=math.inf if p == math.inf else float(p))  # type: ignore


@guarded
def logcumsumexp(input: Tensor, dim: int) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "logcumsumexp")
    d = wrap_dim(dim, max(input.ndim, 1))
    d = d if input.ndim else 0
    if not input.dtype.is_floating_point:  # the dim is parsed first, then the kernel refuses
        raise not_implemented_for("logcumsumexp_out_cpu", input.dtype)
    return LogcumsumexpBackward0.apply(input, dim=d)  # type: ignore[no-any-return]
