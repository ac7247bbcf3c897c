"""Gradient clipping: rescale (clip_grad_norm_) or clamp (clip_grad_value_) the .grad of
parameters in place, as PyTorch computes it."""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable
from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm"]


def _as_list(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _total_norm(grads: list[Tensor], norm_type: float, error_if_nonfinite: bool) -> Tensor:
    """The norm of the per-tensor norms (of order norm_type)."""
    if not grads:
        return ops.tensor(0.0)
    first_device = grads[0].device
    norms = [ops.vector_norm(g, norm_type) for g in grads]
    total = ops.vector_norm(ops.stack([ops.to(n, device=first_device) for n in norms]),
                            norm_type)
    if error_if_nonfinite and bool(ops.logical_or(ops.isnan(total), ops.isinf(total))):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total  # type: ignore[no-any-return]


def get_total_norm(tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The norm of the tensors' norms, as if they were one vector (0 for no tensors)."""
    with no_grad():
        return _total_norm(_as_list(tensors), float(norm_type), error_if_nonfinite)


def clip_grads_with_norm_(parameters: Any, max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Scale every .grad by max_norm / (total_norm + 1e-6) when that is below 1."""
    with no_grad():
        grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
        if not grads:
            return
        # max_norm / tensor is Tensor.__rtruediv__: reciprocal() * max_norm, as in PyTorch
        coefficient = ops.clamp(float(max_norm) / ops.add(total_norm, 1e-6), max=1.0)
        for g in grads:
            ops.mul_(g, ops.to(coefficient, device=g.device))


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """get_total_norm of the gradients, then clip_grads_with_norm_; returns the total norm
    before clipping."""
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters: Any, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters: Any, clip_value: float, foreach: bool | None = None) -> None:
    """Clamp every gradient into [-clip_value, clip_value], in place."""
    with no_grad():
        clip_value = float(clip_value)
        for p in _as_list(parameters):
            if p.grad is not None:
                ops.clamp_(p.grad, min=-clip_value, max=clip_value)
