"""Normalisation: batch_norm, instance_norm, layer_norm and group_norm, with PyTorch's argument
checks."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.normalization import (
    NativeBatchNormBackward0,
    NativeGroupNormBackward0,
    NativeLayerNormBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.arithmetic import add, mul
from gradsh.engine.ops.copies import clone
from gradsh.engine.ops.creation import zeros
from gradsh.engine.ops.joining import repeat
from gradsh.engine.ops.shape import contiguous, select, view
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["batch_norm", "instance_norm", "layer_norm", "group_norm"]

# How many torch.func.vmap calls are running (vmap counts itself in and out): PyTorch's batched
# batch norm refuses to update running statistics that are not batched themselves. gradsh's
# vmap runs the function per example, so a batch norm inside counts as fed a batched input.
VMAP_LEVELS = [0]
_BATCHED_RUNNING_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which "
    "will be updated in place, were not batched.\nIf you are using a module and do not need "
    "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt module "
    "and do not need eval mode, please see the functorch website for resources on how to patch "
    "your module to work with vmap")


def _placeholder(like: Tensor) -> Tensor:
    """What the node receives for an absent weight or bias."""
    return zeros(0, dtype=like.dtype, device=like.device)


def _or_placeholder(t: Tensor | None, like: Tensor) -> Tensor:
    return t if t is not None else _placeholder(like)


def _check_dtypes(input: Tensor, kernel: str, params: tuple[Tensor | None, ...],  # noqa: A002
                  kernel_first: bool) -> None:
    """PyTorch's CPU dtype checks of a normalisation: a floating input (else `kernel` is "not
    implemented for" its dtype), and parameters (weight, bias, running statistics) of the
    input's dtype, or float32 ones under a float16/bfloat16 input (ATen's mixed_dtype.h).
    batch_norm checks the input's dtype first, layer_norm and group_norm the parameters."""
    if kernel_first and not input.dtype.is_floating_point:
        raise not_implemented_for(kernel, input.dtype)
    kinds = {t.dtype for t in params if t is not None}
    if kinds and kinds != {input.dtype}:
        if kinds != {dtypes.float32}:
            raise TorchRuntimeError("mixed dtype (CPU): expect parameter to have scalar type of "
                                    "Float")
        if input.dtype not in (dtypes.float16, dtypes.bfloat16):
            raise TorchRuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if not input.dtype.is_floating_point:
        raise not_implemented_for(kernel, input.dtype)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    input = _check_tensor(input, "batch_norm")
    if input.ndim < 2:
        raise TorchValueError(f"expected 2D or 3D input (got {input.ndim}D input)")
    if training:
        size = math.prod(input.shape[:1] + input.shape[2:])  # (_verify_batch_size's product)
        if size == 1:
            raise TorchValueError("Expected more than 1 value per channel when training, got "
                                  f"input size {input.shape}")
    elif running_mean is None or running_var is None:
        raise TorchRuntimeError("running_mean and running_var must be defined in evaluation "
                                "mode")
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise TorchRuntimeError(f"{name} should contain {channels} elements not "
                                    f"{t.numel()}")
    _check_dtypes(input, "batch_norm", (weight, bias, running_mean, running_var), True)
    if VMAP_LEVELS[0] and training and (running_mean is not None or running_var is not None):
        raise TorchRuntimeError(_BATCHED_RUNNING_STATS)
    if input.numel() == 0:
        return _empty_batch_norm(input, weight, bias)
    return NativeBatchNormBackward0.apply(
        input, _or_placeholder(weight, input), _or_placeholder(bias, input),
        running_mean=running_mean, running_var=running_var, training=training,
        momentum=momentum, eps=eps, affine=(weight is not None, bias is not None))


def _empty_batch_norm(input: Tensor, weight: Tensor | None,  # noqa: A002
                      bias: Tensor | None) -> Tensor:
    """ATen's _batch_norm_impl_index for an empty input: a clone, times weight[0] and plus
    bias[0] where given (so the graph reaches them); the running statistics are untouched."""
    out = clone(input)
    if weight is not None:
        out = mul(out, select(weight, 0, 0))
    if bias is not None:
        out = add(out, select(bias, 0, 0))
    return out


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    input = _check_tensor(input, "layer_norm")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
        int(n) for n in normalized_shape)
    n = len(shape)
    if n == 0 or input.ndim < n or tuple(input.shape[input.ndim - n:]) != shape:
        raise TorchRuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise TorchRuntimeError(f"Expected {name} to be of same shape as normalized_shape, "
                                    f"but got {name} of shape {list(t.shape)} and "
                                    f"normalized_shape = {list(shape)}")
    _check_dtypes(input, "LayerNormKernelImpl", (weight, bias), False)
    return NativeLayerNormBackward0.apply(
        input, _or_placeholder(weight, input), _or_placeholder(bias, input), normalized=n,
        eps=eps, affine=(weight is not None, bias is not None))


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    input = _check_tensor(input, "group_norm")
    if input.ndim < 2:
        raise TorchRuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                                f"{input.ndim}")
    if input.shape[1] % num_groups:
        raise TorchRuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {list(input.shape)} and num_groups={num_groups}")
    _check_dtypes(input, "GroupNormKernelImpl", (weight, bias), False)
    return NativeGroupNormBackward0.apply(
        input, _or_placeholder(weight, input), _or_placeholder(bias, input), groups=num_groups,
        eps=eps, affine=(weight is not None, bias is not None))


def instance_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
                  running_mean: Tensor | None, running_var: Tensor | None,
                  use_input_stats: bool, momentum: float, eps: float,
                  cudnn_enabled: bool = True) -> Tensor:
    """ATen's instance_norm: a batch norm of the input viewed as (1, N*C, ...), the affine
    parameters and running statistics repeated N times (RepeatBackward0), the running
    statistics then averaged back over the batch."""
    input = _check_tensor(input, "instance_norm")
    b, c = input.shape[0], input.shape[1]

    def repeated(t: Tensor | None) -> Tensor | None:
        return None if t is None else repeat(t, b)

    weight_, bias_ = repeated(weight), repeated(bias)
    mean_, var_ = repeated(running_mean), repeated(running_var)
    shape = (1, b * c) + tuple(input.shape[2:])
    out = batch_norm(view(contiguous(input), shape), mean_, var_, weight_, bias_,
                     use_input_stats, momentum, eps)
    with no_grad():
        for stat, update in ((running_mean, mean_), (running_var, var_)):
            if stat is not None and update is not None:
                stat.copy_(view(update, (b, c)).mean(0))
    return view(out, tuple(input.shape))
