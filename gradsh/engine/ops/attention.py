"""Attention: scaled_dot_product_attention (PyTorch's CPU backend choice: the flash kernel or
the composed math), _safe_softmax and baddbmm."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.arithmetic import MulBackward1
from gradsh.engine.functions.attention import (
    BaddbmmBackward0,
    SafeSoftmaxBackward0,
    ScaledDotProductFlashAttentionForCpuBackward0,
)
from gradsh.engine.ops.activations import _softmax_dim
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import add_
from gradsh.engine.ops.blas_extras import check_baddbmm_input
from gradsh.engine.ops.comparison import logical_not
from gradsh.engine.ops.creation import ones, zeros_like
from gradsh.engine.ops.functional import repeat_interleave
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg import matmul, tril
from gradsh.engine.ops.sampling import dropout
from gradsh.engine.ops.selection import masked_fill_
from gradsh.engine.ops.shape import transpose
from gradsh.engine.tensor import Tensor

__all__ = ["_safe_softmax", "baddbmm", "scaled_dot_product_attention"]


@guarded
def _safe_softmax(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """softmax with 0 on fully -inf rows (SafeSoftmaxBackward0), as the math attention uses."""
    a = _check_tensor(a, "_safe_softmax")
    d = _softmax_dim("_safe_softmax", a.ndim, dim)
    return SafeSoftmaxBackward0.apply(a, dim=d)


@guarded
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1,  # noqa: A002
            alpha: float = 1) -> Tensor:
    """torch.baddbmm: beta * input + alpha * batch1 @ batch2 (BaddbmmBackward0)."""
    batch1 = _check_tensor(batch1, "baddbmm", "batch1", 2)
    batch2 = _check_tensor(batch2, "baddbmm", "batch2", 3)
    check_baddbmm_input(input, batch1, batch2)
    if batch1.ndim != 3:
        raise TorchRuntimeError("batch1 must be a 3D tensor")
    if batch2.ndim != 3:
        raise TorchRuntimeError("batch2 must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        raise TorchRuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: [{batch2.shape[0]}, "
            f"{batch2.shape[1]}].")
    if batch1.dtype is not batch2.dtype:
        raise TorchRuntimeError(f"expected scalar type {batch1.dtype.short} but found "
                                f"{batch2.dtype.short}")
    return BaddbmmBackward0.apply(input, batch1, batch2, beta=beta, alpha=alpha)


def _boolean_mask_to_float(mask: Tensor | None, dtype: dtypes.DType) -> Tensor | None:
    """convert_boolean_attn_mask: True keeps a position (0 added), False masks it (-inf)."""
    if mask is None or mask.dtype is not dtypes.bool_:
        return mask
    return masked_fill_(zeros_like(mask, dtype=dtype), logical_not(mask), -math.inf)


# The SDPA backend switches (torch._C._set_sdp_use_*, which torch.nn.attention.sdpa_kernel and
# torch.backends.cuda.enable_*_sdp set): the CPU has the flash kernel and the math composition;
# the other backends' switches are kept only to be read back.
SDP_ENABLED = {"cudnn": True, "flash": True, "mem_efficient": True, "math": True,
               "overrideable": True}


def _uses_flash(q: Tensor, k: Tensor, v: Tensor, dropout_p: float, groups: int) -> bool:
    """PyTorch's CPU choice of the flash kernel: 4-D inputs of one batch, head count and head
    size, unit stride on the last dimension, no dropout; the math composition otherwise."""
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4 or dropout_p > 0.0:
        return False
    heads = (q.shape[0], q.shape[1] // groups)
    if heads != tuple(k.shape[:2]) or heads != tuple(v.shape[:2]):
        return False
    if not q.shape[-1] == k.shape[-1] == v.shape[-1]:
        return False
    if not q.dtype.is_floating_point:
        return False
    return all(t.shape[-1] <= 1 or t.stride()[-1] == 1 for t in (q, k, v))


def _math_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, dropout_p: float,
                    is_causal: bool, scale: float) -> Tensor:
    """ATen's _scaled_dot_product_attention_math, step for step (so its graph is PyTorch's)."""
    if is_causal and mask is not None:  # (the flash kernel takes both: their intersection)
        raise TorchRuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                                "be set when is_causal=True")
    factor = math.sqrt(scale)
    q = MulBackward1.apply(q, other=factor)
    if is_causal:
        mask = _boolean_mask_to_float(
            tril(ones((q.shape[-2], k.shape[-2]), dtype=dtypes.bool_)), q.dtype)
    scores = matmul(q, MulBackward1.apply(transpose(k, -2, -1), other=factor))
    if mask is not None:
        scores = add_(scores, mask)
    attention = _safe_softmax(scores, -1)
    if dropout_p > 0.0:
        attention = dropout(attention, dropout_p, True)
    return matmul(attention, v)


@guarded(tensor_first=False)
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """F.scaled_dot_product_attention: softmax(q k^T scale + mask) v, on the CPU flash kernel
    where PyTorch picks it (ScaledDotProductFlashAttentionForCpuBackward0), else the math."""
    dispatch = getattr(type(attn_mask), "_sdpa_dispatch", None)
    if dispatch is not None:  # torch.nn.attention.bias.CausalBias takes the call over
        return dispatch(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    query = _check_tensor(query, "scaled_dot_product_attention", "query", 1)
    key = _check_tensor(key, "scaled_dot_product_attention", "key", 2)
    value = _check_tensor(value, "scaled_dot_product_attention", "value", 3)
    if query.dtype is not key.dtype or query.dtype is not value.dtype:
        raise TorchRuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query.dtype} key.dtype: {key.dtype} and value.dtype: {value.dtype} instead.")
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise TorchRuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} "
            "instead.")
    if attn_mask is not None and attn_mask.dtype is not dtypes.bool_ \
            and not attn_mask.dtype.is_floating_point:
        raise TorchRuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {attn_mask.dtype} and  query.dtype: {query.dtype} instead.")
    mask = _boolean_mask_to_float(attn_mask, query.dtype)
    chosen_scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    groups = 1
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        if key.shape[-3] == 0 or query.shape[-3] % key.shape[-3]:
            raise TorchRuntimeError(
                "Number of heads in key and value must divide the number of heads in query")
        groups = query.shape[-3] // key.shape[-3]
    if not SDP_ENABLED["flash"] and not SDP_ENABLED["math"]:
        raise TorchRuntimeError(
            "No viable backend for scaled_dot_product_attention was found. This is likely due "
            "to turning off both the math kernel and the fused kernels.")
    if SDP_ENABLED["flash"] and _uses_flash(query, key, value, dropout_p, groups):
        mask_data = None if mask is None else mask._data
        return ScaledDotProductFlashAttentionForCpuBackward0.apply(
            query, key, value, mask=mask_data, is_causal=is_causal, scale=chosen_scale,
            groups=groups)
    if not SDP_ENABLED["math"]:  # select_sdp_backend_cpp: flash on, but not for these inputs
        raise TorchRuntimeError("No available kernel.  Aborting execution.")
    if groups > 1:  # ATen's pre_process_group_query_attention_input
        key = repeat_interleave(key, groups, -3)
        value = repeat_interleave(value, groups, -3)
    return _math_attention(query, key, value, mask, dropout_p, is_causal, chosen_scale)
