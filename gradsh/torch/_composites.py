"""torch.* functions ATen composes from other ops (vander, nonzero_static): the same ops in
the same order, so values, dtypes and grad_fn chains are PyTorch's."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes, ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor

__all__ = ["vander", "nonzero_static"]


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """ATen's vander: ones, x copied into columns 1.., their cumprod copied back, flipped
    unless increasing (integers compute in int64, as cumprod promotes them)."""
    if x.dim() != 1:
        raise TorchRuntimeError("x must be a one-dimensional tensor.")
    n = x.size(0) if N is None else int(N)
    if n < 0:
        raise TorchRuntimeError("N must be non-negative.")
    dtype = dtypes.promote_types(x.dtype, dtypes.int64)
    result = ops.empty((x.size(0), n), dtype=dtype, device=x.device)
    if n > 0:
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(ops.cumprod(result[:, 1:], 1))
    return result if increasing else ops.flip(result, [1])


def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:  # noqa: A002
    """nonzero's indices cut or padded with fill_value to exactly `size` rows."""
    if not isinstance(size, int) or size < 0:
        raise TorchRuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = ops.nonzero(input)
    if found.size(0) >= size:
        return found[:size].clone()
    pad = ops.full((size - found.size(0), found.size(1)), fill_value, dtype=dtypes.int64,
                   device=input.device)
    return ops.cat([found, pad])
