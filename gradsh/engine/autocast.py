"""Autocast on the CPU (torch.autocast("cpu")): while a region is active, the ops PyTorch's
AutocastCPU kernel lists (aten/src/ATen/autocast_mode.cpp) take their floating inputs in the
region's lower precision (products, convolutions) or in float32 (losses, reductions that need
range); float64 inputs are left alone. The argument guard (ops/guard.py) asks `policy_of` for
each op it runs and casts through `cast_arguments`; the convolutions, which it does not wrap,
cast through `lower`; backward passes run without autocast.
"""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType

# The CPU lists by the names gradsh's ops go by (methods without their underscores)
LOWER_PRECISION = frozenset({
    "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm", "addbmm",
    "linear", "matmul", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu",
    "scaled_dot_product_attention",
})
FP32 = frozenset({
    "avg_pool3d", "binary_cross_entropy", "grid_sample", "prod", "quantile", "nanquantile",
    "cdist", "trace", "cholesky", "cholesky_inverse", "cholesky_solve", "inverse", "pinverse",
    "max_pool3d", "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "mse_loss",
    "cosine_embedding_loss", "nll_loss", "hinge_embedding_loss", "poisson_nll_loss",
    "smooth_l1_loss", "cross_entropy", "l1_loss", "huber_loss", "margin_ranking_loss",
    "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss", "kl_div",
    "multilabel_margin_loss", "binary_cross_entropy_with_logits", "linalg_solve",
    "linalg_cholesky", "linalg_svdvals", "linalg_eigvalsh", "linalg_inv", "qr", "svd",
    "linalg_qr", "linalg_svd", "linalg_eigh", "linalg_inv_ex", "adaptive_max_pool3d",
})


class Autocast:
    """The region in force: None when autocast is off (the guard's one check per op)."""

    dtype: DType | None = None  # the lower precision while a CPU region is active
    cache_enabled = True
    nesting = 0
    cache: dict[int, tuple[Any, Any]] = {}  # id(leaf) -> (leaf, its cast): one cast per leaf


def policy_of(name: str) -> DType | None:
    """The dtype op `name` casts its floating inputs to in the active region, if any."""
    if name in LOWER_PRECISION:
        return Autocast.dtype
    if name in FP32:
        return dtypes.float32
    return None


def _cast(value: Any, target: DType) -> Any:
    from gradsh.engine.ops import to
    from gradsh.engine.tensor import Tensor

    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, target) for v in value)
    if not isinstance(value, Tensor) or not value.dtype.is_floating_point or \
            value.dtype is dtypes.float64 or value.dtype is target:
        return value
    cacheable = Autocast.cache_enabled and value.requires_grad and value.is_leaf
    if cacheable:
        hit = Autocast.cache.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
    result = to(value, target)
    if cacheable:
        Autocast.cache[id(value)] = (value, result)
    return result


def cast_arguments(target: DType, args: tuple[Any, ...],
                   kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (tuple(_cast(a, target) for a in args),
            {k: _cast(v, target) for k, v in kwargs.items()})


def lower(*tensors: Any) -> tuple[Any, ...]:
    """A lower-precision op's tensor arguments as the active region casts them (the
    convolutions, whose entry points call this themselves); unchanged outside a region."""
    target = Autocast.dtype
    if target is None:
        return tensors
    return tuple(_cast(t, target) for t in tensors)
