"""torch.diagonal: a tensor's diagonal over two dimensions, as a view."""

from __future__ import annotations

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.diagonal import DiagonalBackward0
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["diagonal"]


@guarded
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0,  # noqa: A002
             dim2: int = 1) -> Tensor:
    """x.diagonal(offset, dim1, dim2): dim1 and dim2 replaced by a last dimension holding the
    offset-th diagonal (DiagonalBackward0, sharing x's storage)."""
    x = _check_tensor(input, "diagonal")
    d1, d2 = wrap_dim(dim1, x.ndim), wrap_dim(dim2, x.ndim)
    if d1 == d2:
        raise TorchRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagonalBackward0.apply(x, offset=int(offset), dim1=d1, dim2=d2)
