"""torch.ctc_loss: ATen's ctc_loss (LossCTC.cpp's ctc_loss_impl and its argument checks) over
CtcLossBackward0: zero_infinity's where, the reductions ('mean' divides each loss by its target
length, at least 1, then averages), unbatched inputs."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.ctc import CtcLossBackward0
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["ctc_loss"]

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}
_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"


def _lengths(value: Any, name: str) -> list[int]:
    """Lengths given as a tensor (integral, any shape) or a sequence of ints."""
    if isinstance(value, Tensor):
        if value.dtype.category != 1:  # floating, complex or bool
            raise TorchRuntimeError(f"{name} must be integral")
        return [int(v) for v in np.asarray(value._data).reshape(-1).tolist()]
    return [int(v) for v in value]


def _check(log_probs: Tensor, targets: Tensor, input_lengths: list[int],
           target_lengths: list[int], blank: int) -> list[int]:
    """ATen's ctc_loss_allocate_outputs checks, in its order; the targets' batch offsets."""
    if log_probs.ndim != 3:
        raise TorchRuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.ndim}-"
                                f"dimensional tensor for argument #1 'log_probs' {_WHERE}")
    if not 1 <= targets.ndim < 3:
        raise TorchRuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional "
                                f"tensor for argument #2 'targets' {_WHERE}")
    steps, batch, labels = log_probs.shape
    if not 0 <= blank < labels:
        raise TorchRuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise TorchRuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise TorchRuntimeError("target_lengths must be of size batch_size")
    offsets = []
    pos = 0
    for i, length in enumerate(target_lengths):
        if length < 0:
            raise TorchRuntimeError("Expected target_lengths to have value at least 0, but got "
                                    f"value {length} {_WHERE}")
        offsets.append(pos if targets.ndim == 1 else i * (targets.shape[1]))
        pos += length
    if targets.ndim == 1:
        if targets.shape[0] != pos:
            raise TorchRuntimeError(f"Expected tensor to have size {pos} at dimension 0, but got "
                                    f"size {targets.shape[0]} for argument #2 'targets' {_WHERE}")
    else:
        if targets.shape[0] != batch:
            raise TorchRuntimeError(f"Expected tensor to have size {batch} at dimension 0, but "
                                    f"got size {targets.shape[0]} for argument #2 'targets' "
                                    f"{_WHERE}")
        longest = max(target_lengths, default=0)
        if targets.shape[1] < longest:
            raise TorchRuntimeError(f"Expected tensor to have size at least {longest} at "
                                    f"dimension 1, but got size {targets.shape[1]} for argument "
                                    f"#2 'targets' {_WHERE}")
    for length in input_lengths:
        if length < 0:
            raise TorchRuntimeError("Expected input_lengths to have value at least 0, but got "
                                    f"value {length} {_WHERE}")
        if length > steps:
            raise TorchRuntimeError(f"Expected input_lengths to have value at most {steps}, but "
                                    f"got value {length} {_WHERE}")
    return offsets


@guarded
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: int | str = 0, zero_infinity: bool = False) -> Tensor:
    """The CTC loss of log-probabilities (T, N, C) or (T, C) against targets (N, S), or all
    targets concatenated; `reduction` as torch.ctc_loss takes it (0 none, 1 mean, 2 sum) or as
    F.ctc_loss names it."""
    from gradsh.engine import ops

    reduction = _REDUCTIONS.get(reduction, reduction)  # type: ignore[call-overload]
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    lp = log_probs if batched else ops.unsqueeze(log_probs, 1)
    if log_probs.dtype not in (dtypes.float32, dtypes.float64):
        raise TorchNotImplementedError(
            f"\"ctc_loss_cpu\" not implemented for '{log_probs.dtype.short}'")
    if lp.numel() == 0:
        raise TorchRuntimeError("log_probs tensor must not be empty")
    offsets = _check(lp, targets, il, tl, blank)
    flat = np.asarray(targets._data).astype(np.int64).reshape(-1)
    used = np.concatenate([flat[o:o + n] for o, n in zip(offsets, tl, strict=True)] or [flat[:0]])
    if used.size and (used.min() < 0 or used.max() >= lp.shape[2]):
        # NOTE: PyTorch does not check this and reads (and writes) past log_probs' rows
        raise TorchRuntimeError(f"gradsh: ctc_loss targets must lie in [0, {lp.shape[2]}) "
                                "(PyTorch does not check them and reads outside log_probs)")
    res = CtcLossBackward0.apply(lp, targets=flat, input_lengths=il, target_lengths=tl,
                                 offsets=offsets, blank=blank, zero_infinity=zero_infinity)
    if zero_infinity:
        res = ops.where(ops.eq(res, float("inf")), ops.zeros((), dtype=res.dtype), res)
    if reduction == "mean":
        clamped = ops.clamp_min(ops.tensor(tl, dtype=res.dtype), 1)
        return ops.mean(ops.div(res, clamped))  # type: ignore[no-any-return]
    if reduction == "sum":
        return ops.sum(res)  # type: ignore[no-any-return]
    return res if batched else ops.squeeze(res, 0)  # type: ignore[no-any-return]
