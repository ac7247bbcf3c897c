"""Products and combinations of tensors: kron, block_diag, combinations (the searching and
counting functions are in binning.py)."""

from __future__ import annotations

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.combining import BlockDiagBackward0
from gradsh.engine.functions.common import result_dtype
from gradsh.engine.ops.arguments import _check_tensor, _new, _plain
from gradsh.engine.ops.arithmetic import mul
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.indexing import masked_select
from gradsh.engine.ops.joining import meshgrid, stack
from gradsh.engine.ops.shape import _unsafe_view
from gradsh.engine.tensor import Tensor

__all__ = ["kron", "block_diag", "combinations"]


@guarded
def kron(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """ATen's kron: both operands viewed with interleaved unit dimensions, multiplied, viewed
    back (UnsafeViewBackward0 over MulBackward0)."""
    a = _check_tensor(input, "kron")
    b = _check_tensor(other, "kron", "other", 2)
    ndim = max(a.ndim, b.ndim)
    pad_a, pad_b = ndim - a.ndim, ndim - b.ndim
    a_shape, b_shape, result = [], [], []
    for i in range(ndim):
        m = a.shape[i - pad_a] if i >= pad_a else 1
        n = b.shape[i - pad_b] if i >= pad_b else 1
        a_shape += [m, 1]
        b_shape += [1, n]
        result.append(m * n)
    product = mul(_unsafe_view(a, tuple(a_shape)), _unsafe_view(b, tuple(b_shape)))
    return _unsafe_view(product, tuple(result))


@guarded(tensor_first=False)
def block_diag(*tensors: Tensor) -> Tensor:
    """The tensors (0-, 1- or 2-D) as blocks along a diagonal (BlockDiagBackward0)."""
    for i, t in enumerate(tensors):
        _check_tensor(t, "block_diag", "tensors", i + 1)
        if t.ndim > 2:
            raise TorchRuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                                    f"dimensions. Input {i} has {t.ndim} dimensions")
    if not tensors:
        return _plain(np.zeros((1, 0), dtype=np.float32), "cpu")
    dtype = result_dtype(*tensors)
    return BlockDiagBackward0.apply(*tensors, dtype=dtype)  # type: ignore[no-any-return]


@guarded
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa
    """ATen's combinations: r meshgrid copies of input, each masked to i0 < i1 < ... (<= with
    replacement), stacked."""
    x = _check_tensor(input, "combinations")
    if x.ndim != 1:
        raise TorchRuntimeError(f"Expect a 1D vector, but got shape {list(x.shape)}")
    if r < 0:
        raise TorchRuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _new(np.zeros(0, dtype=x.dtype.np), x.dtype, x.device, False)
    n = x.shape[0]
    grid = np.indices((n,) * r)
    keep = np.ones((n,) * r, dtype=bool)
    for i in range(r - 1):
        keep &= (grid[i] <= grid[i + 1]) if with_replacement else (grid[i] < grid[i + 1])
    mask = _plain(keep, x.device)
    grids = meshgrid(*([x] * r), indexing="ij")
    return stack([masked_select(g, mask) for g in grids], 1)
