"""torch.cdist: the p-norm distances between the rows of two batches of matrices."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import limits
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.common import infer_size
from gradsh.engine.functions.distance import CdistBackward0, EuclideanDistBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import contiguous, expand, view
from gradsh.engine.tensor import Tensor

__all__ = ["cdist"]

_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
          "donot_use_mm_for_euclid_dist": 2}


@guarded(tensor_first=False)
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """(B..., P, M) and (B..., R, M) -> (B..., P, R). For p = 2 with more than 25 rows on
    either side (or compute_mode="use_mm_for_euclid_dist") PyTorch uses a matrix product
    (EuclideanDistBackward0 under a ViewBackward0), else its p-norm kernel (CdistBackward0)."""
    x1 = _check_tensor(x1, "cdist", "x1")
    x2 = _check_tensor(x2, "cdist", "x2", 2)
    if compute_mode not in _MODES:
        raise TorchValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _MODES[compute_mode]
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise TorchRuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                                    f"{x.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise TorchRuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                                f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if not x1.dtype.is_floating_point:
        raise TorchRuntimeError(f"cdist only supports floating-point dtypes, X1 got: "
                                f"{x1.dtype.short}")
    if not x2.dtype.is_floating_point:
        raise TorchRuntimeError(f"cdist only supports floating-point dtypes, X2 got: "
                                f"{x2.dtype.short}")
    if p < 0:
        raise TorchRuntimeError("cdist only supports non-negative p values")
    p = float(p)
    r1, r2, columns = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    batch = tuple(infer_size(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    out_shape = (*batch, r1, r2)
    limits.check(out_shape, x1._data.dtype.itemsize)
    product = math.prod(batch)
    if x1.numel() and x2.numel() and p == 2 and (mode == 1 or (mode == 0 and max(r1, r2) > 25)):
        if product == 1:
            return view(EuclideanDistBackward0.apply(x1, x2), *out_shape)
        # the batch flattened first: expand, contiguous (a copy where expand broadcast), view
        a = view(contiguous(expand(x1, (*batch, r1, columns))), product, r1, columns)
        b = view(contiguous(expand(x2, (*batch, r2, columns))), product, r2, columns)
        return view(EuclideanDistBackward0.apply(a, b), *out_shape)
    if columns == 0 and r1 and r2 and product:
        return zeros(out_shape, dtype=x1.dtype, device=x1.device)
    return CdistBackward0.apply(x1, x2, p=p)  # the kernel broadcasts the batch itself
